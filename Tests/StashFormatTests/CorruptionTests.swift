import Foundation
import StashTestSupport
import Testing

@testable import StashFormat

/// Every fixture file of every synthetic folder, cut short and damaged: each reader reads what it
/// can without a crash, and salvage never finds more than the bytes it was given can hold. (Every
/// prefix of the fixture audio is in MP4PrefixTests; here audio gets bit flips and deletions.)
@Suite struct CorruptionTests {
  /// Fixture files of `suffix` in demo, lint, crash (with its parts folders) and twins.
  static func fixtures(_ suffix: String) -> [String] {
    ["demo", "lint", "crash", "twins"].flatMap { folder -> [String] in
      let root = Fixtures.folder(folder).path
      let walker = FileManager.default.enumerator(atPath: root)
      var found: [String] = []
      while let name = walker?.nextObject() as? String {
        if name.hasSuffix(suffix) { found.append(root + "/" + name) }
      }
      return found.sorted()
    }
  }

  static let transcripts = fixtures(".vtt")
  static let routes = fixtures(".gpx")
  static let titles = fixtures(".txt")
  static let audio = fixtures(".m4a")

  static func bytes(_ path: String) -> [UInt8] {
    (try? ReadOnlyFile.contents(of: path)) ?? []
  }

  /// Lengths to cut a text file at: every one for a small file; for a larger one every line
  /// boundary and the bytes around it, the last 512 bytes, and a stride.
  static func cuts(_ bytes: [UInt8]) -> [Int] {
    if bytes.count <= 3000 { return Array(0...bytes.count) }
    var lengths = Set(max(0, bytes.count - 512)...bytes.count)
    for (index, byte) in bytes.enumerated() where byte == 0x0A {
      lengths.formUnion([index, index + 1, index + 2].filter { $0 <= bytes.count })
    }
    lengths.formUnion(stride(from: 0, to: bytes.count, by: max(1, bytes.count / 200)))
    return lengths.sorted()
  }

  /// `bytes` with damage done by `random`: a few bits flipped, a run deleted, or both.
  static func damaged(_ bytes: [UInt8], _ random: inout WebVTTRandom) -> [UInt8] {
    var out = bytes
    guard !out.isEmpty else { return out }
    let flips = random.next(4)
    for _ in 0..<flips { out[random.next(out.count)] ^= UInt8(1 << random.next(8)) }
    if flips == 0 || random.chance(40) {
      let start = random.next(out.count)
      out.removeSubrange(start..<min(out.count, start + 1 + random.next(16)))
    }
    return out
  }

  /// How often `needle` occurs in `haystack`.
  static func occurrences(_ needle: String, in haystack: [UInt8]) -> Int {
    let pattern = Array(needle.utf8)
    guard haystack.count >= pattern.count else { return 0 }
    var count = 0
    for start in 0...(haystack.count - pattern.count)
    where haystack[start] == pattern[0] && haystack[start..<start + pattern.count].elementsEqual(pattern) {
      count += 1
    }
    return count
  }

  @Test func thereAreFixturesOfEveryKind() {
    #expect(Self.transcripts.count >= 20)
    #expect(Self.routes.count >= 10)
    #expect(Self.titles.count >= 10)
    #expect(Self.audio.count >= 40)
  }

  @Test(arguments: transcripts)
  func transcriptCutAnywhereHoldsNoMoreCuesThanTheWhole(path: String) {
    let bytes = Self.bytes(path)
    let whole = WebVTTParser.parse(bytes)
    var over: [Int] = []
    for length in Self.cuts(bytes) {
      let part = WebVTTParser.parse(Array(bytes[..<length]))
      if part.cues.count > whole.cues.count { over.append(length) }
      // Times the cut leaves are still real times.
      #expect(part.cues.allSatisfy { $0.startTime.isFinite && $0.endTime.isFinite && $0.startTime >= 0 })
    }
    #expect(over.isEmpty, "cut at \(over.prefix(5)) held more cues than the whole file")
  }

  @Test(arguments: transcripts)
  func transcriptDamagedAnywhereKeepsOnlyCuesItHasTimingsFor(path: String) {
    let bytes = Self.bytes(path)
    var random = WebVTTRandom(seed: UInt64(bytes.count))
    for round in 0..<40 {
      let input = Self.damaged(bytes, &random)
      let read = WebVTTParser.parse(input)
      // A cue needs a timing line with an arrow.
      #expect(read.cues.count <= Self.occurrences("-->", in: input), "round \(round)")
      #expect(read.cueLines.count == read.cues.count)
      // Whatever survives the damage, the writer writes something that reads back as the same.
      let written = WebVTTWriter.serialize(read)
      #expect(WebVTTParser.parse(written) == read, "round \(round):\n\(written)")
    }
  }

  @Test(arguments: routes)
  func routeCutAnywhereHoldsNoMorePointsThanTheWhole(path: String) {
    let bytes = Self.bytes(path)
    let whole = GPXReader.read(bytes)
    var over: [Int] = []
    var clean: [Int] = []
    for length in Self.cuts(bytes) {
      let part = GPXReader.read(Array(bytes[..<length]))
      if part.pointCount > whole.pointCount { over.append(length) }
      // A cut before the root closes is always said.
      if length < bytes.count, !whole.isDamaged, !part.isDamaged,
        Self.occurrences("</gpx>", in: Array(bytes[..<length])) == 0
      {
        clean.append(length)
      }
    }
    #expect(over.isEmpty, "cut at \(over.prefix(5)) held more points than the whole file")
    #expect(clean.isEmpty, "cut at \(clean.prefix(5)) was read as an undamaged file")
  }

  @Test(arguments: routes)
  func routeDamagedAnywhereInventsNoPoints(path: String) {
    let bytes = Self.bytes(path)
    var random = WebVTTRandom(seed: UInt64(bytes.count) &* 31)
    for round in 0..<40 {
      let input = Self.damaged(bytes, &random)
      let read = GPXReader.read(input)
      // Each point needs a start tag naming it.
      let tags =
        Self.occurrences("<trkpt", in: input) + Self.occurrences("<rtept", in: input)
        + Self.occurrences("<wpt", in: input) + Self.occurrences(":trkpt", in: input)
        + Self.occurrences(":rtept", in: input) + Self.occurrences(":wpt", in: input)
      #expect(read.pointCount <= tags, "round \(round)")
    }
  }

  @Test(arguments: titles)
  func titleCutOrDamagedAnywhereIsOneBoundedLine(path: String) {
    let bytes = Self.bytes(path)
    var random = WebVTTRandom(seed: UInt64(bytes.count) &* 7)
    var inputs = Self.cuts(bytes).map { Array(bytes[..<$0]) }
    for _ in 0..<40 { inputs.append(Self.damaged(bytes, &random)) }
    for input in inputs {
      let title = Title.parse(input)
      if let shown = title.displayText {
        #expect(!shown.isEmpty && shown.count <= Title.maximumCharacters + 1)
        // One line: control characters are kept (and escaped where shown), line breaks are not.
        #expect(!shown.unicodeScalars.contains(where: Text.isLineBreak), "\(shown.debugDescription)")
      }
      #expect(title.byteCount == nil || title.byteCount == input.count)
    }
  }

  @Test(arguments: audio)
  func audioDamagedAnywhereKeepsItsSamplesInsideTheFile(path: String) throws {
    let bytes = Self.bytes(path)
    let scratch = try ScratchFolder("stash-corruption")
    defer { scratch.remove() }
    let copy = scratch.appendingPathComponent("x_audio.m4a").path
    var random = WebVTTRandom(seed: UInt64(bytes.count) &* 13)
    // Damage near the index (the first and last 4 KB hold ftyp, moov and the last moof) matters
    // most; damage in the middle of the media data changes nothing a reader looks at.
    let rounds = bytes.count > 300_000 ? 5 : 12
    for round in 0..<rounds {
      var input = bytes
      let near = random.chance(70)
      let span = min(4096, input.count)
      for _ in 0...random.next(3) {
        let at =
          near
          ? (random.chance(50) ? random.next(span) : input.count - 1 - random.next(span))
          : random.next(input.count)
        input[at] ^= UInt8(1 << random.next(8))
      }
      if random.chance(40) {
        let start = random.next(input.count)
        input.removeSubrange(start..<min(input.count, start + 1 + random.next(64)))
      }
      try Data(input).write(to: URL(fileURLWithPath: copy))
      let full = try MP4Audio.read(path: copy)
      let outside = full.samples.filter { $0.offset < 0 || $0.size < 0 || $0.offset + $0.size > input.count }
      #expect(outside.isEmpty, "round \(round): \(outside.count) samples outside the file")
      #expect(full.tailBytes >= 0 && full.tailBytes <= input.count)
      #expect(full.durationSeconds.map { $0.isFinite && $0 >= 0 } ?? true, "round \(round)")
      let summary = AudioSummary.read(path: copy)
      #expect(summary.durationSeconds.map { $0.isFinite && $0 >= 0 } ?? true, "round \(round)")
    }
  }
}
