import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Testing

/// `--move`: only what is verified in the target leaves the source, only names the format defines.
@Suite struct ImportMoveTests {
  @Test func movesEveryMemoWhoseFilesAreAllHereAndKeepsOnesWithStrangers() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    let before = try ImportFolders.state(folders.source)
    let expected = try folders.expectedTarget()
    // The plan says what the run then does, memo for memo, its exit code too (it once planned
    // "would copy" with no word of a memo it then kept on the source, and exit 0).
    let plan = try folders.run(move: true, dryRun: true)
    let report = try folders.run(move: true)
    for memo in report.memos {
      let planned = plan.memos.first { $0.base == memo.base }
      #expect(planned?.moved == memo.moved && planned?.keptOnSource == memo.keptOnSource, "\(memo.base)")
      #expect(
        planned?.detail.contains("would be kept on the source") == memo.detail.contains("kept on the source"),
        "\(memo.base): \(planned?.detail ?? "") / \(memo.detail)")
    }
    #expect(plan.exitCode == report.exitCode)
    #expect(try ImportFolders.state(folders.target) == expected)
    let left = try ImportFolders.state(folders.source)
    // A parts folder with a stranger's file keeps its memo on the source, whole, and so does a
    // route withdrawal the phone has not finished (its route is not copied).
    let kept = ["2026-04-06T09-00-00", "2026-04-07T09-00-00", "2026-04-08T09-00-00", "2026-04-09T09-00-00"]
    for base in kept {
      #expect(left.filter { $0.key.hasPrefix(base) } == before.filter { $0.key.hasPrefix(base) }, "\(base)")
      let memo = report.memos.first { $0.base == base }
      #expect(memo?.moved == false)
      #expect(memo?.keptOnSource == true)
      #expect(memo?.detail.contains("kept on the source") == true, "\(memo?.detail ?? "")")
    }
    let others = left.keys.filter { path in !kept.contains { path.hasPrefix($0) } }.sorted()
    #expect(others == ["2026-05-01T10-00-00_transcription.vtt", "MANIFEST.json"], "names of no memo stay")
    #expect(report.memos.filter(\.moved).count == 9)
    #expect(report.exitCode == 1, "a memo kept on the source needs a person")
  }

  @Test func aMemoAlreadyHereIsRemovedFromTheSourceOnlyWhenItsBytesMatch() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    _ = try folders.run()
    try put("WEBVTT\n\nchanged here\n", "2026-04-11T09-00-00_transcription.vtt", in: folders.target)
    let report = try folders.run(move: true)
    #expect(report.memos.first { $0.base == "2026-04-11T09-00-00" }?.outcome == .conflict)
    #expect(FileManager.default.fileExists(atPath: folders.source.path + "/2026-04-11T09-00-00_audio.m4a"))
    #expect(report.memos.first { $0.base == "2026-04-12T09-00-00" }?.moved == true)
    #expect(!FileManager.default.fileExists(atPath: folders.source.path + "/2026-04-12T09-00-00_audio.m4a"))
  }
}
