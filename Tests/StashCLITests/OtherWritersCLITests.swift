import Foundation
import StashTestSupport
import Testing

/// What other writers' files read as through the CLI, and what a memo with a broken file says:
/// synthetic equivalents of the files issue 16 studied (OpenTracks' pause markers, YouTube's and
/// HLS's header lines, a transcript that is not WebVTT, a torn route).
@Suite struct OtherWritersCLITests {
  let stash = Fixtures.product("stash").path
  let demoAudio = Fixtures.folder("demo").appendingPathComponent("2026-06-01T07-30-00Z_audio.m4a")

  func run(_ arguments: [String]) throws -> ProcessResult {
    try runProcess(stash, arguments, environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"])
  }

  /// A scratch memo folder holding `files` (name → text) and, for each base, the demo's audio.
  /// The caller removes it.
  func folder(_ files: [String: String], audioFor bases: [String]) throws -> ScratchFolder {
    let folder = try ScratchFolder("other-writers")
    for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
    for base in bases {
      try FileManager.default.copyItem(at: demoAudio, to: folder.appendingPathComponent(base + "_audio.m4a"))
    }
    return folder
  }

  /// A track whose middle holds two pause markers off the globe, as an older OpenTracks wrote.
  static let pauseMarkers = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1" creator="synthetic">
    <trk><trkseg>
    <trkpt lat="3" lon="14"><ele>10</ele><time>2026-01-07T21:51:59.179Z</time></trkpt>
    <trkpt lat="3" lon="14.001"><ele>11</ele><time>2026-01-07T21:52:00.653Z</time></trkpt>
    <trkpt lat="100" lon="0"><time>2026-01-07T21:52:02.658Z</time></trkpt>
    <trkpt lat="200" lon="0"><time>2026-01-07T21:52:03.873Z</time></trkpt>
    <trkpt lat="3" lon="14.003"><time>2026-01-07T21:52:04.103Z</time></trkpt>
    <trkpt lat="3" lon="14.004"><ele>12</ele><time>2026-01-07T21:52:05.000Z</time></trkpt>
    </trkseg></trk>
    </gpx>

    """

  @Test func pointsOffTheGlobeCountForNothingAndBreakTheSegment() throws {
    let base = "2026-01-07T21-51-59Z"
    let dir = try folder([base + "_track.gpx": Self.pauseMarkers], audioFor: [base])
    defer { dir.remove() }
    let inspect = try run(["inspect", dir.appendingPathComponent(base + "_track.gpx").path])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(inspect.standardOutput.utf8)) as? [String: Any])
    let statistics = try #require(object["statistics"] as? [String: Any])
    #expect(statistics["pointCount"] as? Int == 4)
    #expect(statistics["segmentCount"] as? Int == 2)
    #expect(statistics["offGlobePointCount"] as? Int == 2)
    // Two legs of about 111 m each, never the 22,000 km through the markers.
    let distance = try #require(statistics["distance"] as? Double)
    #expect(distance > 200 && distance < 250)
    let box = try #require(statistics["boundingBox"] as? [String: Any])
    #expect((box["maxLat"] as? Double ?? 999) <= 90)
    #expect((statistics["maxSpeed"] as? Double ?? .infinity) < 1000)

    let show = try run(["show", dir.appendingPathComponent(base).path]).standardOutput
    #expect(show.contains("4 points in 2 segments") && show.contains("2 points off the globe left out"))

    let geo = try run(["export", dir.appendingPathComponent(base).path, "--to", "geojson"]).standardOutput
    let collection = try #require(try JSONSerialization.jsonObject(with: Data(geo.utf8)) as? [String: Any])
    #expect(collection["offGlobePointCount"] as? Int == 2)
    let features = try #require(collection["features"] as? [[String: Any]])
    #expect(features.count == 2)
    let positions = features.compactMap { ($0["geometry"] as? [String: Any])?["coordinates"] as? [[Double]] }
    #expect(positions.count == 2)
    #expect(positions.joined().allSatisfy { abs($0[1]) <= 90 && abs($0[0]) <= 180 })
    // Each point keeps its own elevation: the second segment mixes a point without and one with.
    #expect(positions.first?.map(\.count) == [3, 3])
    #expect(positions.last?.map(\.count) == [2, 3])
    #expect(positions.last?.last?[2] == 12)
  }

  @Test func headerLinesOfKnownWritersAreInfoNamingTheWriter() throws {
    let youtube = "WEBVTT\nKind: captions\nLanguage: en\n\n00:00:01.000 --> 00:00:02.000\nhello\n"
    let hls =
      "WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00:00.000,MPEGTS:900000\n\n00:00:01.000 --> 00:00:02.000\nhello\n"
    let other = "WEBVTT\nSomething else\n\n00:00:01.000 --> 00:00:02.000\nhello\n"
    let dir = try folder(["youtube.vtt": youtube, "hls.vtt": hls, "other.vtt": other], audioFor: [])
    defer { dir.remove() }
    let lintYouTube = try run(["lint", dir.appendingPathComponent("youtube.vtt").path])
    #expect(lintYouTube.standardOutput.contains("info[vtt-header-metadata]"))
    #expect(lintYouTube.standardOutput.contains("of the kind YouTube writes (Kind:, Language:)"))
    #expect(!lintYouTube.standardOutput.contains("vtt-header-no-blank-line"))
    #expect(lintYouTube.status == 0)
    let lintHLS = try run(["lint", dir.appendingPathComponent("hls.vtt").path]).standardOutput
    #expect(lintHLS.contains("info[vtt-header-metadata]") && lintHLS.contains("HLS"))
    let lintOther = try run(["lint", dir.appendingPathComponent("other.vtt").path]).standardOutput
    #expect(lintOther.contains("warning[vtt-header-no-blank-line]"))
    let explain = try run(["lint", "--explain", "vtt-header-metadata"])
    #expect(explain.status == 0)
  }

  @Test func repeatedFindingsAreSummarisedAndWhiteSpaceIsDescribed() throws {
    var text = "WEBVTT\n\n"
    for n in 0..<20 { text += "00:00:\(10 + n).000 --> 00:00:\(10 + n).500 line:middle\nword \(n)\n\n" }
    text += String(repeating: " ", count: 200) + "\n"
    let dir = try folder(["repeats.vtt": text], audioFor: [])
    defer { dir.remove() }
    let lint = try run(["lint", dir.appendingPathComponent("repeats.vtt").path]).standardOutput
    let settingLines = lint.split(separator: "\n").filter { $0.contains("vtt-bad-setting") }
    #expect(settingLines.count == 4, "\(lint)")
    #expect(settingLines.last?.contains("17 more like these in this file") == true)
    #expect(lint.contains("20 findings") || lint.contains("21 findings"))
    #expect(!lint.contains(String(repeating: " ", count: 40)))
  }

  @Test func srtKeepsItalicBoldAndUnderline() throws {
    let base = "2026-02-01T10-00-00"
    let vtt = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<i>soft</i> <b>loud</b> <u>under</u> <c.x>plain</c>\n"
    let dir = try folder([base + "_transcription.vtt": vtt], audioFor: [base])
    defer { dir.remove() }
    let srt = try run(["export", dir.appendingPathComponent(base).path, "--to", "srt"]).standardOutput
    #expect(srt.contains("<i>soft</i> <b>loud</b> <u>under</u> plain"), "\(srt)")
  }

  @Test func aMemoWithABrokenTranscriptOrRouteIsMarkedAndSaysWhy() throws {
    let notVTT = "2026-03-01T10-00-00"
    let torn = "2026-03-02T10-00-00"
    let fine = "2026-03-03T10-00-00"
    let route = Self.pauseMarkers
    let cut = String(route.prefix(route.count - 40))
    let dir = try folder(
      [
        notVTT + "_transcription.vtt": "1\n00:00:01,000 --> 00:00:02,000\nan SRT file\n",
        torn + "_track.gpx": cut,
        fine + "_transcription.vtt": "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfine\n",
      ], audioFor: [notVTT, torn, fine])
    defer { dir.remove() }
    let ls = try run(["ls", dir.path]).standardOutput
    let rows = ls.split(separator: "\n")
    #expect(rows.contains { $0.hasPrefix("2026-03-01 10:00") && $0.contains("T-!-") }, "\(ls)")
    #expect(rows.contains { $0.hasPrefix("2026-03-02 10:00") && $0.contains("-R!-") }, "\(ls)")
    #expect(rows.contains { $0.hasPrefix("2026-03-03 10:00") && $0.contains("T---") }, "\(ls)")
    let showNotVTT = try run(["show", dir.appendingPathComponent(notVTT).path]).standardOutput
    #expect(
      showNotVTT.contains("problem    error vtt-no-signature in \(notVTT)_transcription.vtt"), "\(showNotVTT)"
    )
    let showTorn = try run(["show", dir.appendingPathComponent(torn).path]).standardOutput
    #expect(showTorn.contains("problem    error gpx-truncated in \(torn)_track.gpx"), "\(showTorn)")
    // Every code show prints is one lint explains.
    for code in ["vtt-no-signature", "gpx-truncated", "mp4-torn-tail", "mp4-audio-outside-file"] {
      #expect(try run(["lint", "--explain", code]).status == 0, "\(code)")
    }
  }

  @Test func namesThatAreNotDatesAreShown() throws {
    let dir = try folder(
      [:], audioFor: ["New Recording 3", "2026-04-01_09-00-00 walk to work", "2026-04-02T09-00-00"])
    defer { dir.remove() }
    let ls = try run(["ls", dir.path]).standardOutput
    #expect(ls.contains("  New Recording 3\n"), "\(ls)")
    #expect(ls.contains("  walk to work\n"), "\(ls)")
    #expect(ls.contains("  2026-04-02 09:00\n"), "\(ls)")
  }

  @Test func lintOnAFileItCannotCheckSaysNoProblemsFoundNowhere() throws {
    let dir = try folder(["notes.pdf": "%PDF"], audioFor: [])
    defer { dir.remove() }
    let result = try run(["lint", dir.appendingPathComponent("notes.pdf").path])
    #expect(result.status == 2)
    #expect(!result.standardOutput.contains("No problems found"))
    #expect(result.standardOutput.contains("Nothing was checked."))
  }

  @Test func suffixMessagesNameEverySuffixRead() throws {
    let dir = try folder(["notes.pdf": "%PDF"], audioFor: [])
    defer { dir.remove() }
    let inspect = try run(["inspect", dir.appendingPathComponent("notes.pdf").path])
    #expect(inspect.status == 2)
    #expect(inspect.standardError.contains(".m4a, .mp4 and .qta"), "\(inspect.standardError)")
    let lint = try run(["lint", dir.appendingPathComponent("notes.pdf").path])
    #expect(lint.standardError.contains(".m4a or .mp4"), "\(lint.standardError)")
  }

  @Test func routeNumbersCarryTheirPrecision() throws {
    let dir = try folder(["route.gpx": Self.pauseMarkers], audioFor: [])
    defer { dir.remove() }
    let inspect = try run(["inspect", dir.appendingPathComponent("route.gpx").path]).standardOutput
    // 21:51:59.179 to 21:52:05.000: 5.821 s, with no float noise past the microsecond.
    #expect(inspect.contains("\"duration\": 5.821,"), "\(inspect)")
  }
}
