import Foundation
import StashTestSupport
import Testing

/// `stash lint` reads `<base>_bookmarks.vtt` with its memo: each `bookmarks-` code at its line, and
/// `--fix` writes an out-of-order, unchained file again, leaving a broken one as it is.
@Suite struct BookmarksLintTests {
  @Test func fixRechainsAndLeavesABrokenFileAlone() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let cases = folder.root.appendingPathComponent("lint/cases")
    let before = try folder.run(["lint", "lint/cases", "--format", "gcc", "--select", "bookmarks-*"])
    #expect(before.status == 1, "\(before.standardError)")
    for line in [
      "lint/cases/2026-07-31T10-00-00_bookmarks.vtt:3:7: error: not the WebVTT a bookmarks file is",
      "lint/cases/2026-08-05T10-00-00_bookmarks.vtt:6:1: warning: the bookmark at 00:00.200 comes after",
      "lint/cases/2026-08-05T10-00-00_bookmarks.vtt:9:1: warning: the bookmark at 00:05.000 is not within",
    ] {
      #expect(before.standardOutput.contains(line), "\(before.standardOutput)")
    }
    let broken = try Data(contentsOf: cases.appendingPathComponent("2026-07-31T10-00-00_bookmarks.vtt"))
    let fixed = try folder.run(["lint", "lint/cases", "--fix", "--format", "gcc", "--select", "bookmarks-*"])
    #expect(
      fixed.standardError.contains(
        "fix: 2026-08-05T10-00-00_bookmarks.vtt: the bookmarks written again in time order"),
      "\(fixed.standardError)")
    #expect(fixed.standardError.contains("stash lint: fixed 3 findings"), "\(fixed.standardError)")
    let text = try String(
      contentsOf: cases.appendingPathComponent("2026-08-05T10-00-00_bookmarks.vtt"), encoding: .utf8)
    #expect(
      text
        == "WEBVTT stash bookmarks\n\n00:00.200 --> 00:01.000\nearlier\n\n00:01.000 --> 00:05.000\nlater\n\n"
        + "00:05.000 --> 00:06.000\npast the end\n\n")
    #expect(try Data(contentsOf: cases.appendingPathComponent("2026-07-31T10-00-00_bookmarks.vtt")) == broken)
    // What is left: the broken file, and the bookmark past the end (no fix can know where it belongs).
    #expect(
      fixed.standardOutput.contains("[bookmarks-broken]")
        && fixed.standardOutput.contains("[bookmarks-past-end]"))
    #expect(!fixed.standardOutput.contains("[bookmarks-not-chained]"))
  }

  /// A bookmarks file named alone is checked as bookmarks, not as a transcript (its length unknown).
  @Test func aFileNamedAloneIsCheckedAsBookmarks() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let result = try folder.run([
      "lint", "lint/cases/2026-08-05T10-00-00_bookmarks.vtt", "--format", "gcc",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let codes = result.standardOutput.split(separator: "\n").compactMap { line in
      line.split(separator: "[").last.map { String($0.dropLast()) }
    }
    #expect(codes.contains("bookmarks-out-of-order") && codes.contains("bookmarks-not-chained"), "\(codes)")
    #expect(!codes.contains("bookmarks-past-end") && !codes.contains { $0.hasPrefix("vtt-") }, "\(codes)")
  }
}
