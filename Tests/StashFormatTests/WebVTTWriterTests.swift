import Foundation
import StashTestSupport
import Testing

@testable import StashFormat

/// The writer produces WebVTT that reads back as the same document.
@Suite struct WebVTTWriterTests {
  @Test(arguments: [WebVTTFixtures.stashMemo, WebVTTFixtures.stashPart, WebVTTFixtures.kitchenSink])
  func fixturesRoundTrip(_ text: String) {
    let document = WebVTTParser.parse(text)
    let written = WebVTTWriter.serialize(document)
    let again = WebVTTParser.parse(written)
    #expect(again == document)
    #expect(again.diagnostics == [], "\(written)")
    // Writing is stable: the second round writes the same text.
    #expect(WebVTTWriter.serialize(again) == written)
  }

  /// Every transcript among the repository's synthetic fixtures (demo memos, crash parts, lint cases).
  static let fixtureFiles: [URL] = {
    let root = Fixtures.repositoryRoot.appendingPathComponent("SyntheticFixtures")
    let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])?
      .compactMap { $0 as? URL }
    // The lint cases hold odd things named .vtt (a folder, for one); only regular files are read.
    return (files ?? []).filter {
      $0.pathExtension == "vtt"
        && (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
    }.sorted { $0.path < $1.path }
  }()

  @Test func syntheticFixturesRoundTrip() throws {
    #expect(Self.fixtureFiles.count > 10)
    for file in Self.fixtureFiles {
      let document = WebVTTParser.parse(Array(try Data(contentsOf: file)))
      let again = WebVTTParser.parse(WebVTTWriter.serialize(document))
      #expect(again == document, "\(file.path)")
      // What reads clean writes clean (the writer keeps raw cue text, so a torn tag stays torn).
      if document.diagnostics.isEmpty { #expect(again.diagnostics == [], "\(file.path)") }
    }
  }

  @Test func repairedInputStillRoundTrips() {
    // Problems the writer cannot carry are dropped by the parser first; what is left reads back.
    let messy =
      "WEBVTT hi\r\nKind: x\r\n00:01.000-->00:02.000 align:bogus line:5%\r\n<b>x &amp y\r\n\r\nNOTE c\r\n"
    let document = WebVTTParser.parse(messy)
    #expect(!document.diagnostics.isEmpty)
    #expect(WebVTTParser.parse(WebVTTWriter.serialize(document)) == document)
  }

  @Test func randomDocumentsRoundTrip() {
    var random = WebVTTRandom(seed: 20_261_129)
    for round in 0..<300 {
      let document = random.document()
      let written = WebVTTWriter.serialize(document)
      let again = WebVTTParser.parse(written)
      #expect(again == document, "round \(round):\n\(written)")
      #expect(again.diagnostics.filter { $0.severity == .error } == [], "round \(round):\n\(written)")
      for (cue, back) in zip(document.cues, again.cues) where cue.nodes != back.nodes {
        Issue.record("round \(round): nodes of \(cue.text.debugDescription) changed")
      }
    }
  }

  @Test func randomNodeTreesReadBackFromTheirText() {
    var random = WebVTTRandom(seed: 7)
    for _ in 0..<500 {
      let nodes = random.nodes()
      let cue = WebVTTCue(startTime: 0, endTime: 1, nodes: nodes)
      #expect(cue.nodes == nodes, "\(cue.text.debugDescription)")
    }
  }

  @Test func timestampsHaveMillisecondsAndHoursWhenNeeded() {
    #expect(WebVTTTimestamp.formatShort(0) == "00:00.000")
    #expect(WebVTTTimestamp.formatShort(59.9995) == "01:00.000")
    #expect(WebVTTTimestamp.formatShort(3599.999) == "59:59.999")
    #expect(WebVTTTimestamp.formatShort(3600) == "01:00:00.000")
    #expect(WebVTTTimestamp.format(360_000.25) == "100:00:00.250")
    #expect(WebVTTTimestamp.format(-3) == "00:00:00.000" && WebVTTTimestamp.format(.nan) == "00:00:00.000")
  }

  @Test func textWebVTTCannotHoldIsChangedAsLittleAsPossible() {
    let cue = WebVTTCue(id: "a-->b\nc", startTime: 1, endTime: 2, text: "\nfirst\n\n\nsecond --> third\n")
    let note = WebVTTNote(text: "x --> y\n\nz", cuesBefore: 0)
    let written = WebVTTWriter.serialize(WebVTTDocument(cues: [cue], notes: [note]))
    #expect(
      written
        == "WEBVTT\n\nNOTE x --&gt; y\nz\n\na- ->b c\n00:01.000 --> 00:02.000\nfirst\nsecond --&gt; third\n\n"
    )
    let again = WebVTTParser.parse(written)
    #expect(again.diagnostics == [])
    #expect(again.cues[0].plainText == "first\nsecond --> third")
  }

  @Test func numbersAreWrittenWithoutExponents() {
    #expect(WebVTTWriter.number(1e-7) == "0.0000001")
    #expect(WebVTTWriter.number(2.5) == "2.5")
    #expect(WebVTTWriter.number(-3) == "-3")
    #expect(WebVTTWriter.number(1e21) == "1000000000000000000000")
    var cue = WebVTTCue(startTime: 0, endTime: 1, text: "x")
    cue.line = 1e-7
    cue.snapToLines = false
    cue.position = 33.333333333333336
    let back = WebVTTParser.parse(WebVTTWriter.serialize(WebVTTDocument(cues: [cue]))).cues[0]
    #expect(back.line == 1e-7 && back.position == 33.333333333333336 && !back.snapToLines)
  }

  /// The writer's integer timestamps print exactly what `WebVTTTimestamp.formatShort` prints.
  @Test func timestampsMatchTheGeneralFormatter() {
    var values: [Double] = [
      0, -1, 0.0004, 0.0005, 59.9995, 3599.9995, 3600, 86_400 * 500, 1e14, 1e15, 1e20, .nan, .infinity,
    ]
    var random = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      values.append(Double.random(in: 0...20_000, using: &random))
      values.append(Double(Int.random(in: 0...100_000_000, using: &random)) / 1000)
    }
    for value in values {
      var out: [UInt8] = []
      WebVTTWriter.appendShortTimestamp(value, to: &out)
      #expect(String(decoding: out, as: UTF8.self) == WebVTTTimestamp.formatShort(value), "\(value)")
    }
  }
}
