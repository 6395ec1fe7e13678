import Foundation
import StashTestSupport
import Testing

/// The browser lists a folder in `stash ls`'s order from its first screen (issue #33): a memo
/// whose base names no date is dated as the listing dates it (its audio's date, else its file's)
/// before the list is shown, not put last until its row is read.
@Suite struct UndatedOrderTests {
  /// Five memos dated by their bases, one a day, and `voice note`, whose base names no date and
  /// whose audio was last changed between the third and the fourth.
  static func folder() throws -> URL {
    let folder = try Fixtures.scratchFolder("stash-tui-undated")
    for day in 1...5 {
      try FileManager.default.copyItem(
        at: TUIHarness.toneAudio,
        to: folder.appendingPathComponent(String(format: "2025-02-%02dT10-00-00Z_audio.m4a", day)))
    }
    let undated = folder.appendingPathComponent("voice note_audio.m4a")
    try FileManager.default.copyItem(at: TUIHarness.toneAudio, to: undated)
    // 2025-02-03 12:00 UTC: newer than the third memo, older than the fourth.
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: 1_738_584_000)], ofItemAtPath: undated.path)
    return folder
  }

  /// The names `stash ls` lists, in its order.
  static func listed(_ folder: URL) throws -> [String] {
    let result = try runProcess(
      Fixtures.product("stash").path, ["ls", folder.path], environment: TUIHarness.environment)
    #expect(result.status == 0, "\(result.standardError)")
    return result.standardOutput.split(separator: "\n").dropLast().map {
      $0.components(separatedBy: "  ").last!.trimmingCharacters(in: .whitespaces)
    }
  }

  @Test func theFirstScreenIsInTheListingsOrder() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let listed = try Self.listed(folder)
    #expect(listed.count == 6 && listed[2] == "voice note", "\(listed)")
    // Every memo waits before it is read, so the screen below is made from the names alone.
    let tmux = try TmuxSession(
      folder: folder, width: 100, height: 12, environment: ["STASH_TUI_FILL_DELAY": "5"])
    defer { tmux.close() }
    let first = try #require(tmux.wait(for: "6 memos", timeout: 30), "\(tmux.capture())")
    #expect(first.contains("· reading "), "the memos were read before the screen: \(first)")
    let names = first.split(separator: "\n").dropFirst().prefix(6).map {
      ($0.split(separator: "│").first ?? "").trimmingCharacters(in: .whitespaces)
    }
    #expect(names.count == 6, "\(first)")
    for (row, name) in zip(names, listed) {
      #expect(row.hasSuffix(name), "the browser's order is not the listing's:\n\(first)\n\(listed)")
    }
    tmux.send("q")
  }
}
