import Foundation
import StashTestSupport
import Testing

/// `stash show` and `stash export` on the demo fixtures.
@Suite struct ShowExportTests {
  let stash = Fixtures.product("stash").path
  let demo = Fixtures.folder("demo").path
  let base = "2026-06-01T07-30-00Z"

  func run(_ arguments: [String]) throws -> ProcessResult {
    try runProcess(stash, arguments, environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"])
  }

  func cues() throws -> [[String: Any]] {
    let vtt = try run(["inspect", "\(demo)/\(base)_transcription.vtt"]).standardOutput
    let object = try #require(try JSONSerialization.jsonObject(with: Data(vtt.utf8)) as? [String: Any])
    return try #require(object["cues"] as? [[String: Any]])
  }

  @Test func showFindsTheMemoByBaseByAnyFileAndByPath() throws {
    let byBase = try run(["show", "\(demo)/\(base)"])
    #expect(byBase.status == 0, "\(byBase.standardError)")
    for name in ["_audio.m4a", "_transcription.vtt", "_title.txt"] {
      #expect(try run(["show", "\(demo)/\(base)\(name)"]).standardOutput == byBase.standardOutput)
    }
    let lines = byBase.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.contains("  base       \(base)"))
    #expect(lines.contains { $0.hasPrefix("  route      ") && $0.contains("points in") })
    let cues = try cues()
    #expect(byBase.standardOutput.contains("Transcript (\(cues.count) cue"))
    // Each cue as [start → end] text, in order.
    let timed = lines.filter { $0.hasPrefix("  [") }
    #expect(timed.count == cues.count)
    #expect(try run(["show", "\(demo)/no-such-memo"]).status == 2)
  }

  /// A memo as `stash ls` prints it (an untitled memo's name is its date), the date `ls` starts
  /// its line with, a title in any case, or a unique part of one; several are named, not guessed.
  @Test func showTakesAMemoAsLsPrintsItOrAPartOfItsTitle() throws {
    func base(_ query: String) throws -> String? {
      let result = try run(["show", "\(demo)/\(query)"])
      return result.standardOutput.split(separator: "\n").first { $0.hasPrefix("  base ") }
        .map { String($0.dropFirst("  base ".count)).trimmingCharacters(in: .whitespaces) }
    }
    let listed = try run(["ls", "--bases", demo]).standardOutput
    #expect(listed.contains("2026-09-05 10:00  [2026-09-05T10-00-00]"))
    #expect(try base("2026-09-05 10:00") == "2026-09-05T10-00-00")
    #expect(listed.contains("2026-07-19 14:45 ") && listed.contains("Long walk, thinking aloud"))
    #expect(try base("2026-07-19 14:45") == "2026-07-19T16-45-10+0200")
    #expect(try base("long walk, THINKING aloud") == "2026-07-19T16-45-10+0200")
    #expect(try base("walk") == "2026-07-19T16-45-10+0200")
    let several = try run(["show", "\(demo)/2026-0"])
    #expect(several.status == 2)
    #expect(
      several.standardError.contains(
        "memos have '2026-0' in their names: '2026-09-05 10:00' [2026-09-05T10-00-00]"))
    let none = try run(["show", "\(demo)/thought walk"])
    #expect(none.status == 2)
    #expect(
      none.standardError.contains(
        "did you mean 'Lost thought' [2026-10-11T14-20-00], 'Long walk, thinking aloud' [2026-07-19T16-45-10+0200]?"
      ))
    #expect(try run(["export", "\(demo)/walk", "--to", "txt"]).status == 0)
  }

  @Test func showJSONHasTheMemoItsCuesAndItsRoute() throws {
    let result = try run(["show", "\(demo)/\(base)", "--json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect((object["memo"] as? [String: Any])?["base"] as? String == base)
    let cues = try #require((object["transcript"] as? [String: Any])?["cues"] as? [[String: Any]])
    #expect(cues.count == (try self.cues()).count)
    let statistics = try #require((object["route"] as? [String: Any])?["statistics"] as? [String: Any])
    #expect((statistics["pointCount"] as? Int ?? 0) > 0)
  }

  @Test func exportWritesEveryTranscriptFormat() throws {
    let cues = try cues()
    let srt = try run(["export", "\(demo)/\(base)", "--to", "srt"]).standardOutput
    let blocks = srt.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(blocks.count == cues.count)
    #expect(blocks.first?.hasPrefix("1\n00:00:") == true && blocks.first?.contains(" --> 00:00:") == true)
    #expect(
      srt.range(of: #"\d\d:\d\d:\d\d,\d\d\d --> \d\d:\d\d:\d\d,\d\d\d"#, options: .regularExpression) != nil)
    let txt = try run(["export", "\(demo)/\(base)", "--to", "txt"]).standardOutput
    #expect(txt.split(separator: "\n").count == cues.count)
    let md = try run(["export", "\(demo)/\(base)", "--to", "md"]).standardOutput
    #expect(md.hasPrefix("# ") && md.contains("**[00:00:"))
    let json = try run(["export", "\(demo)/\(base)", "--to", "json"]).standardOutput
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let exported = try #require(object["cues"] as? [[String: Any]])
    #expect(exported.count == cues.count)
    #expect(exported.first?["start"] as? Double == cues.first?["startTime"] as? Double)
    // README: every command that prints JSON takes --json and --format json; here both mean --to json.
    for spelling in [["--format", "json"], ["--json"], ["--format=json", "--to", "json"]] {
      let same = try run(["export", "\(demo)/\(base)"] + spelling)
      #expect(same.status == 0 && same.standardOutput == json, "\(spelling): \(same.standardError)")
    }
    #expect(try run(["export", "\(demo)/\(base)", "--format", "srt"]).standardOutput == srt)
    let clash = try run(["export", "\(demo)/\(base)", "--format", "json", "--to", "srt"])
    #expect(
      clash.status == 2
        && clash.standardError.contains("--to srt and --format json ask for different outputs"))
  }

  /// RFC 7946: a FeatureCollection of LineStrings, [lon, lat(, ele)], one per segment, times alongside.
  @Test func exportWritesTheRouteAsGeoJSON() throws {
    let result = try run(["export", "\(demo)/\(base)", "--to", "geojson"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(object["type"] as? String == "FeatureCollection")
    let features = try #require(object["features"] as? [[String: Any]])
    let gpx = try run(["inspect", "\(demo)/\(base)_track.gpx"]).standardOutput
    let route = try #require(try JSONSerialization.jsonObject(with: Data(gpx.utf8)) as? [String: Any])
    let segments = ((route["tracks"] as? [[String: Any]]) ?? []).flatMap {
      ($0["segments"] as? [[String: Any]]) ?? []
    }
    #expect(features.count == segments.count)
    for (feature, segment) in zip(features, segments) {
      let points = try #require(segment["points"] as? [[String: Any]])
      let geometry = try #require(feature["geometry"] as? [String: Any])
      #expect(geometry["type"] as? String == "LineString")
      let coordinates = try #require(geometry["coordinates"] as? [[Double]])
      #expect(coordinates.count == points.count)
      #expect(coordinates.first?[0] == points.first?["lon"] as? Double)
      #expect(coordinates.first?[1] == points.first?["lat"] as? Double)
      let times = try #require((feature["properties"] as? [String: Any])?["coordTimes"] as? [String])
      #expect(times == points.compactMap { $0["time"] as? String })
    }
  }

  @Test func exportToAFileIsAtomicAndRefusesToOverwrite() throws {
    let scratch = try ScratchFolder("stash-export")
    defer { scratch.remove() }
    let out = scratch.appendingPathComponent("memo.srt").path
    #expect(try run(["export", "\(demo)/\(base)", "--to", "srt", "-o", out]).status == 0)
    let first = try String(contentsOfFile: out, encoding: .utf8)
    #expect(first == (try run(["export", "\(demo)/\(base)", "--to", "srt"]).standardOutput))
    let again = try run(["export", "\(demo)/\(base)", "--to", "txt", "-o", out])
    #expect(again.status == 2 && again.standardError.contains("--force"))
    #expect(try String(contentsOfFile: out, encoding: .utf8) == first)
    #expect(try run(["export", "\(demo)/\(base)", "--to", "txt", "-o", out, "--force"]).status == 0)
    #expect(try String(contentsOfFile: out, encoding: .utf8) != first)
    // No temporary file is left behind.
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["memo.srt"])
    #expect(try run(["export", "\(demo)/2026-10-11T14-20-00", "--to", "geojson"]).status == 2)
    #expect(try run(["export", "\(demo)/\(base)", "--to", "pdf"]).status == 2)
  }

  /// A transcript that is not a regular file (a FIFO) is not read: `show` says it could not be
  /// read, not that there is none (it once said "No transcript."), and exits 2.
  @Test func showSaysATranscriptCouldNotBeRead() throws {
    let scratch = try ScratchFolder("stash-show-fifo")
    defer { scratch.remove() }
    let memo = scratch.appendingPathComponent("2026-01-01T10-00-00Z").path
    try FileManager.default.copyItem(atPath: "\(demo)/\(base)_audio.m4a", toPath: memo + "_audio.m4a")
    #expect(mkfifo(memo + "_transcription.vtt", 0o600) == 0)
    let result = try run(["show", memo])
    #expect(result.status == 2 && result.standardOutput.hasSuffix("\nThe transcript could not be read.\n"))
    #expect(result.standardError.contains("the transcript cannot be read"), "\(result.standardError)")
  }

  /// A damaged transcript is exported for what it holds, each of its errors said on standard
  /// error as lint names it (it once went out with no word: a cue dropped, bytes made U+FFFD).
  @Test func aDamagedTranscriptIsExportedWithWarnings() throws {
    let scratch = try ScratchFolder("stash-export-damaged")
    defer { scratch.remove() }
    let memo = scratch.appendingPathComponent("2026-01-01T10-00-00Z")
    try FileManager.default.copyItem(
      atPath: "\(demo)/\(base)_audio.m4a", toPath: memo.path + "_audio.m4a")
    var bytes = Array("WEBVTT\n\n00:00.000 --> 00:01.000\ncaf".utf8) + [0xE9]
    bytes += Array(" noir\n\n00:0x.000 --> 00:02.000\nsocks\n".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: memo.path + "_transcription.vtt"))
    let result = try run(["export", memo.path, "--to", "txt"])
    #expect(result.status == 0 && result.standardOutput == "caf\u{FFFD} noir\n", "\(result.standardOutput)")
    let warnings = result.standardError.split(separator: "\n")
    #expect(warnings.count == 2, "\(result.standardError)")
    #expect(warnings.first?.hasSuffix("[vtt-not-utf8]; exported what it holds") == true, "\(warnings)")
    #expect(warnings.last?.contains("_transcription.vtt:6: bad start time") == true, "\(warnings)")
  }

  /// Unconfirmed words are marked in plain text (braces), so the mark survives a pipe: `show` and
  /// `export --to txt` once printed them as confirmed ones.
  @Test func unconfirmedWordsAreMarkedInPlainText() throws {
    let scratch = try ScratchFolder("stash-show-unconfirmed")
    defer { scratch.remove() }
    let memo = scratch.appendingPathComponent("2026-01-01T10-00-00Z").path
    try FileManager.default.copyItem(atPath: "\(demo)/\(base)_audio.m4a", toPath: memo + "_audio.m4a")
    try Data(
      "WEBVTT\n\n00:00.000 --> 00:01.000\nand then we walked <c.unconfirmed>back to the car</c>\n".utf8
    ).write(to: URL(fileURLWithPath: memo + "_transcription.vtt"))
    let exported = try run(["export", memo, "--to", "txt"])
    #expect(exported.standardOutput == "and then we walked {back to the car}\n", "\(exported.standardOutput)")
    let shown = try run(["show", memo]).standardOutput
    #expect(shown.contains("and then we walked {back to the car}\n"), "\(shown)")
  }

  /// Audio cut short says what its tail's size means beside the torn box's sizes below it (it
  /// once said "128 bytes of torn tail" above two other sizes).
  @Test func aTornAudioSaysWhatItsTailIs() throws {
    let shown = try run(["show", Fixtures.folder("crash").appendingPathComponent("2026-04-11T09-00-00").path])
      .standardOutput
    let audio = try #require(shown.split(separator: "\n").first { $0.hasPrefix("  audio") }, "\(shown)")
    #expect(
      audio.contains("cut short: it plays up to its last whole sample; the file's last ")
        && audio.hasSuffix(" come after that sample and are not played"), "\(audio)")
    #expect(shown.contains("mp4-torn-tail"), "\(shown)")
  }
}
