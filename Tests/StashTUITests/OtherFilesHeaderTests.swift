import Foundation
import StashTestSupport
import Testing

/// The header counts the folder's names that belong to no memo, as `stash ls` does under its list:
/// a near miss is not invisible.
@Suite struct OtherFilesHeaderTests {
  @Test func theHeaderCountsOtherFilesAsStashLsDoes() throws {
    let folder = try TUIHarness.memoFolder()
    // A near miss (the suffix's case), an orphan (a title without its memo), a stranger; a hidden
    // name is not counted.
    for name in ["2026-03-14T09-31-00Z_Audio.m4a", "2026-01-01T00-00-00Z_title.txt", "notes.txt", ".hidden"] {
      try Data("x\n".utf8).write(to: folder.appendingPathComponent(name))
    }
    let screen = try TUIHarness.render(folder, size: "120x30")
    let header = String(screen.prefix { $0 != "\n" })
    #expect(header.contains(" · 3 other files (stash lint)"), "\(header)")

    let ls = try runProcess(
      Fixtures.product("stash").path, ["ls", folder.path], environment: TUIHarness.environment)
    #expect(ls.standardOutput.contains("3 other files (stash lint)"), "\(ls.standardOutput)")
  }

  @Test func aFolderOfMemosOnlySaysNothing() throws {
    let folder = try TUIHarness.memoFolder()
    let screen = try TUIHarness.render(folder, size: "120x30")
    #expect(!screen.contains("other file"), "\(screen)")
  }
}
