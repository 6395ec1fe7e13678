import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `Importer` over the crash fixture: whole memos, every file verified and with its time, nothing
/// overwritten, a rerun that changes nothing.
@Suite struct ImportTests {
  @Test func copiesEveryMemoWholeAndNothingElse() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    let sourceBefore = try ImportFolders.state(folders.source)
    let report = try folders.run()
    #expect(report.exitCode == 0, "\(report.textLines)")
    #expect(try ImportFolders.state(folders.target) == folders.expectedTarget())
    #expect(try ImportFolders.state(folders.source) == sourceBefore, "the source is never changed")
    #expect(report.memos.count == 13)
    #expect(report.memos.allSatisfy { $0.outcome == .copied })
    let skipped = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.name, $0.reason) })
    #expect(skipped["2026-05-01T10-00-00_transcription.vtt"]?.hasPrefix("an orphan") == true)
    #expect(skipped["MANIFEST.json"] == "not a name Stash writes")
    let withStranger = report.memos.first { $0.base == "2026-04-08T09-00-00" }
    #expect(withStranger?.detail.contains("shopping list.txt") == true, "\(withStranger?.detail ?? "")")
  }

  /// The engine refuses an overlap itself (the browser calls it too), whatever the caller checked.
  @Test func aTargetInsideASourceOrASourceInsideTheTargetIsRefused() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    let before = try ImportFolders.state(folders.source)
    let importer = Importer(fileSystem: SystemFileSystem())
    let options = ImportOptions(now: folders.now, settle: 0)
    try FileManager.default.createDirectory(
      at: folders.target.appendingPathComponent("phone"), withIntermediateDirectories: false)
    let cases: [(source: String, target: String, says: String)] = [
      (folders.source.path, folders.source.path + "/imported", "is inside the source"),
      (
        folders.source.path + "/../" + folders.source.lastPathComponent, folders.source.path + "/x/y",
        "is inside the source"
      ),
      (folders.target.path + "/phone", folders.target.path, "is inside the target"),
      (folders.source.path, folders.source.path + "/", "is both a source and the target"),
    ]
    for (source, target, says) in cases {
      do {
        _ = try importer.run([.init(folder: source)], into: target, options: options)
        Issue.record("\(source) into \(target) was not refused")
      } catch let error as RecoverError {
        #expect(error.code == .overlap)
        #expect(error.message.contains(says), "\(error.message)")
      }
    }
    #expect(try ImportFolders.state(folders.source) == before)
    #expect(!FileManager.default.fileExists(atPath: folders.source.path + "/imported"))
  }

  @Test func aSecondRunFindsEverythingHereAndChangesNothing() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    _ = try folders.run()
    let after = try ImportFolders.state(folders.target)
    let again = try folders.run()
    #expect(again.exitCode == 0)
    #expect(again.memos.allSatisfy { $0.outcome == .alreadyHere }, "\(again.textLines)")
    #expect(try ImportFolders.state(folders.target) == after)
  }

  @Test func theSameBaseWithOtherBytesIsAConflictAndNothingIsOverwritten() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    let base = "2026-04-11T09-00-00"
    try put(
      "WEBVTT\n\n00:00.000 --> 00:01.000\nsomething else\n", base + "_transcription.vtt", in: folders.target)
    let mine = try ImportFolders.state(folders.target)
    let report = try folders.run()
    let memo = report.memos.first { $0.base == base }
    #expect(memo?.outcome == .conflict, "\(memo?.detail ?? "")")
    #expect(memo?.detail.contains(base + "_transcription.vtt") == true)
    #expect(report.exitCode == 1)
    #expect(try ImportFolders.state(folders.target).filter { $0.key.hasPrefix(base) } == mine)
  }

  @Test func sameBytesAtAnotherTimeAreAlreadyHere() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    _ = try folders.run()
    let audio = folders.target.path + "/2026-04-10T09-00-00_audio.m4a"
    try setModificationTime(audio, 1_000_000)
    let report = try folders.run()
    #expect(report.memos.first { $0.base == "2026-04-10T09-00-00" }?.outcome == .alreadyHere)
  }

  @Test func aRerunFinishesAMemoPartlyHere() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    let base = "2026-04-05T09-00-00"
    // An earlier import that got as far as the parts and the transcript.
    _ = try folders.run()
    for kind in [MemoFileKind.audio, .route] {
      try FileManager.default.removeItem(at: folders.target.appendingPathComponent(kind.name(for: base)))
    }
    let report = try folders.run()
    #expect(report.memos.first { $0.base == base }?.outcome == .copied)
    #expect(try ImportFolders.state(folders.target) == folders.expectedTarget())
  }

  @Test func leftoverTemporariesOfAnInterruptedImportAreRemoved() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    try put("half", ".2026-04-01T09-00-00_audio.m4a.stash-tmp-abc123", in: folders.target)
    try put("half", "2026-04-01T09-00-00.parts/.track.0001.gpx.stash-tmp-XYZ789", in: folders.target)
    let report = try folders.run()
    #expect(
      report.temporariesRemoved.sorted() == [
        ".2026-04-01T09-00-00_audio.m4a.stash-tmp-abc123",
        "2026-04-01T09-00-00.parts/.track.0001.gpx.stash-tmp-XYZ789",
      ])
    #expect(try ImportFolders.state(folders.target) == folders.expectedTarget())
  }

  @Test func partsRecoveredHereAreNotCopiedAgain() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    _ = try folders.run()
    let sweeper = Sweeper(
      fileSystem: SystemFileSystem(), assembler: FormatAssembler(), audioRepairer: MP4AudioRepairer())
    _ = try sweeper.run(folders.target.path, options: SweepOptions(now: folders.now))
    let recovered = try ImportFolders.state(folders.target)
    #expect(recovered["2026-04-01T09-00-00.parts"] == nil, "the sweep assembled and removed the parts")
    let again = try folders.run()
    #expect(try ImportFolders.state(folders.target) == recovered, "\(again.textLines)")
    let diff = try ImportFolders.state(folders.target).filter { recovered[$0.key] != $0.value }
    #expect(diff.isEmpty, "\(diff)")
    #expect(again.memos.first { $0.base == "2026-04-01T09-00-00" }?.outcome == .alreadyHere)
  }

  @Test func aDryRunWritesNothing() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    try put("half", ".2026-04-01T09-00-00_audio.m4a.stash-tmp-abc123", in: folders.target)
    let before = try ImportFolders.state(folders.target)
    let report = try folders.run(dryRun: true)
    #expect(try ImportFolders.state(folders.target) == before)
    #expect(report.memos.filter { $0.outcome == .copied }.count == 13)
    #expect(report.memos.allSatisfy { $0.outcome != .copied || !$0.copied.isEmpty })
  }

  /// Two sources naming one base in one run: the second's memo is compared with what the first
  /// brought (already here when the bytes are the same, a conflict when not), never overwriting.
  @Test func aBaseTwoSourcesNameIsComparedWithWhatTheFirstBrought() throws {
    let folders = try ImportFolders()
    defer { folders.remove() }
    let second = try ScratchFolder("stash-import-second")
    defer { second.remove() }
    let same = MemoFileKind.audio.name(for: "2026-04-10T09-00-00")
    let other = MemoFileKind.audio.name(for: "2026-04-11T09-00-00")
    let new = MemoFileKind.audio.name(for: "2026-06-01T10-00-00")
    try FileManager.default.copyItem(
      at: folders.source.appendingPathComponent(same), to: second.appendingPathComponent(same))
    try put("other bytes", other, in: second)
    try put("a memo only the second source has", new, in: second)
    for name in [same, other, new] { try setModificationTime(second.path + "/" + name, 1_000_000) }
    let report = try Importer(fileSystem: SystemFileSystem()).run(
      [.init(folder: folders.source.path), .init(folder: second.path)], into: folders.target.path,
      options: ImportOptions(now: folders.now, settle: 0))
    let outcomes = Dictionary(
      uniqueKeysWithValues: report.memos.filter { $0.source == second.path }.map { ($0.base, $0.outcome) })
    #expect(
      outcomes == [
        "2026-04-10T09-00-00": .alreadyHere, "2026-04-11T09-00-00": .conflict, "2026-06-01T10-00-00": .copied,
      ])
    let target = try ImportFolders.state(folders.target)
    let source = try ImportFolders.state(folders.source)
    #expect(target[other] == source[other], "the first source's audio is kept")
    #expect(target[new] != nil)
  }

  @Test func theHashIsXXH64() {
    func hash(_ text: String, pieces: Int) -> UInt64 {
      var hash = ContentHash()
      let bytes = Array(text.utf8)
      var start = 0
      while start < bytes.count {
        let end = min(bytes.count, start + pieces)
        hash.update(Array(bytes[start..<end]))
        start = end
      }
      return hash.value
    }
    // Reference values of XXH64 with seed 0.
    #expect(hash("", pieces: 1) == 0xEF46_DB37_51D8_E999)
    #expect(hash("abc", pieces: 1) == 0x44BC_2CF5_AD77_0999)
    let long = String(repeating: "0123456789abcdef", count: 7) + "xyz"
    for pieces in [1, 5, 31, 32, 33, 1000] {
      #expect(hash(long, pieces: pieces) == hash(long, pieces: long.utf8.count))
    }
  }
}
