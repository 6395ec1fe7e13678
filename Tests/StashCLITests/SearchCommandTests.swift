import Foundation
import StashTestSupport
import Testing

/// `stash search` run as a program over a folder of its own, a few golden cases: the places, their
/// order and times, titles, phrases across cues, damaged and unreadable transcripts, several
/// folders, exit codes and the JSON. The folder search itself is `FolderSearchTests`' (in-process).
@Suite struct SearchCommandTests {
  let stash = Fixtures.product("stash").path

  func run(_ arguments: [String], in folder: URL) throws -> ProcessResult {
    try runStash(arguments, in: folder)
  }

  /// Three memos: the newest with a title and a phrase across cues (with word timestamps), one
  /// whose transcript is damaged, one without a transcript.
  func folder() throws -> URL {
    let folder = try Fixtures.scratchFolder("stash-search")
    func write(_ name: String, _ text: String) throws {
      try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }
    let tone = try TestTone.mp4(seconds: 2, frequency: 330, fragmented: false)
    for base in ["2026-05-03T10-00-00", "2026-05-02T10-00-00", "2026-05-01T10-00-00"] {
      try tone.write(to: folder.appendingPathComponent(base + "_audio.m4a"))
    }
    try write("2026-05-03T10-00-00_title.txt", "Bridge notes\n")
    try write(
      "2026-05-03T10-00-00_transcription.vtt",
      """
      WEBVTT

      00:00:01.000 --> 00:00:04.000
      <v Anna>We walked <00:00:02.000>to the</v>

      00:00:04.500 --> 00:00:06.000
      old <i>bridge</i> &amp; the Café

      """)
    try write(
      "2026-05-02T10-00-00_transcription.vtt",
      "WEBVTT\n\n00:00:10.000 --> 00:00:12.000\nanother bridge\n00:00:13.000 --> 00:00:14.000\nno blank line\n"
    )
    return folder
  }

  @Test func placesNewestFirstWithTimesAndTitles() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try run(["search", "BRIDGE"], in: folder)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput == """
        Bridge notes  title  [Bridge] notes
        Bridge notes  0:04  old [bridge] & the Café
        2026-05-02 10:00  0:10  another [bridge]

        """)
    // The damaged transcript is searched for what it holds, with a warning naming it.
    #expect(
      result.standardError.contains(
        "stash search: warning: ./2026-05-02T10-00-00_transcription.vtt:5: "), "\(result.standardError)")
    // A phrase across two cues, at the time its words start (an inline timestamp), accents folded.
    let phrase = try run(["search", "to the old bridge & the cafe"], in: folder)
    #expect(phrase.standardOutput == "Bridge notes  0:02  We walked [to the old bridge & the Café]\n")
    // Matches at one time in one line are one line, each marked (the cue without word timestamps,
    // the title); where the word timestamps give them their own times, lines of their own.
    // --count counts those lines (places, as grep -c counts lines); the JSON has every match.
    let letters = try run(["search", "e"], in: folder)
    #expect(
      letters.standardOutput == """
        Bridge notes  title  Bridg[e] not[e]s
        Bridge notes  0:01  W[e] walk[e]d to the
        Bridge notes  0:02  We walked to th[e]
        Bridge notes  0:04  old bridg[e] & th[e] Caf[é]
        2026-05-02 10:00  0:10  anoth[e]r bridg[e]
        2026-05-02 10:00  0:13  no blank lin[e]

        """)
    #expect(
      try run(["search", "e", "--count"], in: folder).standardOutput
        == "./2026-05-03T10-00-00: 4\n./2026-05-02T10-00-00: 2\n")
    // --max-count N keeps the first N places of a memo, each with every match in it.
    #expect(
      try run(["search", "e", "--max-count", "1"], in: folder).standardOutput
        == "Bridge notes  title  Bridg[e] not[e]s\n2026-05-02 10:00  0:10  anoth[e]r bridg[e]\n")
    // --max-count 0, as grep's -m 0: nothing printed, exit 1; in JSON, an empty result.
    let none = try run(["search", "e", "--max-count", "0"], in: folder)
    #expect(none.status == 1 && none.standardOutput.isEmpty && none.standardError.isEmpty)
    let noneJSON = try run(["search", "e", "--max-count", "0", "--json"], in: folder)
    #expect(
      noneJSON.status == 1 && noneJSON.standardOutput.contains("\"summary\": {\"hits\": 0, \"memos\": 0}"))
    #expect(try run(["search", "e", "--max-count", "-1"], in: folder).status == 2)
    let json = try run(["search", "e", "--json"], in: folder).standardOutput
    #expect(json.components(separatedBy: "\"matchStart\"").count == 12)
    // Markup and timings are not text.
    #expect(try run(["search", "anna"], in: folder).status == 1)
    #expect(try run(["search", "00:00"], in: folder).status == 1)
    #expect(try run(["search", "amp"], in: folder).status == 1)
  }

  /// A hit in a title that is not UTF-8 (its bad bytes shown as �) comes with lint's warning for
  /// it, as a damaged transcript's does; it once came with none.
  @Test func aHitInADamagedTitleSaysSo() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data([0x43, 0x61, 0x66, 0xE9, 0x20, 0x6D, 0x65, 0x6E, 0x75, 0x0A])
      .write(to: folder.appendingPathComponent("2026-05-01T10-00-00_title.txt"))
    let result = try run(["search", "menu"], in: folder)
    #expect(result.status == 0 && result.standardOutput == "Caf\u{FFFD} menu  title  Caf\u{FFFD} [menu]\n")
    #expect(
      result.standardError.contains("warning: ./2026-05-01T10-00-00_title.txt: the title is not valid UTF-8"),
      "\(result.standardError)")
    #expect(result.standardError.contains("(at byte 3) [title-not-utf8]"), "\(result.standardError)")
  }

  @Test func optionsAndExitCodes() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let none = try run(["search", "zebra"], in: folder)
    #expect(none.status == 1 && none.standardOutput.isEmpty)
    // A word longer than the scan's sixteen-byte step (this one crashed it).
    let long = try run(["search", "supercalifragilisticexpialidocious"], in: folder)
    #expect(long.status == 1 && long.standardError.isEmpty, "\(long.standardError)")
    #expect(try run(["search", "--exact", "cafe"], in: folder).status == 1)
    #expect(try run(["search", "--exact", "Café"], in: folder).status == 0)
    #expect(
      try run(["search", "--case-sensitive", "bridge"], in: folder).standardOutput.contains("[Bridge]")
        == false)
    #expect(try run(["search", "-w", "brid"], in: folder).status == 1)
    #expect(
      try run(["search", "-E", "brid.e\\b", "-l"], in: folder).standardOutput
        == "./2026-05-03T10-00-00\n./2026-05-02T10-00-00\n")
    #expect(
      try run(["search", "bridge", "--count"], in: folder).standardOutput
        == "./2026-05-03T10-00-00: 2\n./2026-05-02T10-00-00: 1\n")
    #expect(
      try run(["search", "bridge", "--max-count", "1"], in: folder).standardOutput.split(separator: "\n")
        .count == 2)
    // Outputs that do not go together, and a pattern given twice (grep would take either: this
    // once took the last alone), are refused.
    for words in [["--count", "--json"], ["-l", "--format", "json"], ["-e", "bridge", "-e", "cafe"]] {
      let refused = try run(["search", "bridge"] + words, in: folder)
      #expect(refused.status == 2 && refused.standardOutput.isEmpty, "\(words): \(refused.standardError)")
    }
    let badRegex = try run(["search", "-E", "(unclosed"], in: folder)
    #expect(badRegex.status == 2 && badRegex.standardError.contains("not a regular expression"))
    #expect(try run(["search"], in: folder).status == 2)
    // A folder without transcripts or titles: nothing found.
    let empty = try Fixtures.scratchFolder("stash-search-empty")
    defer { try? FileManager.default.removeItem(at: empty) }
    try TestTone.mp4(seconds: 1, frequency: 330, fragmented: false)
      .write(to: empty.appendingPathComponent("2026-01-01T10-00-00_audio.m4a"))
    #expect(try run(["search", "bridge"], in: empty).status == 1)
  }

  @Test func aTranscriptThatCannotBeReadIsNamedAndTheRestSearched() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("2026-05-01T10-00-00_transcription.vtt"),
      withIntermediateDirectories: false)
    let result = try run(["search", "bridge"], in: folder)
    #expect(result.status == 2)
    #expect(result.standardError.contains("./2026-05-01T10-00-00_transcription.vtt: not a regular file"))
    #expect(result.standardOutput.split(separator: "\n").count == 3)
  }

  /// Several folders: their memos merged newest first, each line naming its folder (the order
  /// itself, the orphans and the hits kept are `FolderSearchTests`').
  @Test func severalFoldersAreOneListing() throws {
    let first = try folder()
    let second = try Fixtures.scratchFolder("stash-search-more")
    defer {
      try? FileManager.default.removeItem(at: first)
      try? FileManager.default.removeItem(at: second)
    }
    try Data().write(to: second.appendingPathComponent("2026-05-02T12-00-00_audio.m4a"))
    try Data("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na bridge again\n".utf8)
      .write(to: second.appendingPathComponent("2026-05-02T12-00-00_transcription.vtt"))
    let listed = try run(["search", "-l", "bridge", first.path, second.path], in: first)
    #expect(
      listed.standardOutput.split(separator: "\n").map(String.init) == [
        first.path + "/2026-05-03T10-00-00", second.path + "/2026-05-02T12-00-00",
        first.path + "/2026-05-02T10-00-00",
      ])
    let lines = try run(["search", "again", first.path, second.path], in: first)
    #expect(lines.standardOutput == "\(second.path): 2026-05-02 12:00  0:01  a bridge [again]\n")
  }

  /// python3-jsonschema's verdict on the JSON document at `output` against the schema at `schema`.
  static func validate(_ output: URL, against schema: String) throws -> ProcessResult {
    try runProcess(
      "/usr/bin/python3",
      [
        "-c",
        "import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))",
        output.path, schema,
      ])
  }

  @Test func theJSONFollowsItsSchema() throws {
    let folder = try folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try run(["search", "bridge", "--json"], in: folder)
    #expect(result.status == 0)
    let output = folder.appendingPathComponent("out.json")
    try Data(result.standardOutput.utf8).write(to: output)
    let schema = Fixtures.repositoryRoot.appendingPathComponent("docs/search.schema.json").path
    let check = try Self.validate(output, against: schema)
    #expect(check.status == 0, "\(check.standardError)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let hits = try #require(document["hits"] as? [[String: Any]])
    #expect(hits.count == 3)
    #expect(hits[0]["in"] as? String == "title" && hits[0]["start"] == nil)
    #expect(hits[1]["start"] as? Double == 4.5 && hits[1]["cueEnd"] as? Double == 6)
    #expect(hits[1]["matchStart"] as? Int == 4 && hits[1]["matchEnd"] as? Int == 10)
    #expect((document["summary"] as? [String: Any])?["memos"] as? Int == 2)
    // Times are the shortest decimal of the microsecond: 00:00:03.921 is 3.921, not the spec's sum
    // 3 + 0.921 printed whole (3.9210000000000003).
    try Data("WEBVTT\n\n00:00:02.371 --> 00:00:03.921\nthe noisy bridge\n".utf8)
      .write(to: folder.appendingPathComponent("2026-05-01T10-00-00_transcription.vtt"))
    let noisy = try run(["search", "noisy", "--json"], in: folder).standardOutput
    #expect(noisy.contains("\"cueEnd\": 3.921,") && noisy.contains("\"start\": 2.371"), "\(noisy)")
    #expect(noisy.contains("\"cue\": 0,"), "\(noisy)")
    // A memo whose words are still in parts is counted, with the hint to recover it.
    let parts = folder.appendingPathComponent("2026-05-04T10-00-00.parts")
    try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: false)
    try Data("WEBVTT\n\n00:00.000 --> 00:01.000\nnoisy parts\n".utf8)
      .write(to: parts.appendingPathComponent("transcription.0001.vtt"))
    let counted = try run(["search", "noisy", "--json"], in: folder).standardOutput
    #expect(counted.contains("\"memos\": 1, \"unrecovered\": 1}"), "\(counted)")
    let hinted = try run(["search", "noisy"], in: folder)
    #expect(
      hinted.status == 0
        && hinted.standardError.contains(
          "1 memo has a parts folder and no finished transcript: what was said there is searched once `stash recover` assembles it"
        ),
      "\(hinted.standardError)")
    // A long cue is cut to 80 scalars of context each side of the match, not repeated whole.
    let long =
      String(repeating: "word ", count: 40_000) + "needle " + String(repeating: "word ", count: 40_000)
    try Data("WEBVTT\n\n00:00.000 --> 01:00.000\n\(long)\n".utf8)
      .write(to: folder.appendingPathComponent("2026-05-02T10-00-00_transcription.vtt"))
    let bounded = try run(["search", "needle", "--json"], in: folder)
    let boundedDoc = try #require(
      try JSONSerialization.jsonObject(with: Data(bounded.standardOutput.utf8)) as? [String: Any])
    let boundedHit = try #require((boundedDoc["hits"] as? [[String: Any]])?.first)
    let text = try #require(boundedHit["text"] as? String)
    #expect(
      text.unicodeScalars.count <= 2 * 80 + 6 + 2 && text.hasPrefix("…") && text.hasSuffix("…"), "\(text)")
    let scalars = Array(text.unicodeScalars)
    let (start, end) = (
      try #require(boundedHit["matchStart"] as? Int), try #require(boundedHit["matchEnd"] as? Int)
    )
    #expect(String(String.UnicodeScalarView(scalars[start..<end])) == "needle")
    try Data(bounded.standardOutput.utf8).write(to: output)
    #expect(
      try Self.validate(output, against: schema).status == 0)
    // The schema refuses what it should: a transcript hit without its times.
    let broken = result.standardOutput.replacingOccurrences(of: "\"cueStart\"", with: "\"cueBegin\"")
    try Data(broken.utf8).write(to: output)
    #expect(
      try Self.validate(output, against: schema).status != 0)
  }
}
