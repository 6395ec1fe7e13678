import Glibc
import StashFormat
import Testing

/// Hostile and huge input: a clear diagnostic, never a crash, never a hang. Big inputs are made at
/// test time and kept to what runs in a second or two in a debug build.
@Suite struct WebVTTRobustnessTests {
  @Test func binaryGarbageIsNotWebVTT() {
    var random = WebVTTRandom(seed: 1)
    let bytes = (0..<4096).map { _ in UInt8(random.next(256)) }
    let document = WebVTTParser.parse(bytes)
    #expect(document.cues.isEmpty)
    #expect(document.diagnostics.map(\.code).contains(.vttNoSignature))
    let message = document.diagnostics.first { $0.code == .vttNoSignature }?.message ?? ""
    #expect(message.contains("not UTF-8"))
    // Control characters in the quoted first line are not printed as they are.
    #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
  }

  /// `head`, then `count` copies of `unit`, then `tail`, built with memcpy (debug builds are slow at
  /// appending a hundred million bytes one by one).
  private func bytes(_ head: String, _ unit: String, count: Int, _ tail: String) -> [UInt8] {
    let (h, u, t) = (Array(head.utf8), Array(unit.utf8), Array(tail.utf8))
    let total = h.count + u.count * count + t.count
    return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
      let base = buffer.baseAddress!
      memcpy(base, h, h.count)
      var at = h.count
      if u.count == 1 {
        memset(base + at, Int32(u[0]), count)
        at += count
      } else {
        for _ in 0..<count {
          memcpy(base + at, u, u.count)
          at += u.count
        }
      }
      memcpy(base + at, t, t.count)
      initialized = total
    }
  }

  @Test func oneHundredMegabyteLine() {
    let size = 100_000_000
    var bytes = bytes("WEBVTT\n\nNOTE ", "a", count: size, "\n\n00:00.000 --> 00:01.000\nafter\n")
    let document = WebVTTParser.parse(bytes)
    #expect(document.notes.count == 1 && document.notes[0].text.utf8.count == size)
    #expect(document.cues.map(\.text) == ["after"])
    // The same line where a block has no meaning: reported, quoted short.
    bytes.replaceSubrange(8..<13, with: Array("xxxxx".utf8))
    let stray = WebVTTParser.parse(bytes)
    #expect(stray.diagnostics.map(\.code) == [.vttStrayText])
    #expect(stray.diagnostics[0].message.count < 200)
    #expect(stray.cues.count == 1)
  }

  @Test func megabytesOfBadSettingsOnOneTimingLine() {
    let bytes = bytes("WEBVTT\n\n00:00.000 --> 00:01.000", " align:x", count: 250_000, "\ntext\n")
    let document = WebVTTParser.parse(bytes)
    #expect(document.cues.map(\.text) == ["text"])
    // Listed up to the limit, the rest counted.
    #expect(document.diagnostics.count == WebVTTParser.diagnosticLimit + 1)
    #expect(document.diagnostics.last?.code == .vttTooManyDiagnostics)
  }

  @Test func manyProblemsAtTheEndOfAHugeLineAreFoundInOnePass() {
    // Finding the column of each problem from the start of the line would read 10 MB a thousand
    // times over; this has to finish in about the time one parse takes.
    let text = bytes(
      "WEBVTT\n\n00:00.000 --> 00:01.000\n", "a", count: 10_000_000, String(repeating: "<x>", count: 2000))
    let document = WebVTTParser.parse(text)
    #expect(document.diagnostics.count == WebVTTParser.diagnosticLimit + 1)
    #expect(document.diagnostics.first?.location.column == 10_000_001)
    #expect(document.diagnostics[999].location.column == 10_000_001 + 999 * 3)
    #expect(document.diagnostics.last?.message.hasPrefix("1000 more problems") == true)
  }

  @Test func aMillionCues() {
    let document = WebVTTParser.parse(
      bytes("WEBVTT\n\n", "00:00.000 --> 00:00.001\nx\n\n", count: 1_000_000, ""))
    #expect(document.cues.count == 1_000_000)
    #expect(document.diagnostics == [])
    #expect(document.cues.last?.text == "x")
    #expect(document.cueLines.last == 3 * 1_000_000)
  }

  @Test func deeplyNestedTagsInAFile() {
    let depth = 200_000
    let text = "WEBVTT\n\n00:00.000 --> 00:01.000\n" + String(repeating: "<c.x>", count: depth) + "deep"
    let document = WebVTTParser.parse(text)
    #expect(document.cues.count == 1)
    // Each of the 64 tags the tree holds is reported unclosed, then the depth, then the rest at once.
    #expect(
      document.diagnostics.map(\.code)
        == Array(repeating: .vttUnclosedTag, count: 64) + [.vttNestingTooDeep, .vttUnclosedTag])
    #expect(document.cues[0].plainText == "deep")
  }

  @Test(arguments: [WebVTTFixtures.stashMemo, WebVTTFixtures.kitchenSink])
  func everyPrefixParsesAndWhatIsReadOnlyGrows(_ text: String) {
    let bytes = Array(text.utf8)
    let full = WebVTTParser.parse(bytes)
    var previousCount = 0
    for length in 0...bytes.count {
      let prefix = WebVTTParser.parse(Array(bytes[0..<length]))
      #expect(prefix.cues.count >= previousCount, "prefix \(length)")
      previousCount = prefix.cues.count
      // Every cue but the last one read so far is already complete.
      for (index, cue) in prefix.cues.dropLast().enumerated() {
        #expect(cue == full.cues[index], "prefix \(length), cue \(index)")
      }
      #expect(prefix.regions.count <= full.regions.count)
    }
    #expect(previousCount == full.cues.count)
  }

  @Test func everyCutOfMultibyteTextIsReplacedNotCrashed() {
    let bytes = Array("WEBVTT\n\n00:00.000 --> 00:01.000\n漢字😀ü".utf8)
    for length in 31...bytes.count {
      let document = WebVTTParser.parse(Array(bytes[0..<length]))
      #expect(document.cues.count == 1)
      #expect(document.cues.first?.text.isEmpty == (length <= 32), "\(length)")
    }
  }
}
