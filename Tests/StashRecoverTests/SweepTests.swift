import Foundation
import StashRecover
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The sweep's rules on a real disk, with `LineAssembler` standing in for the formats.
@Suite struct SweepTests {
  /// "Now" for these folders: every file is older than the recent window except capture H's.
  static let now = Date().timeIntervalSince1970 + 10_000

  /// A memo folder with one capture per rule.
  static func makeFolder() throws -> ScratchFolder {
    let root = try ScratchFolder("stash-sweep")
    try put("audio", "A_audio.m4a", in: root)
    try put("a1\na2", "A.parts/transcription.0001.vtt", in: root)
    try put("a3", "A.parts/transcription.0002.vtt", in: root)
    try put("p1", "A.parts/track.0001.gpx", in: root)
    try put("p2", "A.parts/track.0002.gpx", in: root)
    try put("b1", "B.parts/transcription.0001.vtt", in: root)
    try put("b3", "B.parts/transcription.0003.vtt", in: root)
    try put("q1", "B.parts/track.0001.gpx", in: root)
    try put("", "C.parts/track.withdrawn", in: root)
    try put("r2", "C.parts/track.0002.gpx", in: root)
    try put("old route", "C_track.gpx", in: root)
    try put("c1", "C.parts/transcription.0001.vtt", in: root)
    try put("mine", "D.parts/notes.txt", in: root)
    try put("d1", "D.parts/transcription.0001.vtt", in: root)
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("E.parts"), withIntermediateDirectories: true)
    try put("f1\nGAP 2\nf3\n", "F_transcription.vtt", in: root)
    try put("f1", "F.parts/transcription.0001.vtt", in: root)
    try put("f3", "F.parts/transcription.0003.vtt", in: root)
    try put("half", ".G_title.txt.stash-tmp-abc123", in: root)
    try put("someone's", ".notes.txt.stash-tmp-abc123", in: root)
    try put("h1", "H.parts/transcription.0001.vtt", in: root)
    try put("g1", "G.parts/transcription.0001.vtt", in: root)
    try put("g2", "G.parts/transcription.0002.vtt", in: root)
    try put("G1\nG2\n", "G_transcription.vtt", in: root)
    try setModificationTime(root.appendingPathComponent("H.parts/transcription.0001.vtt").path, now - 5)
    return root
  }

  static let expectedAfterSweep: [String: String] = [
    "A_audio.m4a": "audio", "A_transcription.vtt": "a1\na2\na3\n", "A_track.gpx": "p1\np2\n",
    "B_transcription.vtt": "b1\nGAP 2\nb3\n", "B_track.gpx": "q1\n", "B.parts": "<dir>",
    "B.parts/transcription.0001.vtt": "b1", "B.parts/transcription.0003.vtt": "b3",
    "C_transcription.vtt": "c1\n",
    "D_transcription.vtt": "d1\n", "D.parts": "<dir>", "D.parts/notes.txt": "mine",
    "F_transcription.vtt": "f1\nGAP 2\nf3\n", "F.parts": "<dir>", "F.parts/transcription.0001.vtt": "f1",
    "F.parts/transcription.0003.vtt": "f3",
    ".notes.txt.stash-tmp-abc123": "someone's",
    "H.parts": "<dir>", "H.parts/transcription.0001.vtt": "h1",
    "G.parts": "<dir>", "G.parts/transcription.0001.vtt": "g1", "G.parts/transcription.0002.vtt": "g2",
    "G_transcription.vtt": "G1\nG2\n",
  ]

  func sweep(
    _ root: ScratchFolder, fileSystem: any FileSystem = SystemFileSystem(), consent: Bool = true,
    dryRun: Bool = false
  )
    throws -> SweepReport
  {
    try Sweeper(fileSystem: fileSystem, assembler: LineAssembler())
      .run(root.path, options: SweepOptions(now: Self.now), dryRun: dryRun, routeConsent: { consent })
  }

  @Test func sweepLeavesTheFolderTheRulesDescribe() throws {
    let root = try Self.makeFolder()
    defer { root.remove() }
    let report = try sweep(root)
    #expect(try FolderTree(root).entries == Self.expectedAfterSweep)
    #expect(report.temporariesRemoved == [".G_title.txt.stash-tmp-abc123"])
    #expect(report.exitCode == 1)
    func events(_ base: String) -> [SweepReport.Event] {
      report.captures.first { $0.base == base }?.events ?? []
    }
    #expect(events("A").map(\.action) == [.published, .removed, .published, .removed, .removed])
    #expect(events("A").allSatisfy { !$0.needsPerson })
    #expect(
      events("B").contains {
        $0.action == .kept && $0.needsPerson && $0.detail.contains("transcription.0002.vtt")
      })
    #expect(events("B").first?.assembly?.gaps == [Gap(start: 60, end: 120, parts: [2])])
    #expect(events("C").contains { $0.action == .withdrawn && $0.names.last == "C.parts/track.withdrawn" })
    #expect(
      events("D").last.map { $0.action == .kept && $0.needsPerson && $0.detail.contains("notes.txt") } == true
    )
    #expect(events("E").map(\.action) == [.removed])
    #expect(events("E").allSatisfy { !$0.needsPerson })
    #expect(events("F").first.map { $0.action == .kept && $0.needsPerson } == true)
    #expect(
      events("G").first.map { $0.action == .kept } == true, "parts the finished file does not hold stay")
    #expect(events("H").map(\.action) == [.skipped])
    // No part is listed as kept twice: the parts folder's line names the folder and what no line
    // above named (it once listed every kept part again).
    for capture in report.captures {
      let kept = capture.events.filter { $0.action == .kept }.flatMap(\.names)
      #expect(Set(kept).count == kept.count, "\(capture.base): \(kept)")
    }
    let folderLine = try #require(events("B").last)
    #expect(folderLine.names == ["B.parts"], "\(folderLine)")
    #expect(
      folderLine.detail == "the parts folder stays: it holds the parts kept above", "\(folderLine.detail)")
    let strangers = try #require(events("D").last)
    #expect(
      strangers.names.allSatisfy { $0.hasPrefix("D.parts/") } && strangers.names.contains("D.parts/notes.txt")
    )

    // A second sweep changes nothing: idempotent.
    let again = try sweep(root)
    #expect(try FolderTree(root).entries == Self.expectedAfterSweep)
    #expect(again.captures.allSatisfy { !$0.events.contains { [.published, .removed].contains($0.action) } })
  }

  @Test func dryRunTouchesNothingAndPredictsTheSweep() throws {
    let root = try Self.makeFolder()
    defer { root.remove() }
    let before = try FolderTree(root)
    let preview = try sweep(root, dryRun: true)
    #expect(try FolderTree(root) == before)
    #expect(preview.dryRun)
    let report = try sweep(root)
    func strip(_ r: SweepReport) -> [[String]] {
      r.captures.map { $0.events.map { "\($0.action) \($0.names)" } }
    }
    #expect(strip(preview) == strip(report))
  }

  @Test func refusedConsentDropsTheRouteAndItsParts() throws {
    let root = try Self.makeFolder()
    defer { root.remove() }
    let report = try sweep(root, consent: false)
    let tree = try FolderTree(root)
    #expect(tree.entries["A_track.gpx"] == nil && tree.entries["A.parts"] == nil)
    #expect(tree.entries["A_transcription.vtt"] == "a1\na2\na3\n")
    #expect(tree.entries["B_track.gpx"] == nil && tree.entries["B.parts/track.0001.gpx"] == nil)
    #expect(report.captures.first { $0.base == "A" }?.events.contains { $0.action == .dropped } == true)
  }

  @Test func consentIsAskedAfterReadingAndBeforeTheRouteIsWritten() throws {
    let root = try Self.makeFolder()
    defer { root.remove() }
    // The fake takes one call at a time, so the sweep asks on one thread: neither needs a lock.
    nonisolated(unsafe) let fs = FaultyFileSystem()
    final class Asked: @unchecked Sendable { var calls: [[String]] = [] }
    let asked = Asked()
    _ = try Sweeper(fileSystem: fs, assembler: LineAssembler())
      .run(
        root.path, options: SweepOptions(now: Self.now),
        routeConsent: {
          asked.calls.append(fs.calls)
          return true
        })
    let callsAtConsent = asked.calls
    // Asked once per route assembled (A and B), each time after its last part was read and before
    // anything was created for the route.
    #expect(callsAtConsent.count == 2)
    let afterA = fs.calls[callsAtConsent[0].count...]
    #expect(callsAtConsent[0].last?.hasSuffix("A.parts/track.0002.gpx") == true)
    #expect(
      afterA.first?.hasPrefix("create") == true && afterA.first?.contains(".A_track.gpx.stash-tmp-") == true)
  }

  @Test func partsGoOnlyOnceTheirFileIsDurableAndTheirFolderIsSyncedOncePerCapture() throws {
    let root = try Self.makeFolder()
    defer { root.remove() }
    let fs = FaultyFileSystem()
    _ = try sweep(root, fileSystem: fs)
    let calls = fs.calls
    let path = root.path
    // Capture A: each kind's parts go only after its file was renamed into place and the folder
    // fsynced.
    for (file, part) in [("A_transcription.vtt", "transcription"), ("A_track.gpx", "track")] {
      let rename = try #require(
        calls.firstIndex { $0.hasPrefix("renameNoReplace") && $0.hasSuffix("/" + file) })
      let durable = try #require(calls[rename...].firstIndex(of: "syncDirectory \(path)"))
      let removal = try #require(calls.firstIndex { $0.hasPrefix("unlink \(path)/A.parts/\(part).") })
      #expect(rename < durable && durable < removal, "\(file)")
    }
    // Both kinds' removals are made durable by one fsync of the parts folder, after the last
    // removal and before the folder itself is removed.
    let syncs = calls.indices.filter { calls[$0] == "syncDirectory \(path)/A.parts" }
    let lastRemoval = try #require(calls.lastIndex { $0.hasPrefix("unlink \(path)/A.parts/") })
    let rmdir = try #require(calls.firstIndex(of: "rmdir \(path)/A.parts"))
    #expect(syncs.count == 1 && lastRemoval < syncs[0] && syncs[0] < rmdir, "\(syncs)")
    // Capture C (withdrawn): its route parts' removal is durable before the marker goes.
    let partRemoval = try #require(calls.firstIndex(of: "unlink \(path)/C.parts/track.0002.gpx"))
    let marker = try #require(calls.firstIndex(of: "unlink \(path)/C.parts/track.withdrawn"))
    #expect(calls[partRemoval..<marker].contains("syncDirectory \(path)/C.parts"))
    // ... and so is the finished route's: a power cut must not leave the route without the marker
    // that says it is to go.
    let route = try #require(calls.firstIndex(of: "unlink \(path)/C_track.gpx"))
    #expect(route < marker && calls[route..<marker].contains("syncDirectory \(path)"))
    // The withdrawal comes before the capture's transcript is assembled: nothing that fails there
    // can hold it back.
    let transcript = try #require(calls.firstIndex { $0.hasPrefix("create \(path)/.C_transcription.vtt") })
    #expect(marker < transcript)
    // Transcripts are assembled before routes.
    let transcriptA = try #require(calls.firstIndex { $0.hasPrefix("create \(path)/.A_transcription.vtt") })
    let routeA = try #require(calls.firstIndex { $0.hasPrefix("create \(path)/.A_track.gpx") })
    #expect(transcriptA < routeA)
  }

  @Test func aMemoFileThatCannotBeLookedAtStopsOnlyItsCapture() throws {
    let root = try Self.makeFolder()
    defer { root.remove() }
    let fs = FaultyFileSystem()
    fs.failing = [("status", "/A_audio.m4a", EIO)]
    let report = try sweep(root, fileSystem: fs)
    let a = report.captures.first { $0.base == "A" }?.events ?? []
    #expect(a.map(\.action) == [.failed])
    #expect(a.first?.detail.contains("\(root.path)/A_audio.m4a") == true, "\(a)")
    let tree = try FolderTree(root)
    #expect(
      tree.entries["A.parts/transcription.0001.vtt"] == "a1\na2" && tree.entries["A_transcription.vtt"] == nil
    )
    // Every other capture is swept as usual.
    #expect(tree.entries["B_transcription.vtt"] == "b1\nGAP 2\nb3\n")
    #expect(tree.entries["C.parts/track.withdrawn"] == nil)
  }

  @Test func aFileThatCannotBeCreatedIsNamedNotItsTemporary() throws {
    let root = try Self.makeFolder()
    defer { root.remove() }
    let fs = FaultyFileSystem()
    fs.failing = [("create", "", ENOSPC)]
    let report = try sweep(root, fileSystem: fs)
    let failures = (report.captures.first { $0.base == "A" }?.events ?? []).filter { $0.action == .failed }
    #expect(failures.map(\.names) == [["A_transcription.vtt"], ["A_track.gpx"]], "\(failures)")
    #expect(failures.allSatisfy { !$0.detail.contains(".stash-tmp-") }, "\(failures)")
  }

  @Test func audioThatCannotBeLookedAtIsNamedItself() throws {
    let root = try ScratchFolder("stash-audio")
    defer { root.remove() }
    try put("not read", "X_audio.m4a", in: root)
    let fs = FaultyFileSystem()
    fs.failing = [("status", "/X_audio.m4a", EIO)]
    let report = try Sweeper(fileSystem: fs, assembler: LineAssembler(), audioRepairer: nil)
      .run(root.path, options: SweepOptions(now: Self.now, includeRecent: true, repairAudio: true))
    let events = report.captures.flatMap(\.events)
    #expect(events.map(\.names) == [["X_audio.m4a"]], "\(events)")
    #expect(events.map(\.action) == [.failed])
  }

  @Test func aPartThatIsNotReadSaysWhy() throws {
    let root = try ScratchFolder("stash-big")
    defer { root.remove() }
    try put("m1", "M.parts/transcription.0001.vtt", in: root)
    try put("a part too big", "M.parts/transcription.0002.vtt", in: root)
    try put("m3", "M.parts/transcription.0003.vtt", in: root)
    var sweeper = Sweeper(fileSystem: SystemFileSystem(), assembler: LineAssembler())
    sweeper.readLimit = 4
    let report = try sweeper.run(root.path, options: SweepOptions(now: Self.now, includeRecent: true))
    let kept = report.captures.flatMap(\.events).filter { $0.action == .kept }.map(\.detail)
    #expect(
      kept.contains {
        $0.contains("transcription.0002.vtt cannot be read (the file is 14 bytes, more than the 4 read here)")
      }, "\(kept)")
    #expect(try FolderTree(root).entries["M.parts/transcription.0002.vtt"] == "a part too big")
  }

  @Test func aRouteDropCutShortNeverLeavesAWholeLookingRoute() throws {
    let root = try Self.makeFolder()
    defer { root.remove() }
    // Dropped for consent, the removal fails after the first part: it went lowest first.
    let fs = FaultyFileSystem()
    fs.failing = [("unlink", "/A.parts/track.0002.gpx", EIO)]
    _ = try sweep(root, fileSystem: fs, consent: false)
    let calls = fs.calls
    let first = try #require(calls.firstIndex(of: "unlink \(root.path)/A.parts/track.0001.gpx"))
    let second = try #require(calls.firstIndex(of: "unlink \(root.path)/A.parts/track.0002.gpx"))
    #expect(first < second)
    #expect(try FolderTree(root).entries["A.parts/track.0002.gpx"] == "p2")
    // A later sweep with consent sees a chain that does not start at 0001: a gap, parts kept.
    let report = try sweep(root)
    let route = report.captures.first { $0.base == "A" }?.events.first { $0.assembly?.kind == .route }
    #expect(
      route?.assembly?.unbroken == false && route?.assembly?.gaps.isEmpty == false,
      "\(String(describing: route))")
    #expect(try FolderTree(root).entries["A.parts/track.0002.gpx"] == "p2")
  }

  @Test func aFailingStepStopsNeitherTheWithdrawalNorTheOtherKind() throws {
    let root = try Self.makeFolder()
    defer { root.remove() }
    // Every write fails, as on a full disk: no file can be published, but C's withdrawal, which
    // only deletes, is finished, and A's route is still tried after its transcript failed.
    let fs = FaultyFileSystem()
    fs.failing = [("write", "", ENOSPC)]
    let report = try sweep(root, fileSystem: fs)
    let tree = try FolderTree(root)
    #expect(tree.entries["C_track.gpx"] == nil && tree.entries["C.parts/track.withdrawn"] == nil)
    #expect(tree.entries["C.parts/track.0002.gpx"] == nil)
    let eventsA = report.captures.first { $0.base == "A" }?.events ?? []
    let failures = eventsA.filter { $0.action == .failed }
    // Each failure names the file it was writing, not a descriptor.
    #expect(failures.map(\.names) == [["A_transcription.vtt"], ["A_track.gpx"]], "\(failures)")
    #expect(
      failures.allSatisfy { $0.detail.hasPrefix("\(root.path)/A_") && !$0.detail.contains("descriptor") })
    // Nothing was lost: A's parts are all still there, and no temporary file is left.
    #expect(tree.entries["A.parts/transcription.0001.vtt"] == "a1\na2")
    #expect(tree.entries["A.parts/track.0002.gpx"] == "p2")
    #expect(!tree.entries.keys.contains { $0.contains(".stash-tmp-") && !$0.hasPrefix(".notes.txt") })
  }

  @Test func recentCapturesAreSweptWithIncludeRecent() throws {
    let root = try Self.makeFolder()
    defer { root.remove() }
    _ = try Sweeper(fileSystem: SystemFileSystem(), assembler: LineAssembler())
      .run(root.path, options: SweepOptions(now: Self.now, includeRecent: true))
    let tree = try FolderTree(root)
    #expect(tree.entries["H_transcription.vtt"] == "h1\n")
    #expect(tree.entries["H.parts"] == nil)
  }

  /// An interrupted import leaves a part under its temporary name in a parts folder (FORMAT.md
  /// §7.3): the sweep removes it as a leftover, as it removes one beside a memo, and says so; it is
  /// not a stranger's file that keeps the parts folder. A temporary-looking name whose final name is
  /// not a part is not Stash's, and stays.
  @Test func anImportsLeftoverPartIsRemovedNotKeptAsAStrangersFile() throws {
    let root = try ScratchFolder("stash-sweep")
    defer { root.remove() }
    try put("audio", "K_audio.m4a", in: root)
    try put("k1", "K.parts/transcription.0001.vtt", in: root)
    try put("k2, half copied", "K.parts/.transcription.0002.vtt.stash-tmp-Ab12Cd", in: root)
    try put("audio", "L_audio.m4a", in: root)
    try put("l1", "L.parts/transcription.0001.vtt", in: root)
    try put("someone's", "L.parts/.notes.txt.stash-tmp-Ab12Cd", in: root)
    let leftover = "K.parts/.transcription.0002.vtt.stash-tmp-Ab12Cd"

    let before = try FolderTree(root)
    let preview = try sweep(root, dryRun: true)
    #expect(try FolderTree(root) == before)
    #expect(preview.temporariesRemoved == [leftover])

    let report = try sweep(root)
    #expect(report.temporariesRemoved == [leftover])
    let k = report.captures.first { $0.base == "K" }?.events ?? []
    #expect(k.allSatisfy { !$0.needsPerson && !$0.detail.contains("stash-tmp") }, "\(k)")
    #expect(
      try FolderTree(root).entries == [
        "K_audio.m4a": "audio", "K_transcription.vtt": "k1\n",
        "L_audio.m4a": "audio", "L_transcription.vtt": "l1\n", "L.parts": "<dir>",
        "L.parts/.notes.txt.stash-tmp-Ab12Cd": "someone's",
      ])
    let l = report.captures.first { $0.base == "L" }?.events ?? []
    #expect(l.last.map { $0.action == .kept && $0.needsPerson && $0.detail.contains(".notes.txt") } == true)
    #expect(report.textLines.contains { $0.contains("removed the leftover temporary file \(leftover)") })
  }

  @Test func aSecondSweepOfTheSameFolderSaysOneIsRunning() throws {
    let root = try Self.makeFolder()
    defer { root.remove() }
    let held = try FolderLock.acquire(root.path, wait: false, fileSystem: SystemFileSystem())
    #expect(throws: RecoverError.self) {
      _ = try Sweeper(fileSystem: SystemFileSystem(), assembler: LineAssembler())
        .run(root.path, options: SweepOptions(now: Self.now), wait: false)
    }
    held.release()
    _ = try sweep(root)
    #expect(try FolderTree(root).entries == Self.expectedAfterSweep)
  }

  /// Every line any part held, outside routes being withdrawn, is still somewhere in the folder.
  static func noDataLost(_ root: ScratchFolder) throws -> Bool {
    let text = try FolderTree(root).entries.values.joined(separator: "\n")
    let lines = ["a1", "a2", "a3", "p1", "p2", "b1", "b3", "q1", "c1", "d1", "f1", "f3", "g1", "g2", "h1"]
    return lines.allSatisfy { text.contains($0) }
  }

  @Test func killedAtEveryStepARerunEndsInTheSameFolder() throws {
    let reference = try Self.makeFolder()
    defer { reference.remove() }
    let counter = FaultyFileSystem()
    _ = try sweep(reference, fileSystem: counter)
    let steps = counter.steps
    #expect(steps > 50)
    for stop in 1...steps {
      let root = try Self.makeFolder()
      defer { root.remove() }
      _ = try? sweep(root, fileSystem: FaultyFileSystem(stopAt: stop))
      #expect(try Self.noDataLost(root), "data lost when killed at step \(stop)")
      _ = try sweep(root)
      #expect(try FolderTree(root).entries == Self.expectedAfterSweep, "killed at step \(stop)")
    }
  }

  @Test func aFailingCallAtEveryStepLosesNothingAndARerunConverges() throws {
    let counter = FaultyFileSystem()
    let reference = try Self.makeFolder()
    defer { reference.remove() }
    _ = try sweep(reference, fileSystem: counter)
    let errors: [Int32] = [ENOSPC, EIO, EACCES, EINTR]
    for step in 1...counter.steps {
      let root = try Self.makeFolder()
      defer { root.remove() }
      let failure = errors[step % errors.count]
      let report = try? sweep(root, fileSystem: FaultyFileSystem(failAt: step, failure: failure))
      if let report { #expect(report.exitCode >= 1) }
      #expect(try Self.noDataLost(root), "data lost with errno \(failure) at step \(step)")
      _ = try sweep(root)
      #expect(try FolderTree(root).entries == Self.expectedAfterSweep, "errno \(failure) at step \(step)")
    }
  }
}

/// Folders that came off a phone strangely: links, FIFOs, folders that cannot be read.
@Suite struct HostileFolderTests {
  static let now = Date().timeIntervalSince1970 + 10_000

  func sweep(_ root: URL) throws -> SweepReport {
    try Sweeper(fileSystem: SystemFileSystem(), assembler: LineAssembler())
      .run(root.path, options: SweepOptions(now: Self.now))
  }

  @Test func linksAndFIFOsAreNeverReadWrittenOrRemoved() throws {
    let root = try ScratchFolder("stash-hostile")
    defer { root.remove() }
    try put("outside", "elsewhere/secret.vtt", in: root)
    try put("a1", "memos/A.parts/transcription.0001.vtt", in: root)
    // A link and a FIFO with part names: strangers, never opened.
    try FileManager.default.createSymbolicLink(
      atPath: root.path + "/memos/A.parts/transcription.0002.vtt", withDestinationPath: "/dev/zero")
    #expect(mkfifo(root.path + "/memos/A.parts/track.0001.gpx", 0o644) == 0)
    // A parts folder that is a link to a folder elsewhere: not Stash's.
    try put("e1", "elsewhere/B.parts/transcription.0001.vtt", in: root)
    try FileManager.default.createSymbolicLink(
      atPath: root.path + "/memos/B.parts", withDestinationPath: "../elsewhere/B.parts")
    // A finished transcript that is a link, beside parts: not read through, parts kept.
    try put("c1", "memos/C.parts/transcription.0001.vtt", in: root)
    try FileManager.default.createSymbolicLink(
      atPath: root.path + "/memos/C_transcription.vtt", withDestinationPath: "../elsewhere/secret.vtt")
    let report = try sweep(root.appendingPathComponent("memos"))
    let tree = try FolderTree(root).entries
    #expect(tree["memos/A_transcription.vtt"] == "a1\n", "the one real part is assembled")
    #expect(tree["memos/A.parts/transcription.0002.vtt"] == "-> /dev/zero")
    #expect(tree["memos/A.parts/track.0001.gpx"] != nil && tree["memos/A_track.gpx"] == nil)
    #expect(tree["memos/A.parts/transcription.0001.vtt"] == nil, "its own part goes, by its exact name")
    #expect(tree["memos/A.parts"] == "<dir>", "the folder stays for the strangers")
    #expect(
      tree["elsewhere/B.parts/transcription.0001.vtt"] == "e1" && tree["memos/B_transcription.vtt"] == nil)
    #expect(tree["elsewhere/secret.vtt"] == "outside" && tree["memos/C.parts/transcription.0001.vtt"] == "c1")
    #expect(report.captures.first { $0.base == "B" }?.events.first?.action == .skipped)
    #expect(report.exitCode == 1)
  }

  @Test func aPartsFolderThatCannotBeReadStopsOnlyItsCapture() throws {
    let root = try ScratchFolder("stash-hostile")
    defer { root.remove() }
    try put("x1", "X.parts/transcription.0001.vtt", in: root)
    try put("y1", "Y.parts/transcription.0001.vtt", in: root)
    // Permission denied on X.parts, as a folder without read permission gives (the tests run as
    // root here, whom a chmod would not stop, so the seam gives the error).
    let fs = FaultyFileSystem()
    fs.failing = [("list", "/X.parts", EACCES)]
    let report = try Sweeper(fileSystem: fs, assembler: LineAssembler())
      .run(root.path, options: SweepOptions(now: Self.now))
    #expect(report.exitCode == 2)
    let event = report.captures.first { $0.base == "X" }?.events.first
    #expect(
      event?.action == .failed && event?.detail.contains("X.parts") == true, "\(String(describing: event))")
    #expect(event?.detail.contains("Permission denied") == true)
    #expect(try FolderTree(root).entries["Y_transcription.vtt"] == "y1\n")
    #expect(try FolderTree(root).entries["X.parts/transcription.0001.vtt"] == "x1")
  }
}
