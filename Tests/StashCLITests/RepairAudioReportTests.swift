import Foundation
import StashTestSupport
import Testing

/// `stash recover --repair-audio` prints only what it does (or, in a dry run, would do, in the
/// conditional), and one line of totals, over a copy of the demo folder (two recordings cut short).
@Suite struct RepairAudioReportTests {
  let stash = Fixtures.product("stash").path

  static func demoCopy() throws -> ScratchFolder {
    let root = try ScratchFolder("stash-repair-report")
    let source = Fixtures.folder("demo")
    for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where !name.hasPrefix(".") {
      try FileManager.default.copyItem(
        at: source.appendingPathComponent(name), to: root.appendingPathComponent(name))
    }
    for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
      try FileManager.default.setAttributes(
        [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: root.path + "/" + path)
    }
    return root
  }

  @Test func onlyWhatIsDoneIsPrintedThenATotalAndADryRunSpeaksInTheConditional() throws {
    let root = try Self.demoCopy()
    defer { root.remove() }
    let audio = try FileManager.default.contentsOfDirectory(atPath: root.path).filter {
      $0.hasSuffix("_audio.m4a")
    }
    #expect(audio.count > 2)

    let dry = try runProcess(stash, ["recover", root.path, "--repair-audio", "--dry-run"])
    #expect(dry.status == 0, "\(dry.standardOutput)")
    let lines = dry.standardOutput.split(separator: "\n").map(String.init)
    // Every line after the opening belongs to an event (a base, its verb, its detail) or is the total.
    let bases = lines.filter { !$0.hasPrefix(" ") && !$0.hasPrefix("Dry run") && !$0.hasPrefix("Audio:") }
    #expect(bases.count == 2, "\(lines)")
    #expect(lines.filter { $0.contains("would be repaired: ") }.count == 2)
    #expect(!dry.standardOutput.contains("rewrote") && !dry.standardOutput.contains("now ends"))
    #expect(
      dry.standardOutput.contains("would rewrite the last fragment")
        || dry.standardOutput.contains("would remove"))
    #expect(dry.standardOutput.contains("every player would open it"))
    #expect(
      lines.last
        == "Audio: \(audio.count) files looked at; 2 would be repaired, \(audio.count - 2) already whole.")

    let done = try runProcess(stash, ["recover", root.path, "--repair-audio"])
    #expect(done.status == 0)
    #expect(
      done.standardOutput.split(separator: "\n").last
        == "Audio: \(audio.count) files looked at; 2 repaired, \(audio.count - 2) already whole.")
    #expect(done.standardOutput.contains("every player opens it"))

    let again = try runProcess(stash, ["recover", root.path, "--repair-audio"])
    #expect(
      again.standardOutput
        == "Nothing to recover in \(root.path).\nAudio: \(audio.count) files looked at; 0 repaired, \(audio.count) already whole.\n"
    )
  }
}
