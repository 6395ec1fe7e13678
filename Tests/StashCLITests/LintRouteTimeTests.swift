import Foundation
import StashTestSupport
import Testing

/// `lint-gpx-time-not-utc`, which scans a route's bytes for `<time>` elements itself: which
/// elements count, where they are reported, and times on their own lines in a CRLF file.
@Suite struct LintRouteTimeTests {
  static let message = " has a UTC offset: write times in UTC with Z [lint-gpx-time-not-utc]"

  /// `stash lint` of `text` as a route, this rule alone, in gcc's format.
  static func lint(_ text: String, in folder: LintFixtureFolder) throws -> ProcessResult {
    try Data(text.utf8).write(to: folder.root.appendingPathComponent("r_track.gpx"))
    return try folder.run(["lint", "r_track.gpx", "--select", "lint-gpx-time-not-utc", "--format", "gcc"])
  }

  @Test func everyTimeWithAnOffsetIsReportedAtItsElementAndNothingElse() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<gpx version="1.1" creator="stash tests" xmlns="http://www.topografix.com/GPX/1/1" "#
        + #"xmlns:g="http://www.topografix.com/GPX/1/1">"#,
      "<metadata><time>2026-07-01T10:00:00+02:00</time></metadata>",
      "<trk><name>time 2026-07-01T10:00:00+02:00</name><trkseg>",
      #"<trkpt lat="50" lon="8"><time>2026-07-01T08:00:01Z</time></trkpt>"#,
      #"<trkpt lat="50" lon="8.1"><time>"#,
      "  2026-07-01T03:00:02-05:00",
      "</time></trkpt>",
      #"<trkpt lat="50" lon="8.2"><g:time>2026-07-01T09:00:03+0100</g:time></trkpt>"#,
      #"<trkpt lat="50" lon="8.3"><time>2026-07-01T09:00:04.5-01</time></trkpt>"#,
      "</trkseg></trk>",
      "</gpx>",
    ]
    // CRLF line ends: the time alone on line 7 ends in CR LF, which must not hide its offset.
    let result = try Self.lint(lines.joined(separator: "\r\n"), in: folder)
    #expect(
      result.standardOutput
        == """
        r_track.gpx:3:11: warning: the time 2026-07-01T10:00:00+02:00\(Self.message)
        r_track.gpx:6:27: warning: the time 2026-07-01T03:00:02-05:00\(Self.message)
        r_track.gpx:9:27: warning: the time 2026-07-01T09:00:03+0100\(Self.message)
        r_track.gpx:10:27: warning: the time 2026-07-01T09:00:04.5-01\(Self.message)

        """)
    #expect(result.status == 0, "warnings only: \(result.standardError)")
  }

  /// The scan reads a time's text up to the next `<`, for at most 79 bytes, and to the end of a
  /// torn file: the edges of that window, and a time in Z beside them.
  @Test func aTimeIsReadUpToItsNextTagWithinAWindowAndToTheEndOfATornFile() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let point = #"<trkpt lat="50" lon="8"><time>"#
    let blanks = { (count: Int) in String(repeating: " ", count: count) }
    let lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<gpx version="1.1" creator="stash tests" xmlns="http://www.topografix.com/GPX/1/1">"#,
      "<trk><trkseg>",
      point + "2026-07-01T08:00:01+01:00" + blanks(60) + "</time></trkpt>",
      // 79 bytes of text: read whole. 80: its last digit is past the window, so not an offset.
      point + blanks(54) + "2026-07-01T08:00:02+01:00</time></trkpt>",
      point + blanks(55) + "2026-07-01T08:00:03+01:00</time></trkpt>",
      point + "2026-07-01T08:00:04Z</time></trkpt>",
      // Torn: the file ends right after the time's text.
      point + "2026-07-01T08:00:05+01:00",
    ]
    let result = try Self.lint(lines.joined(separator: "\n"), in: folder)
    #expect(
      result.standardOutput
        == """
        r_track.gpx:4:25: warning: the time 2026-07-01T08:00:01+01:00\(Self.message)
        r_track.gpx:5:25: warning: the time 2026-07-01T08:00:02+01:00\(Self.message)
        r_track.gpx:8:25: warning: the time 2026-07-01T08:00:05+01:00\(Self.message)

        """)
  }
}
