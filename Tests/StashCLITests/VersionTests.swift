import StashTestSupport
import Testing

@Suite struct VersionTests {
  @Test func printsVersionAndRejectsUnknownCommands() throws {
    let stash = Fixtures.product("stash").path
    let version = try runProcess(stash, ["--version"])
    #expect(version.status == 0)
    #expect(version.standardOutput.hasPrefix("stash "))
    let unknown = try runProcess(stash, ["frobnicate"])
    #expect(unknown.status == 2)
    #expect(unknown.standardError.contains("unknown command 'frobnicate'"))
  }
}
