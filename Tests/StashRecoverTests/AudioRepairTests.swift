import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `--repair-audio` on recordings cut short, checked with ffprobe and with our own reader.
@Suite struct AudioRepairTests {
  static let torn = ["2026-04-11T09-00-00", "2026-04-12T09-00-00"]

  /// A folder holding only the two torn recordings of the crash fixtures, a day old.
  static func tornFolder() throws -> ScratchFolder {
    let root = try ScratchFolder("stash-repair")
    for base in torn {
      let name = base + "_audio.m4a"
      try FileManager.default.copyItem(
        at: Fixtures.folder("crash").appendingPathComponent(name), to: root.appendingPathComponent(name))
      try setModificationTime(root.path + "/" + name, Date().timeIntervalSince1970 - 86_400)
    }
    return root
  }

  /// ffprobe's stream duration, or nil when it cannot open the file.
  static func ffprobeDuration(_ path: String) throws -> Double? {
    let result = try runProcess(
      "ffprobe", ["-v", "error", "-show_entries", "stream=duration", "-of", "csv=p=0", path])
    guard result.status == 0, result.standardError.isEmpty else { return nil }
    return Double(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  func sweep(_ root: ScratchFolder, fileSystem: any FileSystem = SystemFileSystem()) throws -> SweepReport {
    try Sweeper(fileSystem: fileSystem, assembler: FormatAssembler(), audioRepairer: MP4AudioRepairer())
      .run(root.path, options: SweepOptions(now: Date().timeIntervalSince1970, repairAudio: true))
  }

  @Test func repairedFilesOpenInFFprobeWithOurDuration() throws {
    let root = try Self.tornFolder()
    defer { root.remove() }
    let moofCut = root.path + "/2026-04-12T09-00-00_audio.m4a"
    #expect(try Self.ffprobeDuration(moofCut) == nil, "ffprobe cannot open a file cut inside its last moof")
    var before: [String: MP4Audio] = [:]
    for base in Self.torn {
      let audio = try MP4Audio.read(path: root.path + "/" + base + "_audio.m4a")
      #expect(audio.cutShort && audio.tailBytes > 0)
      before[base] = audio
    }
    let report = try sweep(root)
    #expect(report.exitCode == 0)
    #expect(report.captures.flatMap(\.events).filter { $0.action == .repaired }.count == 2)
    for base in Self.torn {
      let path = root.path + "/" + base + "_audio.m4a"
      let after = try MP4Audio.read(path: path)
      #expect(!after.cutShort && after.tailBytes == 0 && after.damaged == nil, "\(base)")
      #expect(after.samples.count == before[base]!.samples.count, "every whole sample kept: \(base)")
      #expect(after.durationSeconds == before[base]!.durationSeconds, "\(base)")
      // ffprobe reads it, and its duration is ours plus the 1024 priming samples ffmpeg's
      // fragmented files do not signal (FORMAT.md §2): the same samples, counted alike.
      let probed = try Self.ffprobeDuration(path)
      let ours = after.durationSeconds! + Double(after.primingSamples) / Double(after.timescale)
      #expect(
        probed.map { abs($0 - ours) < 0.001 } == true,
        "\(base): ffprobe \(String(describing: probed)), ours \(ours)")
      // Decoding the whole file gives no error either.
      let decode = try runProcess("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"])
      #expect(decode.status == 0 && decode.standardError.isEmpty, "\(base): \(decode.standardError)")
    }
    let repaired = try FolderTree(root)
    let again = try sweep(root)
    #expect(try FolderTree(root) == repaired)
    #expect(!again.captures.flatMap(\.events).contains { $0.action == .repaired })
  }

  @Test func everyCutInTheLastFragmentsRepairsToItsWholeSamples() throws {
    let intact = Array(
      try Data(contentsOf: Fixtures.folder("crash").appendingPathComponent("2026-04-01T09-00-00_audio.m4a")))
    let scratch = try ScratchFolder("stash-cut")
    defer { scratch.remove() }
    let whole = try MP4Audio.read(path: Fixtures.folder("crash").path + "/2026-04-01T09-00-00_audio.m4a")
    // Cuts across the last two fragments, a step of 13 bytes so every kind of place is hit.
    let start = whole.samples[whole.samples.count * 2 / 3].offset - 600
    for cut in stride(from: start, to: intact.count, by: 13) {
      let path = scratch.path + "/cut.m4a"
      try Data(intact[0..<cut]).write(to: URL(fileURLWithPath: path))
      let torn = try MP4Audio.read(path: path)
      guard let outcome = try TornTailRepair.repair(Array(intact[0..<cut]), samples: torn.samples) else {
        #expect(!torn.cutShort, "cut at \(cut) not repaired")
        continue
      }
      try Data(outcome.bytes).write(to: URL(fileURLWithPath: path))
      let repaired = try MP4Audio.read(path: path)
      #expect(!repaired.cutShort && repaired.damaged == nil, "cut at \(cut)")
      #expect(repaired.samples.count == torn.samples.count, "cut at \(cut)")
      #expect(
        zip(repaired.samples, torn.samples).allSatisfy {
          $0.size == $1.size && $0.decodeTime == $1.decodeTime
        })
      #expect(try TornTailRepair.repair(outcome.bytes, samples: repaired.samples) == nil)
    }
  }

  @Test func killedAtEveryStepOfARepairTheFileIsWholeOrUntouched() throws {
    let reference = try Self.tornFolder()
    defer { reference.remove() }
    let original = try FolderTree(reference)
    let counter = FaultyFileSystem()
    _ = try sweep(reference, fileSystem: counter)
    let expected = try FolderTree(reference)
    for stop in 1...counter.steps {
      let root = try Self.tornFolder()
      defer { root.remove() }
      _ = try? sweep(root, fileSystem: FaultyFileSystem(stopAt: stop))
      // Each file is its original or its repair, never anything between.
      for (path, bytes) in try FolderTree(root).entries where !path.hasPrefix(".") {
        #expect(bytes == original.entries[path] || bytes == expected.entries[path], "step \(stop): \(path)")
      }
      _ = try sweep(root)
      #expect(try FolderTree(root) == expected, "killed at step \(stop)")
    }
  }

  @Test func freshlyCopiedAudioIsLookedAtNotRewritten() throws {
    let root = try Self.tornFolder()
    defer { root.remove() }
    // A whole recording beside them, and all three just copied (modified now).
    let whole = "2026-04-01T09-00-00_audio.m4a"
    try FileManager.default.copyItem(
      at: Fixtures.folder("crash").appendingPathComponent(whole), to: root.appendingPathComponent(whole))
    let now = Date().timeIntervalSince1970
    for name in try FileManager.default.contentsOfDirectory(atPath: root.path) {
      try setModificationTime(root.path + "/" + name, now - 5)
    }
    let before = try FolderTree(root)
    let report = try Sweeper(
      fileSystem: SystemFileSystem(), assembler: FormatAssembler(), audioRepairer: MP4AudioRepairer()
    )
    .run(root.path, options: SweepOptions(now: now, repairAudio: true))
    #expect(try FolderTree(root) == before, "nothing rewritten while it may still be being written")
    let events = report.captures.flatMap(\.events)
    // Only the torn ones are reported, each by its own name (no parts folder exists).
    #expect(events.map(\.action) == [.skipped, .skipped])
    #expect(events.map(\.names) == Self.torn.map { [$0 + "_audio.m4a"] })
    #expect(events.allSatisfy { $0.needsPerson && $0.detail.contains("5 s ago") })
    // Once it is known to be complete, it is repaired.
    let later = try Sweeper(
      fileSystem: SystemFileSystem(), assembler: FormatAssembler(), audioRepairer: MP4AudioRepairer()
    )
    .run(root.path, options: SweepOptions(now: now, includeRecent: true, repairAudio: true))
    #expect(later.captures.flatMap(\.events).filter { $0.action == .repaired }.count == 2)
  }

  /// A repairer that notes whether two repairs were ever under way at once. Each repair waits a
  /// little for another to begin, so a sweep that lets them overlap is seen doing it.
  final class OverlapRepairer: AudioRepairer, @unchecked Sendable {
    private let state = Mutex((inside: 0, most: 0, calls: 0))
    var most: Int { state.withLock { $0.most } }
    var calls: Int { state.withLock { $0.calls } }

    func repair(_ name: String, in folder: String, dryRun: Bool, fileSystem: any FileSystem) throws
      -> AudioRepair
    {
      state.withLock {
        $0.inside += 1
        $0.calls += 1
        $0.most = max($0.most, $0.inside)
      }
      var waited = 0
      while state.withLock({ $0.most }) < 2 && waited < 100 {
        usleep(1000)
        waited += 1
      }
      state.withLock { $0.inside -= 1 }
      return AudioRepair(rewritten: false, bytesRemoved: 0, duration: 0, detail: "whole")
    }
  }

  @Test func audioIsRepairedOneFileAtATimeWhileCapturesRunAtOnce() throws {
    let root = try ScratchFolder("stash-gate")
    defer { root.remove() }
    for index in 0..<8 { try put("not read", "M\(index)_audio.m4a", in: root) }
    let repairer = OverlapRepairer()
    var sweeper = Sweeper(
      fileSystem: SystemFileSystem(), assembler: FormatAssembler(), audioRepairer: repairer)
    sweeper.workers = 4
    _ = try sweeper.run(
      root.path,
      options: SweepOptions(now: Date().timeIntervalSince1970, includeRecent: true, repairAudio: true))
    #expect(repairer.calls == 8)
    #expect(repairer.most == 1)
  }
}
