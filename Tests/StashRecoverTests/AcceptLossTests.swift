import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Testing

/// `--accept-loss` (FORMAT.md §6.6) on the crash fixture's torn capture, in process: what it
/// writes, and that a kill at any step leaves nothing lost and a rerun ends in the same folder.
@Suite struct AcceptLossTests {
  static let base = TornCapture.base
  static let now = Date().timeIntervalSince1970 + 10_000

  /// The torn capture (last transcript part cut inside its last cue, last route part mid-point)
  /// after a plain sweep: finished files published, parts kept beside them.
  static func keptFolder() throws -> ScratchFolder {
    let root = try TornCapture.make("stash-accept-loss")
    let report = try sweep(root)
    #expect(report.exitCode == 1)
    // Both kept losses can be accepted (the browser asks on this).
    #expect(report.lossesToAccept)
    #expect(report.captures.flatMap(\.events).filter(\.lossToAccept).count == 2)
    return root
  }

  static func sweep(
    _ root: ScratchFolder, fileSystem: any FileSystem = SystemFileSystem(), accept: Bool = false
  )
    throws -> SweepReport
  {
    var options = SweepOptions(now: now, includeRecent: true)
    options.acceptLoss = accept
    return try Sweeper(fileSystem: fileSystem, assembler: FormatAssembler()).run(root.path, options: options)
  }

  /// Every cue and point the parts can give is in a finished file, or its part is still there.
  static func nothingLost(_ root: ScratchFolder) throws -> Bool {
    let transcript = WebVTTParser.parse(
      Array(try Data(contentsOf: root.url.appendingPathComponent(base + "_transcription.vtt"))))
    let route = GPXReader.read(
      Array(try Data(contentsOf: root.url.appendingPathComponent(base + "_track.gpx"))))
    return transcript.cues.count == 6 && !transcript.diagnostics.contains { $0.severity == .error }
      && route.tracks.flatMap(\.segments).flatMap(\.points).count == 11 && !route.isDamaged
  }

  @Test func acceptingNotesTheTornTailAndRemovesOnlyTheParts() throws {
    let root = try Self.keptFolder()
    defer { root.remove() }
    let before = try FolderTree(root)
    let report = try Self.sweep(root, accept: true)
    #expect(report.exitCode == 0, "\(report.textLines)")
    #expect(!report.lossesToAccept, "accepted: nothing left to accept")
    let after = try FolderTree(root)
    #expect(
      after.paths == [Self.base + "_audio.m4a", Self.base + "_track.gpx", Self.base + "_transcription.vtt"])
    #expect(after.entries[Self.base + "_track.gpx"] == before.entries[Self.base + "_track.gpx"])
    let transcript = WebVTTParser.parse(Array(after.entries[Self.base + "_transcription.vtt"]!.utf8))
    // From the start of the cue the tear cut (11.131 s) to the audio's end (13.504 s).
    #expect(transcript.missingSpeech == [WebVTTTimeSpan(start: 11.131, end: 13.504)])
    #expect(transcript.cues.last?.text == "Home befo")
    #expect(try Self.sweep(root, accept: true).captures.isEmpty)
  }

  @Test func killedAtEveryStepARerunEndsInTheSameFolder() throws {
    let reference = try Self.keptFolder()
    defer { reference.remove() }
    let counter = FaultyFileSystem()
    _ = try Self.sweep(reference, fileSystem: counter, accept: true)
    let expected = try FolderTree(reference)
    let steps = counter.steps
    #expect(steps > 10)
    for stop in 1...steps {
      let root = try Self.keptFolder()
      defer { root.remove() }
      _ = try? Self.sweep(root, fileSystem: FaultyFileSystem(stopAt: stop), accept: true)
      #expect(try Self.nothingLost(root), "data lost when killed at step \(stop)")
      let rerun = try Self.sweep(root, accept: true)
      #expect(rerun.exitCode == 0, "killed at step \(stop): \(rerun.textLines)")
      #expect(try FolderTree(root) == expected, "killed at step \(stop)")
    }
  }
}
