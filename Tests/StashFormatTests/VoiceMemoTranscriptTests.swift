import Foundation
import StashTestSupport
import Testing

@testable import StashFormat

/// Apple Voice Memos recordings built here byte by byte: the items, the `tsrp` transcript in its
/// three JSON shapes and two places, both readings of a `timeRange`'s second number, and the
/// damaged ones (not JSON, another shape, times that go back, 64-bit sizes, a truncated file).
@Suite struct VoiceMemoTranscriptTests {
  typealias B = MP4BoxBuilder

  /// A small MP4 as Apple lays it out (moov after mdat), its one track's samples inside `mdat`.
  static func plainMP4() -> [UInt8] {
    let mdat = B.box("mdat", [UInt8](repeating: 0x21, count: 40))
    let ftyp = B.ftyp()
    let entry = B.mp4a(children: B.esds(config: B.lcConfig))
    let stbl = B.stbl(
      entry: entry, durations: [1024, 1024], sizes: [20, 20], chunkOffset: UInt64(ftyp.count + 8))
    return ftyp + mdat + B.moov(tracks: [B.trak(id: 1, stbl: stbl)])
  }

  /// The runs of an example phrase, each `[start, end]`.
  static let phrase: [(String, (Double, Double)?)] = [
    ("We ", (3.1, 3.48)), ("talked ", (3.5, 3.9)), ("about… ", (3.9, 4.6)), ("um, ", (5.0, 5.2)),
    ("the ", (5.2, 5.3)), ("garden. ", (5.3, 5.9)), ("Then ", (7.5, 7.8)), ("lunch.", (7.8, 8.3)),
  ]

  func write(_ bytes: [UInt8], name: String = "20250608 083012-1A2B3C4D.m4a") throws -> (
    ScratchFolder, String
  ) {
    let folder = try ScratchFolder("stash-voice-memo")
    let path = folder.appendingPathComponent(name).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return (folder, path)
  }

  func transcript(of bytes: [UInt8]) throws -> (VoiceMemoItems, VoiceMemoTranscript?) {
    let (folder, path) = try write(bytes)
    defer { folder.remove() }
    let file = try ReadOnlyFile(path: path)
    let items = try VoiceMemoItems.read(file)
    return (items, try items.readTranscript(in: file))
  }

  @Test func theItemsAreRead() throws {
    let bytes = VoiceMemoRecording.dress(
      Self.plainMP4(), title: "Garden plans", tool: "com.apple.VoiceMemos (iPhone 18.2)",
      uuid: "1A2B3C4D-1111-4222-8333-444455556666", transcript: nil, creationTime: nil)
    let (items, transcript) = try transcript(of: bytes)
    #expect(items.title == "Garden plans")
    #expect(items.tool == "com.apple.VoiceMemos (iPhone 18.2)")
    #expect(items.uuid == "1A2B3C4D-1111-4222-8333-444455556666")
    #expect(items.creationTime == 1_703_980_800)
    #expect(items.writtenByVoiceMemos)
    #expect(items.transcript == nil)
    #expect(transcript == nil)
    let plain = try self.transcript(of: Self.plainMP4()).0
    #expect(!plain.writtenByVoiceMemos && plain.title == nil)
  }

  @Test(arguments: [false, true])
  func theInterleavedShape(largeSizes: Bool) throws {
    let json = VoiceMemoRecording.interleavedJSON(Self.phrase)
    let bytes = VoiceMemoRecording.dress(Self.plainMP4(), transcript: json, largeSizes: largeSizes)
    let (items, read) = try transcript(of: bytes)
    let transcript = try #require(read)
    #expect(items.transcript?.path == "moov/trak/udta/tsrp")
    #expect(items.transcript?.size == json.count)
    #expect(items.title == "New Recording")
    #expect(transcript.shape == .interleaved)
    #expect(transcript.locale == "en_US")
    #expect(transcript.secondTime == .end)
    #expect(transcript.runs.map(\.text) == Self.phrase.map(\.0))
    #expect(transcript.runs.map(\.start) == Self.phrase.map { $0.1?.0 })
    #expect(transcript.runs.map(\.end) == Self.phrase.map { $0.1?.1 })
    #expect(transcript.diagnostics.isEmpty)
  }

  @Test func theTableShapeWithInlineEmptyRuns() throws {
    var runs = Self.phrase
    runs.insert(("(inaudible) ", nil), at: 3)
    let (_, read) = try transcript(
      of: VoiceMemoRecording.dress(Self.plainMP4(), transcript: VoiceMemoRecording.tableJSON(runs)))
    let transcript = try #require(read)
    #expect(transcript.shape == .table)
    #expect(transcript.runs.map(\.text) == runs.map(\.0))
    #expect(transcript.runs[3] == VoiceMemoTranscript.Run(text: "(inaudible) "))
    #expect(transcript.runs[4].start == 5.0)
  }

  @Test func aBareString() throws {
    let json = Array("{\"attributedString\":\"Just words, no times.\"}".utf8)
    let transcript = try VoiceMemoTranscript.parse(json)
    #expect(transcript.shape == .plain)
    #expect(transcript.runs == [.init(text: "Just words, no times.")])
    let cues = transcript.webVTTDocument(audioLength: 12.5).cues
    #expect(cues.count == 1)
    #expect(cues.first?.startTime == 0 && cues.first?.endTime == 12.5)
    #expect(cues.first?.plainText == "Just words, no times.")
  }

  @Test func aKeyedTranscriptAsAQTAKeepsIt() throws {
    let json = VoiceMemoRecording.tableJSON(Self.phrase)
    let bytes = VoiceMemoRecording.dress(Self.plainMP4(), transcript: json, place: .keyedMetadata)
    let (items, read) = try transcript(of: bytes)
    #expect(items.transcript?.path == "moov/trak/meta/ilst (com.apple.VoiceMemos.tsrp)")
    #expect(try #require(read).runs.count == Self.phrase.count)
  }

  /// The same recording with its second numbers as ends and as durations reads the same.
  @Test func theSecondNumberIsAnEndOrADurationAsTheDataShows() throws {
    let asDurations = Self.phrase.map { ($0.0, $0.1.map { ($0.0, (($0.1 - $0.0) * 1000).rounded() / 1000) }) }
    let durations = try VoiceMemoTranscript.parse(VoiceMemoRecording.interleavedJSON(asDurations))
    let ends = try VoiceMemoTranscript.parse(VoiceMemoRecording.interleavedJSON(Self.phrase))
    #expect(durations.secondTime == .duration)
    #expect(ends.secondTime == .end)
    for (a, b) in zip(durations.runs, ends.runs) {
      #expect(a.start == b.start)
      #expect(abs((a.end ?? -1) - (b.end ?? 1)) < 1e-9)
    }
    // One run that starts later than it lasts settles it; runs that all start before they
    // have lasted as long fit both readings, and are read as ends.
    #expect(VoiceMemoTranscript.SecondTime.decide([(0.0, 0.4), (0.5, 0.3)]) == .duration)
    #expect(VoiceMemoTranscript.SecondTime.decide([(0.0, 0.2), (0.25, 0.5)]) == .end)
    #expect(VoiceMemoTranscript.SecondTime.decide([(0, 0.42)]) == .end)
  }

  @Test func timesThatGoBackAreKeptUntimedWithAWarning() throws {
    var runs = Self.phrase
    runs[5].1 = (2.0, 2.5)
    let transcript = try VoiceMemoTranscript.parse(
      VoiceMemoRecording.interleavedJSON(runs), path: "x.m4a", offset: 900)
    #expect(transcript.runs[5] == .init(text: "garden. "))
    #expect(transcript.runs[6].start == 7.5)
    let warning = try #require(transcript.diagnostics.first)
    #expect(warning.code == .mp4BadTranscript && warning.location.offset == 900)
    #expect(warning.message.contains("run 6 of 8"))
    // The cues stay in order.
    let cues = transcript.webVTTDocument().cues
    #expect(zip(cues, cues.dropFirst()).allSatisfy { $0.endTime <= $1.startTime })
  }

  /// Each bad transcript: the code, and the byte where the JSON breaks (file offset).
  @Test func badTranscriptsSayWhereAndWhy() throws {
    let cases: [(json: String, byte: Int, says: String)] = [
      ("{\"attributedString\": [\"a\", {]}", 28, "is not JSON"),
      ("not json", 0, "is not JSON"),
      ("{\"attributedString\": [\"a\", {}], }", 32, "is not JSON"),
      ("[1, 2, 3]", 0, "another shape"),
      ("{\"locale\": {}}", 0, "another shape"),
      ("{\"attributedString\": [\"a\"]}", 0, "odd number"),
      ("{\"attributedString\": {\"runs\": [\"a\", 4], \"attributeTable\": []}}", 0, "refers to attribute 4"),
      ("{\"attributedString\": [\"a\", {\"timeRange\": [1]}]}", 0, "timeRange"),
      ("{\"attributedString\": [\"a\", {\"timeRange\": [-1, 2]}]}", 0, "timeRange"),
      ("{\"attributedString\": [\"a\", {\"timeRange\": [1e300, 1e301]}]}", 0, "timeRange"),
      (String(repeating: "[", count: 100), 64, "nest"),
    ]
    #expect(!cases.isEmpty)
    for (json, byte, says) in cases {
      let bytes = VoiceMemoRecording.dress(Self.plainMP4(), transcript: Array(json.utf8))
      let (folder, path) = try write(bytes)
      defer { folder.remove() }
      let file = try ReadOnlyFile(path: path)
      let items = try VoiceMemoItems.read(file)
      let place = try #require(items.transcript)
      #expect(throws: FormatError.self, "\(json)") {
        _ = try items.readTranscript(in: file)
      }
      do {
        _ = try items.readTranscript(in: file)
      } catch {
        #expect(error.code == .mp4BadTranscript)
        #expect(error.location.offset == place.offset + byte, "\(json): \(error.message)")
        #expect(error.message.contains(says), "\(error.message)")
        #expect(error.path == path)
        #expect(error.description.hasPrefix("\(path)@"))
      }
    }
  }

  @Test func aTruncatedFileLosesItsIndexAndSaysSo() throws {
    let whole = VoiceMemoRecording.dress(
      Self.plainMP4(), transcript: VoiceMemoRecording.interleavedJSON(Self.phrase))
    let cut = Array(whole.dropLast(30))
    let (folder, path) = try write(cut)
    defer { folder.remove() }
    do {
      _ = try VoiceMemoItems.read(path: path)
      Issue.record("a cut moov was read")
    } catch {
      #expect(error.code == .mp4IndexCutOff)
      #expect(error.location.offset == cut.count)
    }
    let (other, noMoov) = try write(Array(Self.plainMP4().prefix(36)))
    defer { other.remove() }
    #expect(throws: FormatError.self) { try VoiceMemoItems.read(path: noMoov) }
  }

  @Test func aTranscriptLargerThanTheLimitIsRefused() throws {
    var items = VoiceMemoItems()
    items.transcript = .init(
      path: "moov/trak/udta/tsrp", boxOffset: 10, offset: 18, size: VoiceMemoItems.transcriptLimit + 1)
    let (folder, path) = try write(Self.plainMP4())
    defer { folder.remove() }
    do {
      _ = try items.transcriptBytes(in: ReadOnlyFile(path: path))
      Issue.record("a huge transcript was read")
    } catch {
      #expect(error.code == .mp4BadTranscript && error.location.offset == 10)
    }
  }

  // MARK: WebVTT

  @Test func cuesAreSentencesAndPhrasesWithWordTimes() throws {
    let transcript = try VoiceMemoTranscript.parse(VoiceMemoRecording.interleavedJSON(Self.phrase))
    let bytes = transcript.webVTT(audioLength: 9)
    let document = WebVTTParser.parse(bytes)
    #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("00:03.100 --> 00:04.600\nWe <00:00:03.500>talked <00:00:03.900>about…"))
    // A sentence ends at "garden.", a pause after "about…", and "Then" comes after a silence.
    #expect(document.cues.map(\.plainText) == ["We talked about…", "um, the garden.", "Then lunch."])
    #expect(document.cues.map(\.startTime) == [3.1, 5.0, 7.5])
    #expect(document.cues.map(\.endTime) == [4.6, 5.9, 8.3])
    #expect(document.cues[0].words.map(\.startTime) == [3.1, 3.5, 3.9])
  }

  /// Generated transcripts: every cue starts at a run's start to the millisecond, the cues'
  /// text is the runs' text, and the file reads back without a diagnostic.
  @Test(arguments: [1, 7, 300])
  func theConversionKeepsStartsAndText(seed: Int) throws {
    var generator = GPXSamples.Generator(state: UInt64(seed))
    var runs: [(String, (Double, Double)?)] = []
    var time = 0.25
    let words = [
      "so", "um", "the", "garden…", "we", "planted", "tomatoes.", "Really?", "uh", "yes!", "&", "<b>",
    ]
    for _ in 0..<(seed * 3 + 5) {
      let word = words[Int(generator.next() % UInt64(words.count))]
      let length = Double(generator.next() % 600) / 1000 + 0.01
      let timed = generator.next() % 9 != 0
      runs.append((word + " ", timed ? (time, time + length) : nil))
      time += length + (generator.next() % 5 == 0 ? 1.5 : Double(generator.next() % 100) / 1000)
    }
    #expect(!runs.isEmpty)
    let transcript = try VoiceMemoTranscript.parse(VoiceMemoRecording.tableJSON(runs))
    let document = WebVTTParser.parse(transcript.webVTT())
    #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
    let starts = Set(runs.compactMap { $0.1.map { Int(($0.0 * 1000).rounded()) } })
    for cue in document.cues {
      #expect(starts.contains(Int((cue.startTime * 1000).rounded())), "\(cue.startTime)")
    }
    let written = document.cues.map(\.plainText).joined(separator: " ")
    let expected = runs.map(\.0).joined().trimmingCharacters(in: .whitespaces)
    #expect(written == expected)
  }

  // MARK: JSON

  @Test func theJSONReaderIsStrict() throws {
    let refused = [
      "", "01", "1.", "[1,]", "{\"a\":1,}", "'a'", "\"a\u{01}\"", "[1] x", "tru", "\"\\x\"", "1e999",
    ]
    #expect(!refused.isEmpty)
    for text in refused {
      #expect(throws: JSONReader.Failure.self, "\(text)") { try JSONReader.parse(Array(text.utf8)) }
    }
    #expect(
      try JSONReader.parse(Array("[1, -2.5e1, \"\\u00e9\\ud83d\\ude00\", true, null, {}]".utf8))
        == .array([.int(1), .double(-25), .string("é😀"), .bool(true), .null, .object([])]))
    #expect(throws: JSONReader.Failure.self) { try JSONReader.parse([0x22, 0xFF, 0x22]) }
  }
}

extension VoiceMemoTranscriptTests {
  /// A two-hour transcript (20,000 runs) reads whole; its time is printed (the figure itself is
  /// `make bench`'s, in a release build).
  @Test func aTwoHourTranscriptReads() throws {
    let runs = (0..<20_000).map { index in
      ("word\(index % 97) ", Optional((Double(index) * 0.36, Double(index) * 0.36 + 0.3)))
    }
    #expect(runs.count == 20_000)
    let json = VoiceMemoRecording.tableJSON(runs)
    let clock = ContinuousClock()
    var transcript: VoiceMemoTranscript?
    let parse = try clock.measure { transcript = try VoiceMemoTranscript.parse(json) }
    var cues = 0
    let convert = clock.measure { cues = WebVTTParser.parse(transcript?.webVTT() ?? []).cues.count }
    print("tsrp of 20,000 runs (\(json.count) bytes): parsed in \(parse), \(cues) cues in \(convert)")
    #expect(transcript?.runs.count == 20_000)
    #expect(cues == 20_000 / VoiceMemoTranscript.cueRunLimit)
  }
}
