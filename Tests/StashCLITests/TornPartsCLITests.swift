import Foundation
import StashTestSupport
import Testing

/// A capture whose last transcript and route parts the kill tore (the crash fixture's
/// `2026-04-03T09-00-00`, its last transcript part cut inside its last cue), through the program:
/// recover, rerun, show, lint, accept the loss, lint quiet (FORMAT.md §6.6).
@Suite struct TornPartsCLITests {
  let stash = Fixtures.product("stash").path
  static let base = TornCapture.base
  static let transcriptLoss =
    "the last transcript part (transcription.0003.vtt) ends mid-cue at 0:11: the transcript after that is lost"
  static let routeLoss = "the last route part (track.0003.gpx) ends mid-point at "

  /// The capture in a scratch folder, dated an hour ago, its last transcript part torn in the
  /// words of its last cue (`Home befo`).
  static func tornCapture() throws -> ScratchFolder {
    try TornCapture.make("stash-torn-parts", agedAnHour: true)
  }

  func parts(in root: ScratchFolder) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: root.path + "/" + Self.base + ".parts")) ?? [])
      .sorted()
  }

  @Test func recoverSaysWhatWasLostAndAcceptingItLeavesLintQuiet() throws {
    let root = try Self.tornCapture()
    defer { root.remove() }
    let allParts = [
      "track.0001.gpx", "track.0002.gpx", "track.0003.gpx", "transcription.0001.vtt",
      "transcription.0002.vtt",
      "transcription.0003.vtt",
    ]

    let first = try runProcess(stash, ["recover", root.path])
    #expect(first.status == 1, "\(first.standardOutput)")
    #expect(first.standardOutput.contains(Self.transcriptLoss), "\(first.standardOutput)")
    #expect(first.standardOutput.contains(Self.routeLoss))
    #expect(first.standardOutput.contains("--accept-loss"))
    #expect(parts(in: root) == allParts)
    let transcript = root.path + "/" + Self.base + "_transcription.vtt"
    let published = try String(contentsOfFile: transcript, encoding: .utf8)
    #expect(published.contains("Home befo\n"))
    #expect(!published.contains("missing-speech"))

    let again = try runProcess(stash, ["recover", root.path])
    #expect(again.status == 1)
    #expect(again.standardOutput.contains(Self.transcriptLoss), "\(again.standardOutput)")
    #expect(parts(in: root) == allParts)

    let show = try runProcess(stash, ["show", root.path + "/" + Self.base + "_audio.m4a"])
    #expect(show.status == 0, "\(show.standardError)")
    #expect(show.standardOutput.contains(Self.transcriptLoss), "\(show.standardOutput)")
    #expect(show.standardOutput.contains(Self.routeLoss))
    #expect(!show.standardOutput.contains("had gaps"))

    let lint = try runProcess(stash, ["lint", root.path])
    #expect(lint.standardOutput.contains("warning[folder-parts-beside-finished]"), "\(lint.standardOutput)")
    #expect(lint.standardOutput.contains(Self.transcriptLoss))
    #expect(lint.standardOutput.contains(Self.routeLoss))

    let dry = try runProcess(stash, ["recover", root.path, "--accept-loss", "--dry-run"])
    #expect(dry.status == 0, "\(dry.standardOutput)")
    #expect(dry.standardOutput.contains("would be removed: \(Self.base).parts/transcription.0001.vtt"))
    #expect(dry.standardOutput.contains("the loss would be accepted: " + Self.transcriptLoss))
    #expect(dry.standardOutput.contains("would note it as missing speech (0:11–0:13)"))
    #expect(!dry.standardOutput.contains("was accepted") && !dry.standardOutput.contains("now empty"))
    #expect(parts(in: root) == allParts)
    #expect(try String(contentsOfFile: transcript, encoding: .utf8) == published)

    let accept = try runProcess(stash, ["recover", root.path, "--accept-loss"])
    #expect(accept.status == 0, "\(accept.standardOutput)")
    #expect(accept.standardOutput.contains("the loss was accepted: " + Self.transcriptLoss))
    #expect(!FileManager.default.fileExists(atPath: root.path + "/" + Self.base + ".parts"))
    let noted = try String(contentsOfFile: transcript, encoding: .utf8)
    // From the torn cue's start to the end of the audio (13.504 s).
    #expect(noted.contains("NOTE stash missing-speech 00:00:11.131 00:00:13.504\n"), "\(noted)")
    #expect(
      noted.replacingOccurrences(of: "NOTE stash missing-speech 00:00:11.131 00:00:13.504\n\n", with: "")
        == published)

    let rerun = try runProcess(stash, ["recover", root.path])
    #expect(rerun.status == 0)
    #expect(rerun.standardOutput.hasPrefix("Nothing to recover"), "\(rerun.standardOutput)")
    let quiet = try runProcess(stash, ["lint", root.path])
    #expect(quiet.status == 0)
    #expect(quiet.standardOutput.contains("No problems found."), "\(quiet.standardOutput)")
  }

  @Test func acceptingRefusesWhenTheFinishedFileLacksWhatThePartsGive() throws {
    let root = try Self.tornCapture()
    defer { root.remove() }
    _ = try runProcess(stash, ["recover", root.path])
    // Somebody removed the torn cue from the finished transcript: the parts still hold it.
    let transcript = root.path + "/" + Self.base + "_transcription.vtt"
    let text = try String(contentsOfFile: transcript, encoding: .utf8)
    let cut = text.components(separatedBy: "\n\n").filter { !$0.contains("Home befo") }.joined(
      separator: "\n\n")
    try cut.write(toFile: transcript, atomically: true, encoding: .utf8)
    let accept = try runProcess(stash, ["recover", root.path, "--accept-loss"])
    #expect(accept.status == 1, "\(accept.standardOutput)")
    #expect(accept.standardOutput.contains("the loss is not accepted"))
    #expect(parts(in: root).contains("transcription.0003.vtt"))
    #expect(try String(contentsOfFile: transcript, encoding: .utf8) == cut)
  }

  @Test func lintGivenAPartsFolderLintsItsMemoNotItsPartsAsStrangers() throws {
    let root = try Self.tornCapture()
    defer { root.remove() }
    // A second memo in the same folder, whose findings are not this parts folder's.
    let other = "2026-04-02T09-00-00"
    let source = Fixtures.folder("crash")
    for name in [other + "_audio.m4a", other + ".parts"] {
      try FileManager.default.copyItem(
        at: source.appendingPathComponent(name), to: root.appendingPathComponent(name))
    }
    let parts = root.path + "/" + Self.base + ".parts"
    let lint = try runProcess(stash, ["lint", parts])
    #expect(lint.status == 0, "\(lint.standardError)")
    #expect(!lint.standardOutput.contains("folder-unrecognised"), "\(lint.standardOutput)")
    #expect(
      lint.standardOutput.contains(parts + ": warning[folder-needs-recovery]"), "\(lint.standardOutput)")
    #expect(!lint.standardOutput.contains(other))
    #expect(lint.standardError.contains("is the parts folder of the memo \(Self.base)"))
  }
}
