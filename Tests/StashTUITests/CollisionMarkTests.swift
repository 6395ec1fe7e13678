import Foundation
import StashTestSupport
import Testing

/// Two memos whose bases differ only in case would be one on the phone: lint reports each, `stash
/// ls` marks each `!`, and so does the browser's list (one account of a memo's problems).
@Suite struct CollisionMarkTests {
  /// The memos marked `!` in the browser's list and in `stash ls`'s.
  static func marks(_ folder: URL) throws -> (browser: Int, ls: Int, screen: String) {
    let screen = try TUIHarness.render(folder, size: "120x30")
    // The list is the left pane: each memo's row starts with its date, its marks after its length.
    let rows = screen.split(separator: "\n").map { $0.prefix { $0 != "│" } }.filter {
      $0.dropFirst(2).hasPrefix("2026-")
    }
    let ls = try runProcess(
      Fixtures.product("stash").path, ["ls", folder.path], environment: TUIHarness.environment)
    let listed = ls.standardOutput.split(separator: "\n").filter { $0.hasPrefix("2026-") }
    #expect(rows.count == listed.count, "\(screen)\n\(ls.standardOutput)")
    return (rows.filter { $0.contains("!") }.count, listed.filter { $0.contains("-!-") }.count, screen)
  }

  @Test func collidingMemosAreMarkedInTheListAsStashLsMarksThem() throws {
    let folder = try TUIHarness.memoFolder()
    let before = try Self.marks(folder)
    #expect(before.browser == before.ls)
    try FileManager.default.copyItem(
      at: folder.appendingPathComponent("2026-07-20T07-45-10Z_audio.m4a"),
      to: folder.appendingPathComponent("2026-07-20t07-45-10z_audio.m4a"))
    let after = try Self.marks(folder)
    // Both memos of the collision are marked, and the pane names it.
    #expect(after.ls == before.ls + 2)
    #expect(after.browser == after.ls, "\(after.screen)")
    #expect(after.screen.contains("would be one memo"), "\(after.screen)")
  }

  /// A memo whose base collides only with an orphan's (a title with no audio): `ls` marks the
  /// memo and so does the browser.
  @Test func aMemoCollidingWithAnOrphanIsMarkedToo() throws {
    let folder = try TUIHarness.memoFolder()
    let before = try Self.marks(folder)
    try "A stray title\n".write(
      to: folder.appendingPathComponent("2026-07-20t07-45-10z_title.txt"), atomically: false, encoding: .utf8)
    let after = try Self.marks(folder)
    #expect(after.ls == before.ls + 1)
    #expect(after.browser == after.ls, "\(after.screen)")
  }
}
