import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Faults through the seam: a kill at every step, ENOSPC and EIO from the target at every step,
/// EIO from the source in the middle of a file. Each converges on a rerun to what an uninterrupted
/// import gives, and the source is never changed without `--move`.
@Suite struct ImportFaultTests {
  /// Three memos of the crash fixture (parts, parts beside a finished file, audio and transcript
  /// with an empty parts folder) and a stranger's file, fsync off: a simulated kill is a process
  /// dying, not a power cut, and the runs stay quick.
  struct Small {
    let folders: ImportFolders
    let expected: [String: String]
    let sourceBefore: [String: String]

    init() throws {
      folders = try ImportFolders()
      for name in try FileManager.default.contentsOfDirectory(atPath: folders.source.path)
      where !(name.hasPrefix("2026-04-01") || name.hasPrefix("2026-04-05") || name.hasPrefix("2026-04-10")) {
        try FileManager.default.removeItem(at: folders.source.appendingPathComponent(name))
      }
      try put("someone's", "notes.txt", in: folders.source)
      expected = try folders.expectedTarget()
      sourceBefore = try ImportFolders.state(folders.source)
    }

    func emptyTarget() throws {
      try FileManager.default.removeItem(at: folders.target)
      try FileManager.default.createDirectory(at: folders.target, withIntermediateDirectories: false)
    }

    var quiet: SystemFileSystem { SystemFileSystem(synchronizes: false) }
  }

  @Test func aKillAtEveryStepConvergesOnARerun() throws {
    let small = try Small()
    defer { small.folders.remove() }
    var step = 1
    var interrupted = 0
    while true {
      try small.emptyTarget()
      let faulty = FaultyFileSystem(base: small.quiet, stopAt: step)
      let finished = (try? small.folders.run(fileSystem: faulty, pieceSize: 16_384)).map { _ in
        faulty.steps < step
      }
      #expect(try ImportFolders.state(small.folders.source) == small.sourceBefore, "step \(step)")
      let rerun = try small.folders.run(fileSystem: small.quiet)
      #expect(rerun.exitCode == 0, "step \(step): \(rerun.textLines)")
      #expect(try ImportFolders.state(small.folders.target) == small.expected, "step \(step)")
      if finished == true { break }
      interrupted += 1
      step += 1
    }
    #expect(interrupted > 100, "the import has many steps, and each was a kill point")
  }

  @Test(arguments: [EIO, ENOSPC])
  func aFailureAtEveryStepLeavesNoTemporaryAndConvergesOnARerun(_ number: Int32) throws {
    let small = try Small()
    defer { small.folders.remove() }
    var step = 1
    while true {
      try small.emptyTarget()
      let faulty = FaultyFileSystem(base: small.quiet, failAt: step, failure: number)
      let report = try? small.folders.run(fileSystem: faulty, pieceSize: 16_384)
      if faulty.steps < step { break }
      #expect(try ImportFolders.state(small.folders.source) == small.sourceBefore, "step \(step)")
      let leftovers = try FolderTree(small.folders.target).paths.filter { $0.contains(".stash-tmp-") }
      // Only a failed clean-up (the unlink of the temporary itself) may leave one, for the rerun.
      if !faulty.calls[step - 1].hasPrefix("unlink ") {
        #expect(leftovers.isEmpty, "step \(step) (\(faulty.calls[step - 1])): \(leftovers)")
      }
      if let report, faulty.calls[step - 1].hasPrefix("writePiece ") {
        #expect(
          report.memos.contains {
            $0.outcome == .failed && $0.detail.contains(String(cString: strerror(number)))
          })
      }
      let rerun = try small.folders.run(fileSystem: small.quiet)
      #expect(rerun.exitCode == 0, "step \(step): \(rerun.textLines)")
      #expect(try ImportFolders.state(small.folders.target) == small.expected, "step \(step)")
      step += 1
    }
    #expect(step > 100)
  }

  @Test func anUnpluggedSourceMidFileFailsThatMemoAndARerunFinishesIt() throws {
    let small = try Small()
    defer { small.folders.remove() }
    let audio = small.folders.source.path + "/2026-04-01T09-00-00_audio.m4a"
    // Find the step of the second piece read from the audio: mid-file, as FUSE gives EIO when the
    // phone is unplugged.
    let counting = FaultyFileSystem(base: small.quiet)
    _ = try small.folders.run(fileSystem: counting, pieceSize: 16_384)
    let reads = counting.calls.indices.filter { counting.calls[$0] == "read " + audio }
    #expect(reads.count >= 3, "the audio is read in several pieces")
    try small.emptyTarget()
    let faulty = FaultyFileSystem(base: small.quiet, failAt: reads[1] + 1, failure: EIO)
    let report = try small.folders.run(fileSystem: faulty, pieceSize: 16_384)
    let memo = report.memos.first { $0.base == "2026-04-01T09-00-00" }
    #expect(memo?.outcome == .failed)
    #expect(memo?.detail.contains("Input/output error") == true, "\(memo?.detail ?? "")")
    #expect(memo?.detail.contains(audio) == true, "the error names the source file")
    #expect(report.exitCode == 2)
    #expect(try FolderTree(small.folders.target).paths.allSatisfy { !$0.contains(".stash-tmp-") })
    #expect(
      !FileManager.default.fileExists(atPath: small.folders.target.path + "/2026-04-01T09-00-00_audio.m4a"))
    #expect(report.memos.filter { $0.outcome == .copied }.count == 2, "the other memos come in")
    _ = try small.folders.run(fileSystem: small.quiet)
    #expect(try ImportFolders.state(small.folders.target) == small.expected)
  }

  @Test func aKillAtEveryStepOfAMoveConvergesAndLosesNothing() throws {
    let small = try Small()
    let scratch = try ScratchFolder("stash-import-pristine")
    let pristine = scratch.appendingPathComponent("source")
    defer {
      small.folders.remove()
      scratch.remove()
    }
    #expect(try runProcess("cp", ["-a", small.folders.source.path, pristine.path]).status == 0)
    var step = 1
    while true {
      try small.emptyTarget()
      // The same source each time, times and all.
      try FileManager.default.removeItem(at: small.folders.source)
      let copied = try runProcess("cp", ["-a", pristine.path, small.folders.source.path])
      #expect(copied.status == 0, "\(copied.standardError)")
      let faulty = FaultyFileSystem(base: small.quiet, stopAt: step)
      _ = try? small.folders.run(fileSystem: faulty, move: true, pieceSize: 16_384)
      let done = faulty.steps < step
      // Whatever the kill left, every file is in one place or the other, whole.
      let union = try ImportFolders.state(small.folders.target).merging(
        try ImportFolders.state(small.folders.source), uniquingKeysWith: { target, _ in target })
      for (path, state) in small.sourceBefore where !path.hasSuffix(".parts") {
        #expect(union[path] == state, "step \(step): \(path)")
      }
      _ = try small.folders.run(fileSystem: small.quiet, move: true)
      #expect(try ImportFolders.state(small.folders.target) == small.expected, "step \(step)")
      #expect(try FolderTree(small.folders.source).paths == ["notes.txt"], "step \(step)")
      if done { break }
      step += 1
    }
  }
}
