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
      let base = String(format: "2025-02-%02dT%02d-%02d-00Z", n / 1440 + 1, n / 60 % 24, n % 60)
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
    let summary = { (screen: String) in screen.split(separator: "\n").first?.split(separator: "  ").first }
    #expect(summary(filled) != nil && summary(filled) == summary(rendered), "\(filled)\n---\n\(rendered)")
    tmux.send("q")
  }
}
