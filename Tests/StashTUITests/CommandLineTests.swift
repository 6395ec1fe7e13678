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

  /// `--list-devices` lists where sound can go, not the converters ALSA lists beside them (a rate
  /// converter, a channel mixer): two PCMs of a configuration of the test's own, one of each.
  @Test func listDevicesLeavesOutConverters() throws {
    let scratch = try ScratchFolder("stash-devices")
    defer { scratch.remove() }
    let config = scratch.appendingPathComponent("asound.conf")
    try """
    </usr/share/alsa/alsa.conf>
    pcm.stashtestsink { type null; hint { show on; description "a sink of the test's own" } }
    pcm.stashtestrate { type rate; slave.pcm "stashtestsink"; hint { show on; description "a rate converter" } }
    pcm.stashtestmix { type upmix; slave.pcm "stashtestsink"; hint { show on; description "a channel mixer" } }
    """.write(to: config, atomically: true, encoding: .utf8)
    var environment = TUIHarness.environment
    environment["ALSA_CONFIG_PATH"] = config.path
    let r = try runProcess(TUIHarness.binary, ["--list-devices"], environment: environment)
    #expect(r.status == 0, "\(r.standardError)")
    #expect(r.standardOutput.contains("stashtestsink"), "\(r.standardOutput)")
    #expect(!r.standardOutput.contains("stashtestrate") && !r.standardOutput.contains("stashtestmix"))
    for converter in ["lavrate", "samplerate", "speexrate", "upmix", "vdownmix"] {
      #expect(!r.standardOutput.contains("  \(converter) "), "\(converter)")
    }
  }
}
