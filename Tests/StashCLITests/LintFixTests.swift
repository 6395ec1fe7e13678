import Foundation
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `--fix`, hostile names, unreadable files, single files.
@Suite struct LintFixTests {
  /// Makes everything in `lint/` last touched long ago, so the sweep takes nothing for a live
  /// recording (a fresh checkout or copy gives every file the current time, which the sweep would
  /// rightly skip).
  static func age(_ folder: LintFixtureFolder) throws {
    let aged = try runProcess(
      "find",
      [
        folder.root.appendingPathComponent("lint").path, "-exec", "touch", "-h", "-d", "2026-05-08 16:00",
        "{}", "+",
      ])
    #expect(aged.status == 0, "\(aged.standardError)")
  }

  @Test func fixRunsTheSweepAndRemovesEmptyPartsFoldersAndCountsWhatItFixed() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    try Self.age(folder)
    let result = try folder.run(["lint", "lint", "--fix", "--format", "json"])
    #expect(
      result.standardError.contains(
        "fix: 2026-05-08T15-00-00: published 2026-05-08T15-00-00_transcription.vtt"))
    // The sweep removes empty parts folders itself while it is at it.
    #expect(result.standardError.contains("fix: 2026-05-07T14-00-00: removed 2026-05-07T14-00-00.parts"))
    #expect(result.standardError.contains("stash lint: fixed 2 findings"))
    let files = try FileManager.default.contentsOfDirectory(
      atPath: folder.root.appendingPathComponent("lint").path)
    #expect(
      files.contains("2026-05-08T15-00-00_transcription.vtt")
        && files.contains("2026-05-08T15-00-00_track.gpx"))
    #expect(!files.contains("2026-05-07T14-00-00.parts") && !files.contains("2026-05-08T15-00-00.parts"))
    #expect(
      !result.standardOutput.contains("folder-needs-recovery")
        && !result.standardOutput.contains("folder-parts-empty"))
    // What the sweep published is linted in the same run: the route's times lie inside the recording.
    #expect(!result.standardOutput.contains("lint/2026-05-08T15-00-00_track.gpx"))
  }

  /// `--fix` with rules selected or ignored fixes only what the findings they keep call for (it
  /// once swept the whole folder whatever was selected).
  @Test func fixKeepsToTheRulesSelected() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    try Self.age(folder)
    let lint = folder.root.appendingPathComponent("lint").path
    for (rules, removed, kept) in [
      (["--select", "folder-parts-empty"], "2026-05-07T14-00-00.parts", "2026-05-08T15-00-00.parts"),
      (["--ignore", "folder-parts-empty"], "2026-05-08T15-00-00.parts", "2026-05-07T14-00-00.parts"),
    ] {
      try? FileManager.default.createDirectory(
        atPath: lint + "/2026-05-07T14-00-00.parts", withIntermediateDirectories: false)
      let result = try folder.run(["lint", "lint", "--fix"] + rules)
      #expect(
        result.standardError.contains("stash lint: fixed 1 finding"), "\(rules): \(result.standardError)")
      let files = try FileManager.default.contentsOfDirectory(atPath: lint)
      #expect(!files.contains(removed) && (files.contains(kept) || kept.hasPrefix("2026-05-08")), "\(rules)")
      if rules[0] == "--select" {
        #expect(files.contains(kept), "a capture not selected was swept: \(result.standardError)")
        #expect(!result.standardError.contains("published"), "\(result.standardError)")
      }
    }
  }

  /// A folder `tidy` beside `lint/`: `m.parts` empty, `n.parts` holding a stranger's note, each
  /// beside audio, every file made old so the sweep takes none for a live recording.
  static func tidyFolder(in folder: LintFixtureFolder) throws -> URL {
    let dir = folder.root.appendingPathComponent("tidy")
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("m.parts"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("n.parts"), withIntermediateDirectories: true)
    try "keep\n".write(to: dir.appendingPathComponent("n.parts/notes.txt"), atomically: true, encoding: .utf8)
    for base in ["m", "n"] {
      try FileManager.default.copyItem(
        at: folder.root.appendingPathComponent("lint/2026-05-02T09-00-00_audio.m4a"),
        to: dir.appendingPathComponent("\(base)_audio.m4a"))
    }
    let aged = try runProcess(
      "find", [dir.path, "-exec", "touch", "-h", "-d", "2026-05-08 16:00", "{}", "+"])
    #expect(aged.status == 0, "\(aged.standardError)")
    return dir
  }

  /// With nothing to recover, the sweep still runs to remove an empty parts folder (under the
  /// folder's lock, through the file-system seam), and nothing else is touched.
  @Test func fixRemovesAnEmptyPartsFolderThroughTheSweep() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let dir = try Self.tidyFolder(in: folder)
    let result = try folder.run(["lint", "tidy", "--fix"])
    #expect(
      result.standardError.contains("fix: m: removed m.parts: the parts folder, now empty"),
      "\(result.standardError)")
    #expect(result.standardError.contains("stash lint: fixed 1 finding\n"))
    #expect(result.standardOutput.contains("tidy/n.parts: info[folder-parts-strangers]"))
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(names == ["m_audio.m4a", "n.parts", "n_audio.m4a"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path + "/n.parts") == ["notes.txt"])
  }

  /// Like every stash writer, `--fix` takes the memo folder's lock: while another process holds
  /// it, the empty parts folder stays and the fix says it is waiting; it goes once the lock is let go.
  @Test func fixWaitsForTheFolderLockBeforeRemovingAnEmptyPartsFolder() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let dir = try Self.tidyFolder(in: folder)
    let descriptor = open(dir.path, O_RDONLY | O_DIRECTORY)
    #expect(flock(descriptor, LOCK_EX) == 0)
    var fix = try WaitingWriter(folder.stash, ["lint", dir.path, "--fix"])
    #expect(fix.text.contains("waiting for it"))
    #expect(fix.process.isRunning)
    #expect(FileManager.default.fileExists(atPath: dir.path + "/m.parts"), "removed under another's lock")
    close(descriptor)
    fix.finish()
    #expect(fix.text.contains("fix: m: removed m.parts"))
    #expect(!FileManager.default.fileExists(atPath: dir.path + "/m.parts"))
  }

  @Test func hostileNamesAreEscapedInTextAndValidInJSONAndSARIF() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let dir = folder.root.appendingPathComponent("hostile")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
    try Data("x".utf8).write(to: dir.appendingPathComponent("new\nline_transcription.vtt"))
    try Data("x".utf8).write(to: dir.appendingPathComponent("bell\u{7}\u{1B}[31m.txt"))
    // A name that is not UTF-8, made by the shell (Foundation cannot name it).
    #expect(
      try runProcess("sh", ["-c", "printf x > \"$1\"/$(printf 'caf\\351.m4a')", "sh", dir.path]).status == 0)
    let text = try folder.run(["lint", "hostile"])
    #expect(text.standardOutput.contains("hostile/new\\nline_transcription.vtt: warning[folder-orphan]"))
    // A name in a message is escaped once, as in the path (it was once escaped twice: `new\\\\nline`).
    #expect(text.standardOutput.contains("(new\\nline_audio.m4a is missing)"), "\(text.standardOutput)")
    #expect(text.standardOutput.contains("hostile/bell\\x07\\x1b[31m.txt: info[folder-unrecognised]"))
    #expect(text.standardOutput.contains("hostile/caf\\xe9.m4a: info[folder-unrecognised]"))
    #expect(!text.standardOutput.contains("\u{1B}") && !text.standardOutput.contains("\u{7}"))
    for format in ["json", "sarif"] {
      let out = try folder.run(["lint", "hostile", "--format", format]).standardOutput
      #expect(try JSONSerialization.jsonObject(with: Data(out.utf8)) is [String: Any], "\(format)")
    }
    let github = try folder.run(["lint", "hostile", "--format", "github"]).standardOutput
    #expect(github.split(separator: "\n").count == 3, "one annotation per line, whatever the names hold")
  }

  @Test func aFileThatCannotBeReadIsReportedAndTheRestIsChecked() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let dir = folder.root.appendingPathComponent("big")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
    try FileManager.default.copyItem(
      at: folder.root.appendingPathComponent("lint/2026-05-02T09-00-00_audio.m4a"),
      to: dir.appendingPathComponent("m_audio.m4a"))
    // A sparse transcript past the reader's 1 GiB limit: the reader refuses it, costing no disk.
    #expect(
      try runProcess("truncate", ["-s", "1200M", dir.appendingPathComponent("m_transcription.vtt").path])
        .status == 0)
    try "Title\nspanning\n".write(
      to: dir.appendingPathComponent("m_title.txt"), atomically: true, encoding: .utf8)
    let result = try folder.run(["lint", "big", "--format", "gcc"])
    #expect(result.standardOutput.contains("big/m_transcription.vtt: error: the file cannot be read ("))
    #expect(result.standardOutput.contains("[lint-file-unreadable]"))
    #expect(result.standardOutput.contains("big/m_title.txt:"), "the title is still checked")
    #expect(result.status == 1)
  }

  @Test func aSingleFileIsCheckedByItsReader() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let result = try folder.run(["lint", "lint/cases/2026-07-25T10-00-00_track.gpx", "--format", "gcc"])
    #expect(result.standardOutput.contains("lint/cases/2026-07-25T10-00-00_track.gpx:"))
    #expect(
      result.standardOutput.contains("[gpx-bad-coordinate]")
        && result.standardOutput.contains("[lint-gpx-time-backwards]"))
    // Alone, the route has no recording to compare with.
    #expect(!result.standardOutput.contains("lint-gpx-point-outside-recording"))
    #expect(try folder.run(["lint", "lint/MANIFEST.json"]).status == 2)
  }
}

/// The per-file limit of findings of one code holds for the readers' findings too.
@Suite struct LintListingLimitTests {
  /// A transcript with thirty bad timestamps: twenty are listed and one more stands for the other
  /// ten; the summary counts thirty (a reader's findings were once all listed, up to a thousand).
  @Test func aReadersFindingsAreListedUpToTheLimit() throws {
    let folder = try Fixtures.scratchFolder("stash-lint-limit")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cues = (0..<30).map { "00:0x:\(10 + $0).000 --> 00:01:00.000\nword \($0)\n" }
    try Data(("WEBVTT\n\n" + cues.joined(separator: "\n")).utf8)
      .write(to: folder.appendingPathComponent("2026-01-01T10-00-00_transcription.vtt"))
    try TestTone.mp4(seconds: 1, frequency: 330, fragmented: false)
      .write(to: folder.appendingPathComponent("2026-01-01T10-00-00_audio.m4a"))
    let result = try runStash(["lint", ".", "--json"], in: folder)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let findings = try #require(document["findings"] as? [[String: Any]])
    let bad = findings.filter { $0["code"] as? String == "vtt-bad-timestamp" }
    #expect(bad.count == 21, "\(bad.count)")
    #expect(bad.compactMap { $0["unlisted"] as? Int }.filter { $0 > 0 } == [10], "\(bad.last ?? [:])")
    let summary = try #require(document["summary"] as? [String: Any])
    let listed = findings.filter { ($0["unlisted"] as? Int ?? 0) == 0 }.count
    let unlisted = findings.compactMap { $0["unlisted"] as? Int }.reduce(0, +)
    #expect(summary["findings"] as? Int == listed + unlisted, "\(summary)")
  }
}
