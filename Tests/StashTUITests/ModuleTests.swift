import Foundation
import StashTestSupport
import Testing

@Suite struct TUIBinaryTests {
  @Test func binaryIsBuilt() {
    #expect(FileManager.default.isExecutableFile(atPath: Fixtures.product("stash-tui").path))
  }
}
