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

/// A plain `swift build` is not stamped (scripts/stamp-version): it says the last release, which
/// must be the version packaging/changelog names first.
@Suite struct UnstampedVersionTests {
  @Test func aPlainBuildSaysTheChangelogsVersion() throws {
    let changelog = try String(
      contentsOf: Fixtures.repositoryRoot.appendingPathComponent("packaging/changelog"), encoding: .utf8)
    let first = try #require(changelog.split(separator: "\n").first)
    let version = try #require(
      first.firstRange(of: "(").flatMap { open in
        first[open.upperBound...].firstRange(of: ")").map { first[open.upperBound..<$0.lowerBound] }
      })
    let stash = try runProcess(Fixtures.product("stash").path, ["--version"])
    let browser = try runProcess(Fixtures.product("stash-tui").path, ["--version"])
    #expect(stash.standardOutput == "stash \(version)\n")
    #expect(browser.standardOutput == "stash-tui \(version)\n")
  }
}
