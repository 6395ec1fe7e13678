import Foundation
import StashTestSupport
import Testing

/// One account of a memo's problems (FORMAT.md §1.9): for every memo of every fixture folder,
/// `stash ls` marks `!` exactly when `stash lint` has a warning or an error for one of its files
/// (other than folder-needs-recovery, which has `*`), and `stash show` names each of them.
@Suite struct OneAccountTests {
  let stash = Fixtures.product("stash").path

  /// `stash ARGS` run in `folder`, in UTC.
  func run(_ arguments: [String], in folder: URL) throws -> ProcessResult {
    try runStash(arguments, in: folder)
  }

  /// Whether the finding's name (in the folder) is one of `base`'s files or its parts folder.
  static func belongs(_ name: String, to base: String) -> Bool {
    let parts = base + ".parts"
    return name == parts || name.hasPrefix(parts + "/")
      || ["_audio.m4a", "_transcription.vtt", "_track.gpx", "_title.txt", "_bookmarks.vtt"].contains {
        name == base + $0
      }
  }

  /// Checks the rule over `folder`; returns how many memos were marked and how many were not.
  func check(_ folder: URL) throws -> (marked: Int, clean: Int) {
    let listing = try run(["ls", "--bases", "."], in: folder)
    #expect(listing.status == 0, "\(folder.path): \(listing.standardError)")
    let lint = try run(["lint", "--format", "json", "."], in: folder)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(lint.standardOutput.utf8)) as? [String: Any],
      "\(folder.path)")
    let findings = try #require(document["findings"] as? [[String: Any]])
    let line = /^\S+ \S+ +\S+  (\S{4})  .*  \[(.*)\]$/
    var counts = (marked: 0, clean: 0)
    for text in listing.standardOutput.split(separator: "\n").dropLast() {
      let match = try #require(try line.wholeMatch(in: String(text)), "\(text)")
      let (marks, base) = (String(match.1), String(match.2))
      let problems = findings.filter { finding in
        let severity = finding["severity"] as? String
        return Self.belongs(finding["path"] as? String ?? "", to: base)
          && (severity == "warning" || severity == "error")
          && finding["code"] as? String != "folder-needs-recovery"
      }
      #expect(
        marks.contains("!") == !problems.isEmpty, "\(folder.lastPathComponent)/\(base): \(marks) \(problems)")
      if problems.isEmpty {
        counts.clean += 1
        continue
      }
      counts.marked += 1
      let shown = try run(["show", "./" + base], in: folder).standardOutput
      for problem in problems {
        let code = problem["code"] as! String
        #expect(shown.contains("problem    \(problem["severity"]!) \(code) in "), "\(base): \(code)")
      }
    }
    return counts
  }

  @Test func theMarksShowAndLintAgreeOnEveryFixture() throws {
    var total = (marked: 0, clean: 0)
    let lint = try LintFixtureFolder()
    defer { lint.remove() }
    for folder in [
      Fixtures.folder("demo"), Fixtures.folder("crash"), Fixtures.folder("twins"),
      lint.root.appendingPathComponent("lint"), lint.root.appendingPathComponent("lint/cases"),
    ] {
      let counts = try check(folder)
      total = (total.marked + counts.marked, total.clean + counts.clean)
    }
    // The fixtures hold both kinds, so the rule is tested both ways.
    #expect(total.marked > 20 && total.clean > 10, "\(total)")
  }

  /// The case a person met: a transcript with a backwards cue and a missing blank line gave lint
  /// two errors while `ls` showed `T---` and `show` named nothing.
  @Test func aTranscriptThatOnlyAFullReadFaultsIsMarked() throws {
    let folder = try Fixtures.scratchFolder("stash-one-account")
    defer { try? FileManager.default.removeItem(at: folder) }
    let base = "2026-05-01T10-00-00"
    try TestTone.mp4(seconds: 6, frequency: 440, fragmented: false)
      .write(to: folder.appendingPathComponent(base + "_audio.m4a"))
    try Data("WEBVTT\n\n00:00.000 --> 00:01.000\nfirst\n00:03.000 --> 00:01.000\nbackwards\n".utf8)
      .write(to: folder.appendingPathComponent(base + "_transcription.vtt"))
    let listing = try run(["ls", "."], in: folder).standardOutput
    #expect(listing.contains("  T-!-  "), "\(listing)")
    let shown = try run(["show", base], in: folder).standardOutput
    #expect(
      shown.contains("problem    error vtt-missing-blank-line in \(base)_transcription.vtt:5"), "\(shown)")
    #expect(shown.contains("problem    error vtt-end-not-after-start"), "\(shown)")
    #expect(try check(folder) == (marked: 1, clean: 0))
  }
}
