import Foundation
import StashBrowser
import StashFormat
import StashTestSupport
import Testing

/// The binary's own command line: `--version`, `--help` with the key table, and refusals.
@Suite struct TUICommandLineTests {
  @Test func versionIsTheLibrarys() throws {
    let r = try runProcess(TUIHarness.binary, ["--version"], environment: TUIHarness.environment)
    #expect(r.status == 0)
    #expect(r.standardOutput == "stash-tui \(StashFormat.version)\n")
  }

  @Test func helpPrintsEveryBindingOfTheKeyTable() throws {
    let r = try runProcess(TUIHarness.binary, ["--help"], environment: TUIHarness.environment)
    #expect(r.status == 0)
    let bindings = KeyTable.groups.flatMap(\.bindings)
    #expect(bindings.count > 20)
    for line in KeyTable.helpLines() { #expect(r.standardOutput.contains(line.text + "\n"), "\(line.text)") }
  }

  @Test func aFolderThatIsNotThereIsRefusedByName() throws {
    let missing = "/nonexistent-\(UUID().uuidString)"
    let r = try runProcess(TUIHarness.binary, [missing], environment: TUIHarness.environment)
    #expect(r.status == 2)
    #expect(r.standardError.contains(missing + ": No such file or directory"), "\(r.standardError)")
  }
}
