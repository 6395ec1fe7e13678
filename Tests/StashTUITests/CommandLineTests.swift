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

  /// `--play --from` past the memo's end plays nothing: refused as a usage mistake (2), naming
  /// the memo's length, rather than exiting 0 in silence.
  @Test func playFromPastTheEndIsRefusedWithTheLength() throws {
    let scratch = try ScratchFolder("stash-play-past-end")
    defer { scratch.remove() }
    let memo = scratch.appendingPathComponent("2026-03-14T09-30-00Z_audio.m4a")
    try FileManager.default.copyItem(at: TUIHarness.toneAudio, to: memo)
    var environment = TUIHarness.environment
    environment["STASH_ALSA_DEVICE"] = "null"
    let r = try runProcess(
      TUIHarness.binary, ["--play", memo.path, "--from", "0:30"], environment: environment)
    #expect(r.status == 2, "\(r.standardError)")
    // The tone is 20 seconds long.
    #expect(r.standardError.contains("--from 0:30 is past the end of "), "\(r.standardError)")
    #expect(r.standardError.contains("which is 0:20 long"), "\(r.standardError)")
    // Inside the memo it plays, to the end (0).
    let inside = try runProcess(
      TUIHarness.binary, ["--play", memo.path, "--from", "0:19.5"], environment: environment)
    #expect(inside.status == 0, "\(inside.standardError)")
  }

  /// Under `LANG=C` the browser says once that it uses C.UTF-8 (this machine has it), before
  /// anything is drawn; under a UTF-8 locale it says nothing.
  @Test func aLocaleThatIsNotUTF8IsReplacedOnceWithAWarning() throws {
    let folder = try TUIHarness.memoFolder()
    var environment = TUIHarness.environment
    environment["LC_ALL"] = nil
    environment["LC_CTYPE"] = nil
    environment["LANG"] = "C"
    let r = try runProcess(
      TUIHarness.binary, ["--render-once", "80x24", folder.path], environment: environment)
    #expect(r.status == 0, "\(r.standardError)")
    let warning = "the locale C (ANSI_X3.4-1968) is not UTF-8; using C.UTF-8"
    #expect(r.standardError.components(separatedBy: warning).count == 2, "\(r.standardError)")
    #expect(r.standardOutput.contains("会議のメモ 🎉"), "\(r.standardOutput)")
    let utf8 = try runProcess(
      TUIHarness.binary, ["--render-once", "80x24", folder.path], environment: TUIHarness.environment)
    #expect(utf8.status == 0 && utf8.standardError.isEmpty, "\(utf8.standardError)")
  }
}
