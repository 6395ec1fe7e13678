import Foundation
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `stash recover` run as a program over copies of the crash fixtures.
@Suite struct RecoverCommandTests {
  let stash = Fixtures.product("stash").path

  @Test func sweepsTheCrashFolderIntoWhatTheManifestSaysAndExitsOneForWhatNeedsAPerson() throws {
    let folder = try RecoverFolder()
    defer { folder.remove() }
    let result = try runProcess(stash, ["recover", folder.root.path, "--json"])
    #expect(result.status == 1, "\(result.standardError)")
    let report = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as! [String: Any]
    #expect(report["exitCode"] as? Int == 1)
    let captures = report["captures"] as! [[String: Any]]
    for entry in folder.captures {
      let base = entry["base"] as! String
      #expect(try folder.files(of: base) == entry["after"] as! [String], "\(base)")
      let reported = captures.first { $0["base"] as? String == base }
      // Captures with nothing to do (audio only, no parts) are not in the report.
      #expect((reported?["needsPerson"] as? Bool ?? false) == entry["needsPerson"] as! Bool, "\(base)")
    }
    // Touched to now as a copy is, but dated April and seconds long: swept, not held for two minutes.
    let copied = captures.first { $0["base"] as? String == "2026-04-13T09-00-00" }
    let events = copied?["events"] as? [[String: Any]] ?? []
    #expect(events.first?["action"] as? String == "published")

    // Run again: nothing left to do, still exit 1 for the kept parts and the stranger's files.
    let before = try folder.tree()
    let again = try runProcess(stash, ["recover", folder.root.path])
    #expect(again.status == 1)
    #expect(try folder.tree() == before)
  }

  @Test func dryRunPrintsThePlanAndTouchesNothing() throws {
    let folder = try RecoverFolder()
    defer { folder.remove() }
    let before = try folder.tree()
    let result = try runProcess(stash, ["recover", folder.root.path, "--dry-run", "--repair-audio"])
    #expect(result.status == 1)
    #expect(try folder.tree() == before)
    #expect(result.standardOutput.hasPrefix("Dry run: nothing is written or removed."))
    #expect(result.standardOutput.contains("would be published: 2026-04-01T09-00-00_transcription.vtt"))
    #expect(result.standardOutput.contains("would be repaired: 2026-04-12T09-00-00_audio.m4a"))
    #expect(result.standardOutput.contains("would be published: 2026-04-13T09-00-00_transcription.vtt"))
    #expect(!result.standardOutput.contains("would be skipped"))
  }

  @Test func exitsZeroWhenNothingNeedsAPerson() throws {
    let root = try ScratchFolder("stash-recover-clean")
    defer { root.remove() }
    let source = Fixtures.folder("crash")
    let base = "2026-04-01T09-00-00"
    for name in [base + "_audio.m4a", base + ".parts"] {
      try FileManager.default.copyItem(
        at: source.appendingPathComponent(name), to: root.appendingPathComponent(name))
    }
    for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
      try FileManager.default.setAttributes(
        [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: root.path + "/" + path)
    }
    let result = try runProcess(stash, ["recover", root.path])
    #expect(result.status == 0, "\(result.standardOutput)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        == [base + "_audio.m4a", base + "_track.gpx", base + "_transcription.vtt"])
  }

  @Test func routesDropPublishesNoRoute() throws {
    let folder = try RecoverFolder()
    defer { folder.remove() }
    let result = try runProcess(stash, ["recover", folder.root.path, "--routes=drop", "--include-recent"])
    #expect(result.status == 1)
    let tracks = try folder.tree().keys.filter { $0.hasSuffix("_track.gpx") }
    #expect(tracks == ["2026-04-05T09-00-00_track.gpx"])
    #expect(result.standardOutput.contains("dropped: 2026-04-01T09-00-00.parts/track.0001.gpx"))
  }

  @Test func usageAndFolderErrorsExitTwoWithThePathAndReason() throws {
    let bad = try runProcess(stash, ["recover", "--routes=maybe"])
    #expect(bad.status == 2)
    #expect(bad.standardError.contains("--routes takes publish or drop"))
    let unknown = try runProcess(stash, ["recover", "--frobnicate"])
    #expect(unknown.status == 2)
    let missing = try runProcess(stash, ["recover", "/nonexistent/memos"])
    #expect(missing.status == 2)
    #expect(missing.standardError.contains("/nonexistent/memos: not a folder"))
    let two = try runProcess(stash, ["recover", "a", "b"])
    #expect(two.status == 2)
    let window = try runProcess(stash, ["recover", "--recent-window", "soon"])
    #expect(window.status == 2)
  }

  @Test func aSecondSweepWaitsForTheFirstOrSaysOneIsRunning() throws {
    let folder = try RecoverFolder()
    defer { folder.remove() }
    // Hold the folder's lock as a running sweep would.
    let descriptor = open(folder.root.path, O_RDONLY | O_DIRECTORY)
    #expect(flock(descriptor, LOCK_EX) == 0)
    let refused = try runProcess(stash, ["recover", folder.root.path, "--no-wait"])
    #expect(refused.status == 2)
    #expect(refused.standardError.contains("another stash process is writing in this folder"))

    // It says it is waiting, and changes nothing while it waits.
    var sweep = try WaitingWriter(stash, ["recover", folder.root.path])
    #expect(sweep.text.contains("waiting for it"))
    #expect(sweep.process.isRunning)
    #expect(try folder.files(of: "2026-04-01T09-00-00").contains("2026-04-01T09-00-00.parts"))
    close(descriptor)
    sweep.finish()
    #expect(sweep.process.terminationStatus == 1)
    #expect(try folder.files(of: "2026-04-01T09-00-00").contains("2026-04-01T09-00-00_track.gpx"))
  }

  /// Real kills: start the sweep, SIGKILL it after a random moment, sweep again, and expect the
  /// folder an uninterrupted sweep leaves. The delays are seeded so a failure can be replayed.
  @Test func killedAtRandomMomentsARerunEndsInTheSameFolder() throws {
    let reference = try RecoverFolder()
    defer { reference.remove() }
    let original = try reference.tree()
    let started = Date()
    _ = try runProcess(stash, ["recover", reference.root.path])
    // Kills are spread over as long as a whole run takes here, start-up included.
    let runMicroseconds = UInt32(min(5, Date().timeIntervalSince(started)) * 1_000_000)
    let expected = try reference.tree()
    var generator = SeededGenerator(seed: 5)
    var interrupted = 0
    for trial in 0..<16 {
      let folder = try RecoverFolder()
      defer { folder.remove() }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: stash)
      process.arguments = ["recover", folder.root.path]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      let delay = UInt32.random(in: 0...runMicroseconds, using: &generator)
      try process.run()
      usleep(delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let killed = try folder.tree()
      if killed.keys.sorted() != original.keys.sorted() && killed.keys.sorted() != expected.keys.sorted() {
        interrupted += 1
      }
      let rerun = try runProcess(stash, ["recover", folder.root.path])
      #expect(rerun.status == 1, "trial \(trial): \(rerun.standardError)")
      let tree = try folder.tree()
      // The capture touched to now (a fresh copy) has its times from each copy; compare its names only.
      #expect(tree.keys.sorted() == expected.keys.sorted(), "trial \(trial), killed after \(delay) µs")
      for (path, bytes) in expected where !path.hasPrefix("2026-04-13") {
        #expect(tree[path] == bytes, "trial \(trial), killed after \(delay) µs: \(path)")
      }
    }
    // Some kills must have landed in the middle of the work, or this proved nothing.
    #expect(interrupted >= 1, "no kill interrupted a sweep")
    print("recover kill trials: \(interrupted) of 16 interrupted a sweep mid-way")
  }
}

/// A small seeded generator (SplitMix64) so random trials can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
