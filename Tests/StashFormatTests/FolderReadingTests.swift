import Foundation
import StashFormat
import Testing

@Suite struct FolderReadingTests {
  func memo(_ folder: MemoFolder, _ base: String) -> Memo? {
    folder.memos.first { $0.base.utf8.elementsEqual(base.utf8) }
  }

  func role(_ folder: MemoFolder, _ name: String) -> FolderEntry.Role? {
    folder.others.first { $0.name.utf8.elementsEqual(name.utf8) }?.role
  }

  @Test func groupsClassifiesAndSortsNewestFirst() throws {
    let scratch = try FolderScratch()
    defer { scratch.remove() }
    let full = "2026-03-14T08-05-12Z"
    try scratch.write(full + "_audio.m4a")
    try scratch.write(full + "_transcription.vtt", "WEBVTT\n")
    try scratch.write(full + "_track.gpx", "<gpx/>")
    try scratch.write(full + "_title.txt", "  Walk to the station\n")
    try scratch.write("20250101_120000_audio.m4a")
    try scratch.write("plain_audio.m4a")
    try scratch.touch("plain_audio.m4a", modified: Date(timeIntervalSince1970: 1_700_000_000))
    try scratch.write("lonely_transcription.vtt", "WEBVTT\n")
    try scratch.write("lonely_title.txt", "Lonely")
    try scratch.write("plain_Audio.m4a")
    try scratch.write("other_transcript.vtt", "WEBVTT\n")
    try scratch.write("notes.txt", "hello")
    try scratch.write(".DS_Store", "")
    try scratch.folder("cap.parts")
    try scratch.write("cap.parts/transcription.0001.vtt", "WEBVTT\n")
    try scratch.write("cap_title.txt", "Killed")
    scratch.write(rawName: [0x62, 0x61, 0x64, 0xFF] + Array("_audio.m4a".utf8), [1, 2, 3])

    let folder = try MemoFolder.read(path: scratch.path)
    #expect(
      folder.memos.map(\.base)
        == [full, "20250101_120000", "plain", "cap"].sorted { a, b in
          folder.memos.first { $0.base == a }!.recordedAt > folder.memos.first { $0.base == b }!.recordedAt
        })
    let walk = try #require(memo(folder, full))
    #expect(
      walk.files == [
        .audio: full + "_audio.m4a", .transcript: full + "_transcription.vtt", .route: full + "_track.gpx",
        .title: full + "_title.txt",
      ])
    #expect(walk.recordedAt == 1_773_475_512)
    #expect(walk.dateSource == .base)
    #expect(walk.displayName == "Walk to the station")
    #expect(walk.titleText == "Walk to the station")
    #expect(walk.hasTranscript && walk.hasRoute && walk.hasAudio && !walk.needsRecovery)

    let dated = try #require(memo(folder, "20250101_120000"))
    #expect(dated.title == nil)
    #expect(dated.displayName == "2025-01-01 12:00")
    #expect(dated.dateSource == .base)

    let plain = try #require(memo(folder, "plain"))
    #expect(plain.dateSource == .mtime)
    #expect(plain.recordedAt == 1_700_000_000)

    let capture = try #require(memo(folder, "cap"))
    #expect(!capture.hasAudio)
    #expect(capture.audio == nil)
    #expect(capture.needsRecovery)
    #expect(capture.partsToAssemble == [.transcript])
    #expect(capture.displayName == "Killed")
    #expect(capture.problems.map(\.code) == [.folderCaptureWithoutAudio, .folderNeedsRecovery])

    #expect(role(folder, "lonely_transcription.vtt") == .orphan(base: "lonely", kind: .transcript))
    #expect(role(folder, "lonely_title.txt") == .orphan(base: "lonely", kind: .title))
    guard case .nearMiss(let intended, _, let exists)? = role(folder, "plain_Audio.m4a") else {
      Issue.record("plain_Audio.m4a is not a near miss")
      return
    }
    #expect(intended == "plain_audio.m4a")
    #expect(exists)
    guard case .nearMiss("other_transcription.vtt", _, false)? = role(folder, "other_transcript.vtt") else {
      Issue.record("other_transcript.vtt is not a near miss to other_transcription.vtt")
      return
    }
    #expect(role(folder, "notes.txt") == .unrecognised(reason: nil))
    #expect(role(folder, ".DS_Store") == .hidden)
    #expect(role(folder, #"bad\xff_audio.m4a"#) == .unrecognised(reason: "the name is not valid UTF-8"))
    #expect(folder.others.count == 7)
    #expect(folder.collisions.isEmpty)
    // Every non-hidden other has a finding with a folder- code.
    #expect(folder.others.compactMap(\.diagnostic).allSatisfy { $0.code.rawValue.hasPrefix("folder-") })
    #expect(folder.others.compactMap(\.diagnostic).count == 6)

    let summary = folder.summary
    #expect(summary.memoCount == 3)
    #expect(summary.captureCount == 1)
    #expect(summary.needingRecovery == 1)
    #expect(summary.otherFiles == 6)
    #expect(summary.collisions == 0)
    #expect(summary.unknownLengthCount == 0)
    #expect(abs(summary.totalSeconds - 3 * (walk.durationSeconds ?? 0)) < 1e-9)
    // The findings name their files: the capture's, and each other name but the hidden one.
    let findings = folder.findings
    #expect(
      findings.filter { $0.file == "cap.parts" }.map(\.code) == [
        .folderCaptureWithoutAudio, .folderNeedsRecovery,
      ])
    #expect(findings.contains { $0.file == "plain_Audio.m4a" && $0.code == .folderNearMiss })
    #expect(!findings.contains { $0.file == ".DS_Store" })
  }

  /// A name whose correction would be hidden is linted as unrecognised (info), not as a near miss
  /// with a rename that would hide the memo.
  @Test func aNameThatWouldBeHiddenIsUnrecognised() throws {
    let scratch = try FolderScratch()
    defer { scratch.remove() }
    try scratch.write(" .memo_audio.m4a", "x")
    try scratch.write(" memo_Audio.m4a", "x")
    let folder = try MemoFolder.read(path: scratch.path)
    #expect(role(folder, " .memo_audio.m4a") == .unrecognised(reason: nil))
    let codes = Dictionary(folder.findings.map { ($0.file, $0.code) }, uniquingKeysWith: { a, _ in a })
    #expect(codes[" .memo_audio.m4a"] == .folderUnrecognised)
    #expect(codes[" memo_Audio.m4a"] == .folderNearMiss)
  }

  @Test func clockText() {
    #expect(TimeText.clock(0, hours: true) == "0:00:00")
    #expect(TimeText.clock(59.999, hours: true) == "0:00:59")
    #expect(TimeText.clock(3725, hours: true) == "1:02:05")
    #expect(TimeText.clock(36_000, hours: true) == "10:00:00")
  }

  @Test func partsStates() throws {
    let scratch = try FolderScratch()
    defer { scratch.remove() }
    func memoWith(_ base: String, parts: [String], finished: [String] = []) throws {
      try scratch.write(base + "_audio.m4a")
      try scratch.folder(base + ".parts")
      for part in parts { try scratch.write(base + ".parts/" + part, "x") }
      for suffix in finished { try scratch.write(base + suffix, "x") }
    }
    try memoWith("killed", parts: ["transcription.0001.vtt", "transcription.0002.vtt", "track.0001.gpx"])
    try memoWith("gaps", parts: ["transcription.0003.vtt"], finished: ["_transcription.vtt"])
    try memoWith("empty", parts: [])
    try memoWith("stranger", parts: ["notes.txt"])
    try memoWith("withdrawn", parts: ["track.withdrawn", "track.0001.gpx"])
    try memoWith(
      "mixed", parts: ["track.0002.gpx", "photo.jpg", "transcription.12.vtt"], finished: ["_track.gpx"])
    try scratch.write("fileparts_audio.m4a")
    try scratch.write("fileparts.parts", "not a folder")

    let folder = try MemoFolder.read(path: scratch.path)
    let killed = try #require(memo(folder, "killed"))
    #expect(killed.parts?.transcriptParts == [1, 2])
    #expect(killed.parts?.routeParts == [1])
    #expect(killed.partsToAssemble == [.transcript, .route])
    #expect(killed.needsRecovery)
    #expect(killed.problems.map(\.code).contains(.folderNeedsRecovery))

    let gaps = try #require(memo(folder, "gaps"))
    #expect(gaps.partsToAssemble.isEmpty)
    #expect(gaps.partsBesideFinished == [.transcript])
    #expect(!gaps.needsRecovery)
    #expect(gaps.problems.map(\.code).contains(.folderPartsBesideFinished))

    let empty = try #require(memo(folder, "empty"))
    #expect(empty.parts?.isEmpty == true)
    #expect(!empty.needsRecovery)
    #expect(empty.problems.contains { $0.code == .folderPartsEmpty && $0.severity == .info })

    let stranger = try #require(memo(folder, "stranger"))
    #expect(stranger.parts?.holdsOnlyStrangers == true)
    #expect(stranger.parts?.strangers == ["notes.txt"])
    #expect(!stranger.needsRecovery)
    #expect(stranger.problems.contains { $0.code == .folderPartsStrangers && $0.severity == .info })

    let withdrawn = try #require(memo(folder, "withdrawn"))
    #expect(withdrawn.parts?.routeWithdrawn == true)
    #expect(withdrawn.partsToAssemble.isEmpty)
    #expect(withdrawn.needsRecovery)
    #expect(withdrawn.problems.map(\.code).contains(.folderRouteWithdrawn))

    let mixed = try #require(memo(folder, "mixed"))
    // Part numbers have at least four digits; `transcription.12.vtt` is a stranger's file.
    #expect(mixed.parts?.strangers == ["photo.jpg", "transcription.12.vtt"])
    #expect(mixed.partsBesideFinished == [.route])
    #expect(!mixed.needsRecovery)

    let fileParts = try #require(memo(folder, "fileparts"))
    #expect(fileParts.parts == nil)
    #expect(fileParts.files[.parts] == nil)
    guard case .unrecognised(let reason?)? = role(folder, "fileparts.parts") else {
      Issue.record("a file named .parts is not reported")
      return
    }
    #expect(reason.contains("a file"))
  }

  @Test func caseAndNormalisationCollisionsAreFoundAndNotMerged() throws {
    let scratch = try FolderScratch()
    defer { scratch.remove() }
    try scratch.write("Memo_audio.m4a")
    try scratch.write("memo_title.txt", "lower")
    let composed = "Caf\u{E9}"
    let decomposed = "Cafe\u{301}"
    scratch.write(rawName: Array((composed + "_audio.m4a").utf8), Array(FolderScratch.audio))
    scratch.write(rawName: Array((decomposed + "_audio.m4a").utf8), Array(FolderScratch.audio))
    let folder = try MemoFolder.read(path: scratch.path)
    // The two spellings of Café are two memos here (their bytes differ), and a collision.
    #expect(folder.memos.filter { $0.base == composed }.count == 2)
    #expect(folder.collisions.count == 2)
    #expect(folder.collisions.contains { $0.bases == ["Memo", "memo"] })
    #expect(
      folder.collisions.contains {
        Set($0.bases.map { Array($0.utf8) }) == [Array(composed.utf8), Array(decomposed.utf8)]
      })
    #expect(folder.collisions.allSatisfy { $0.diagnostic.code == .folderNameCollision })
    // `memo_title.txt` has no audio of its own: its base differs from `Memo` on this file system.
    #expect(role(folder, "memo_title.txt") == .orphan(base: "memo", kind: .title))
  }

  @Test func namesThatAreNotFilesAreNeverOpened() throws {
    let scratch = try FolderScratch()
    defer { scratch.remove() }
    #expect(mkfifo(scratch.path + "/pipe_audio.m4a", 0o644) == 0)
    try scratch.write("titled_audio.m4a")
    #expect(mkfifo(scratch.path + "/titled_title.txt", 0o644) == 0)
    try FileManager.default.createSymbolicLink(
      atPath: scratch.path + "/dangling_audio.m4a", withDestinationPath: "nowhere")
    let real = try scratch.write("target.bin")
    try FileManager.default.createSymbolicLink(
      atPath: scratch.path + "/linked_audio.m4a", withDestinationPath: real.path)
    try scratch.folder("dir_audio.m4a")
    let loop = scratch.path + "/loop_title.txt"
    try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop_title.txt")
    try scratch.write("loop_audio.m4a")

    let folder = try MemoFolder.read(path: scratch.path)
    for base in ["pipe", "dangling", "dir"] {
      let m = try #require(memo(folder, base))
      #expect(m.problems.map(\.code) == [.folderNotAFile], "\(base)")
      #expect(m.problems.allSatisfy { $0.severity == .error })
      guard case .damaged? = m.audio?.state else {
        Issue.record("\(base): audio that is not a file must read as damaged")
        continue
      }
    }
    #expect(memo(folder, "pipe")?.problems.first?.message.contains("FIFO") == true)
    // A dangling link still has a date: its own modification time.
    #expect((memo(folder, "dangling")?.recordedAt ?? 0) > 1_000_000_000)
    let titled = try #require(memo(folder, "titled"))
    #expect(titled.problems.contains { $0.code == .folderNotAFile && $0.file == "titled_title.txt" })
    // A title that is not a file gives no name; the base, not a date, is the person's own (§1.4).
    #expect(titled.displayName == "titled")
    let linked = try #require(memo(folder, "linked"))
    #expect(!linked.problems.contains { $0.code == .folderNotAFile })
    let looped = try #require(memo(folder, "loop"))
    #expect(looped.problems.contains { $0.code == .folderNotAFile || $0.code == .titleUnreadable })
  }

  @Test func aSecondReadSeesWhatChanged() throws {
    let scratch = try FolderScratch()
    defer { scratch.remove() }
    try scratch.write("2026-01-01T10-00-00Z_audio.m4a")
    try scratch.write("2026-01-02T10-00-00Z_audio.m4a")
    try scratch.write("2026-01-02T10-00-00Z_title.txt", "Before")
    let first = try MemoFolder.read(path: scratch.path)
    #expect(first.memos.map(\.displayName).first == "Before")
    #expect(first.memos.count == 2)

    try FileManager.default.removeItem(atPath: scratch.path + "/2026-01-01T10-00-00Z_audio.m4a")
    try scratch.write("2026-01-03T10-00-00Z_audio.m4a")
    try scratch.write("2026-01-02T10-00-00Z_title.txt", "After")
    try scratch.write("2026-01-02T10-00-00Z_transcription.vtt", "WEBVTT\n")
    let second = try MemoFolder.read(path: scratch.path)
    #expect(second.memos.map(\.base) == ["2026-01-03T10-00-00Z", "2026-01-02T10-00-00Z"])
    #expect(second.memos[1].displayName == "After")
    #expect(second.memos[1].hasTranscript)
    #expect(!first.memos[0].hasTranscript)
  }

  @Test func readingChangesNothing() throws {
    let scratch = try FolderScratch()
    defer { scratch.remove() }
    try scratch.write("a_audio.m4a")
    try scratch.folder("a.parts")
    try scratch.write("a.parts/transcription.0001.vtt", "WEBVTT\n")
    try scratch.folder("b.parts")
    func snapshot() throws -> [String: Date] {
      var out: [String: Date] = [:]
      for name in try FileManager.default.subpathsOfDirectory(atPath: scratch.path) {
        out[name] =
          try FileManager.default.attributesOfItem(atPath: scratch.path + "/" + name)[.modificationDate]
          as? Date
      }
      return out
    }
    let before = try snapshot()
    _ = try MemoFolder.read(path: scratch.path)
    #expect(try snapshot() == before)
  }

  @Test func anUnreadableFolderThrowsWithPathAndReason() throws {
    do {
      _ = try MemoFolder.read(path: "/nonexistent/stash-memos")
      Issue.record("reading a missing folder did not throw")
    } catch {
      #expect(error.code == .folderUnreadable)
      #expect(error.path == "/nonexistent/stash-memos")
      #expect(error.message.contains("No such file or directory"))
    }
    let scratch = try FolderScratch()
    defer { scratch.remove() }
    let file = try scratch.write("a_audio.m4a")
    #expect(throws: FormatError.self) { try MemoFolder.read(path: file.path) }
  }

  @Test func tiesAreBrokenByBase() throws {
    let scratch = try FolderScratch()
    defer { scratch.remove() }
    for base in ["b", "a", "c"] { try scratch.write("2026-01-01T10-00-00Z \(base)_audio.m4a") }
    let folder = try MemoFolder.read(path: scratch.path)
    #expect(folder.memos.map(\.base) == ["a", "b", "c"].map { "2026-01-01T10-00-00Z \($0)" })
  }
}
