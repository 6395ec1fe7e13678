import Foundation
import StashTestSupport
import Testing

/// The browser opens from the folder's names alone and fills in lengths, titles and totals as it
/// reads the memos (issue #20), answering keys meanwhile. `STASH_TUI_FILL_DELAY` stands in for a
/// slow disk: every batch of memos waits that long before it is read.
@Suite struct IncrementalFillTests {
  static let memoCount = 200

  /// `memoCount` memos of the 20-second test tone, every fifth with a title.
  static func folder() throws -> URL {
    let folder = try Fixtures.scratchFolder("stash-tui-fill")
    for n in 0..<memoCount {
      let base = Self.base(n)
      let audio = folder.appendingPathComponent(base + "_audio.m4a")
      do {
        try FileManager.default.linkItem(at: TUIHarness.toneAudio, to: audio)
      } catch {
        try FileManager.default.copyItem(at: TUIHarness.toneAudio, to: audio)
      }
      if n % 5 == 0 {
        try "Walk \(n)\n".write(
          to: folder.appendingPathComponent(base + "_title.txt"), atomically: false, encoding: .utf8)
      }
    }
    return folder
  }

  /// The list rows of a screen (between the header and the key hints).
  static func rows(_ screen: String) -> [Substring] {
    screen.split(separator: "\n").dropFirst().filter { $0.hasPrefix("›") || $0.hasPrefix("  20") }
  }

  @Test func rowsShowBeforeTheirLengthsAndKeysAreAnsweredWhileTheRestIsRead() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tmux = try TmuxSession(
      folder: folder, width: 100, height: 20, environment: ["STASH_TUI_FILL_DELAY": "1.5"])
    defer { tmux.close() }
    // The first screen: every row from its name (date from the base), no length read yet.
    let first = try #require(tmux.wait(for: "\(Self.memoCount) memos", timeout: 30), "\(tmux.capture())")
    #expect(first.contains("· reading "), "\(first)")
    let rows = Self.rows(first)
    #expect(rows.count >= 10, "\(first)")
    #expect(rows.first?.contains("2025-02-01 03:19") == true, "the newest memo is not first: \(first)")
    #expect(rows.allSatisfy { $0.contains("…") }, "lengths before any read: \(first)")
    #expect(!rows.contains { $0.contains("Walk ") }, "titles before any read: \(first)")

    // A key is answered while the memos wait to be read.
    tmux.send("Down")
    let moved = try #require(
      tmux.wait { Self.rows($0).dropFirst().first?.hasPrefix("›") == true }, "\(tmux.capture())")
    #expect(moved.contains("· reading "), "the key was answered only after the reading: \(moved)")

    // Then the rows on screen are filled in (the newest memo is titled), and at last every memo.
    let filled = try #require(
      tmux.wait(timeout: 60) { !$0.contains("· reading ") }, "never finished: \(tmux.capture())")
    let done = Self.rows(filled)
    #expect(done.allSatisfy { !$0.contains("…") && !$0.contains("--:--") }, "\(filled)")
    #expect(done.contains { $0.contains("Walk 195") }, "\(filled)")
    let header = filled.split(separator: "\n").first ?? ""
    #expect(header.contains("\(Self.memoCount) memos · 1:0") && !header.contains("+"), "\(header)")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil, "\(tmux.capture())")
  }

  /// The base of memo `n` of `folder()`.
  static func base(_ n: Int) -> String {
    String(format: "2025-02-%02dT%02d-%02d-00Z", n / 1440 + 1, n / 60 % 24, n % 60)
  }

  /// `folder()`, with the third newest memo's transcript no WebVTT (lint reports it, so its row
  /// earns `!` once the memo is read, not from its names) and a file that is no memo's.
  static func folderWithMarks() throws -> URL {
    let folder = try Self.folder()
    try "not a transcript\n".write(
      to: folder.appendingPathComponent(base(memoCount - 3) + "_transcription.vtt"), atomically: false,
      encoding: .utf8)
    try "notes\n".write(to: folder.appendingPathComponent("notes.txt"), atomically: false, encoding: .utf8)
    return folder
  }

  /// A list row's date, length and marks (`T R ! *`).
  static func fields(_ row: Substring) -> (date: String, length: String, marks: String)? {
    guard let match = row.prefixMatch(of: #/..(\d{4}-\d\d-\d\d(?: \d\d:\d\d)?) +(\S+) (.{4}) /#) else {
      return nil
    }
    return (String(match.1), String(match.2), String(match.3))
  }

  /// The marks of a list row.
  static func marks(_ row: Substring) -> String? { fields(row)?.marks }

  /// The date a list row shows.
  static func date(_ row: Substring) -> String? { fields(row)?.date }

  /// The first screen is drawn from the folder's names before any memo is read (issue 45 §3):
  /// the marks, lengths and titles arrive after it, and leave the selection and the rows where
  /// the person put them.
  @Test func theMarksArriveAfterTheFirstScreenWithoutMovingTheSelection() throws {
    let folder = try Self.folderWithMarks()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tmux = try TmuxSession(
      folder: folder, width: 100, height: 20, environment: ["STASH_TUI_FILL_DELAY": "2"])
    defer { tmux.close() }
    let first = try #require(tmux.wait(for: "\(Self.memoCount) memos", timeout: 30), "\(tmux.capture())")
    #expect(
      first.contains("· reading \(Self.memoCount)…"), "a memo was read before the first screen: \(first)")
    let shown = Self.rows(first)
    #expect(shown.count >= 10 && shown.first?.hasPrefix("›") == true, "\(first)")
    // From the names: the transcript is there (T), its problem is not known yet.
    #expect(Self.marks(shown[2]) == "T   ", "\(first)")
    // The person moves to the broken memo while nothing is read yet.
    tmux.send("Down", "Down")
    let moved = try #require(
      tmux.wait { Self.rows($0).count > 2 && Self.rows($0)[2].hasPrefix("›") }, "\(tmux.capture())")
    #expect(moved.contains("· reading "), "the keys were answered only after the reading: \(moved)")

    let filled = try #require(
      tmux.wait(timeout: 60) { !$0.contains("· reading ") }, "never finished: \(tmux.capture())")
    let done = Self.rows(filled)
    // The marks arrived: the broken memo has `!`, and the header counts the other file.
    #expect(Self.marks(done[2]) == "T ! ", "\(filled)")
    #expect(filled.contains("1 other file"), "\(filled)")
    // The selection stayed on the memo the person chose, and every row where it was.
    #expect(done[2].hasPrefix("›") && done.filter { $0.hasPrefix("›") }.count == 1, "\(filled)")
    #expect(done.map(Self.date) == Self.rows(moved).map(Self.date), "\(moved)\n---\n\(filled)")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil, "\(tmux.capture())")
  }

  /// `--render-once --first-screen` prints that first screen: the list from the names, before
  /// any memo is read or other file counted.
  @Test func renderOnceFirstScreenIsDrawnFromTheNames() throws {
    let folder = try Self.folderWithMarks()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runProcess(
      TUIHarness.binary, ["--render-once", "100x20", "--first-screen", folder.path],
      environment: TUIHarness.environment)
    #expect(result.status == 0, "\(result.standardError)")
    let screen = result.standardOutput
    #expect(screen.contains("\(Self.memoCount) memos · 0:00+ · reading \(Self.memoCount)…"), "\(screen)")
    #expect(!screen.contains("other file"), "\(screen)")
    let rows = Self.rows(screen)
    #expect(rows.count >= 10 && rows.allSatisfy { $0.contains("…") }, "\(screen)")
    #expect(Self.marks(rows[2]) == "T   ", "\(screen)")
    // Read in full, the same folder has the marks and the count.
    let full = try TUIHarness.render(folder, size: "100x20")
    #expect(Self.marks(Self.rows(full)[2]) == "T ! " && full.contains("1 other file"), "\(full)")
  }

  /// Once the memos are read, the screen is the one a full reading gives: render-once (which
  /// reads the folder before its keys) on the same folder and keys.
  @Test func theFilledScreenIsTheFullyReadOne() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let tmux = try TmuxSession(folder: folder, width: 100, height: 20)
    defer { tmux.close() }
    let filled = try #require(
      tmux.wait(timeout: 60) { $0.contains("\(Self.memoCount) memos") && !$0.contains("· reading ") },
      "\(tmux.capture())")
    let rendered = try TUIHarness.render(folder, size: "100x20")
    func trimmed(_ text: String) -> [String] {
      text.split(separator: "\n", omittingEmptySubsequences: false).prefix(18).map {
        String($0.reversed().drop { $0 == " " }.reversed())
      }
    }
    // The header ends in the folder's path, which the harness prints as DIR.
    #expect(trimmed(filled).dropFirst() == trimmed(rendered).dropFirst(), "\(filled)\n---\n\(rendered)")
    let summary = { (screen: String) -> String in
      let header = screen.split(separator: "\n").first.map(String.init) ?? ""
      let cut = header.replacingOccurrences(of: " DIR", with: "").components(separatedBy: "  ")[0]
      return cut.trimmingCharacters(in: .whitespaces)
    }
    #expect(summary(filled).hasPrefix("stash \(Self.memoCount) memos · "), "\(filled)")
    #expect(summary(filled) == summary(rendered), "\(filled)\n---\n\(rendered)")
    tmux.send("q")
  }
}
