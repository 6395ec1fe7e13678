import Foundation
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `stash import` run as a program: the report, `--json`, exit codes, a file that brings its memo,
/// `--recover`, and real SIGKILLs at random moments.
@Suite struct ImportCommandTests {
  let stash = Fixtures.product("stash").path

  /// A fresh `cp -R` of the crash fixture, every file new, as a person's copy is: `phone` in a
  /// scratch folder of its own, which the caller removes.
  func copiedFixture() throws -> (root: ScratchFolder, phone: URL) {
    let root = try ScratchFolder("stash-import-cli")
    let copy = root.appendingPathComponent("phone")
    let result = try runProcess("cp", ["-R", Fixtures.folder("crash").path, copy.path])
    #expect(result.status == 0, "\(result.standardError)")
    try FileManager.default.createDirectory(
      at: copy.appendingPathComponent("2026-04-10T09-00-00.parts"), withIntermediateDirectories: false)
    return (root, copy)
  }

  /// The environment a test runs stash in: the import records under `root`'s `state`, never in the
  /// real home.
  func environment(_ root: ScratchFolder, _ extra: [String: String] = [:]) -> [String: String] {
    ProcessInfo.processInfo.environment.merging(
      extra.merging(["XDG_STATE_HOME": root.appendingPathComponent("state").path]) { $1 }
    ) { $1 }
  }

  /// `stash` run with `arguments`, its import records under `root`.
  func runImport(_ root: ScratchFolder, _ arguments: [String]) throws -> ProcessResult {
    try runProcess(stash, arguments, environment: environment(root))
  }

  /// Every path under `root`: its bytes, and its time for a file, to compare whole folders.
  func state(_ root: URL) throws -> [String: String] {
    var out: [String: String] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
      let full = root.path + "/" + path
      let attributes = try FileManager.default.attributesOfItem(atPath: full)
      if attributes[.type] as? FileAttributeType == .typeDirectory {
        out[path] = "<dir>"
      } else {
        let data = try Data(contentsOf: URL(fileURLWithPath: full))
        let time = (attributes[.modificationDate] as! Date).timeIntervalSince1970
        out[path] = "\(data.count) \(data.hashValue) @\((time * 1e6).rounded())"
      }
    }
    return out
  }

  @Test func recoverAfterACopyDoesNotSkipEveryCapture() throws {
    let (root, phone) = try copiedFixture()
    defer { root.remove() }
    let result = try runProcess(stash, ["recover", phone.path, "--dry-run"])
    #expect(result.status == 1, "\(result.standardError)")
    #expect(!result.standardOutput.contains("possibly still recording"), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("would be published: 2026-04-01T09-00-00_transcription.vtt"))
  }

  @Test func importsWholeMemosThenRecoversWithOneJSONReport() throws {
    let (root, phone) = try copiedFixture()
    defer { root.remove() }
    let desk = root.appendingPathComponent("Memos")
    let before = try state(phone)
    let result = try runImport(
      root, ["import", phone.path, desk.path, "--recover", "--json", "--settle", "0"])
    #expect(try state(phone) == before, "the source is never changed without --move")
    let report = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as! [String: Any]
    let memos = report["memos"] as! [[String: Any]]
    #expect(memos.count == 13)
    #expect(memos.allSatisfy { $0["outcome"] as? String == "copied" }, "\(memos)")
    #expect((report["skipped"] as! [[String: Any]]).map { $0["name"] as! String } == ["MANIFEST.json"])
    let recover = report["recover"] as! [String: Any]
    #expect(!(recover["captures"] as! [Any]).isEmpty)
    // The sweep's kept parts need a person: exit 1, in the document and from the process.
    #expect(result.status == 1, "\(result.standardError)")
    #expect(report["exitCode"] as? Int == 1)
    #expect(result.standardError.isEmpty, "no progress line when standard error is not a terminal")
    #expect(FileManager.default.fileExists(atPath: desk.path + "/2026-04-01T09-00-00_transcription.vtt"))

    let again = try runImport(root, ["import", phone.path, desk.path])
    #expect(again.status == 0, "\(again.standardOutput)")
    // The memos the sweep recovered here are changed here since, not a conflict and not copied.
    #expect(
      again.standardOutput.contains("0 copied (0 B), 8 already here, 5 changed here since imported"),
      "\(again.standardOutput)")
  }

  @Test func aFileBringsItsWholeMemoAndNothingElse() throws {
    let (root, phone) = try copiedFixture()
    defer { root.remove() }
    let desk = root.appendingPathComponent("Memos")
    let base = "2026-04-05T09-00-00"
    let result = try runImport(root, ["import", phone.path + "/" + base + "_transcription.vtt", desk.path])
    #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
    let names = try FileManager.default.subpathsOfDirectory(atPath: desk.path).sorted()
    let expected = try FileManager.default.subpathsOfDirectory(atPath: phone.path).filter {
      $0.hasPrefix(base)
    }
    #expect(names == expected.sorted())
    #expect(!result.standardOutput.contains("MANIFEST.json"), "a memo named alone reports no other file")
  }

  /// A target inside a source, or a source inside the target (through a link, too), is refused
  /// with both folders named, exit 2, before anything is made; the source is not touched.
  @Test func aTargetInsideASourceOrASourceInsideTheTargetIsRefused() throws {
    let (root, phone) = try copiedFixture()
    defer { root.remove() }
    let before = try state(phone)
    try FileManager.default.createSymbolicLink(atPath: root.path + "/link", withDestinationPath: phone.path)
    for target in [phone.path + "/desk", root.path + "/link/desk", phone.path + "/2026-04-10T09-00-00.parts"]
    {
      let result = try runImport(root, ["import", phone.path, target, "--settle", "0"])
      #expect(result.status == 2, "\(target): \(result.standardOutput)")
      #expect(result.standardError.contains("is inside the source"), "\(result.standardError)")
      #expect(result.standardError.contains("give a target outside every source"))
    }
    #expect(!FileManager.default.fileExists(atPath: phone.path + "/desk"), "a refused import makes nothing")
    let inner = try runImport(root, ["import", phone.path, root.path, "--settle", "0"])
    #expect(inner.status == 2)
    #expect(inner.standardError.contains("is inside the target"), "\(inner.standardError)")
    let same = try runImport(root, ["import", phone.path, root.path + "/link/", "--settle", "0"])
    #expect(same.status == 2)
    #expect(same.standardError.contains("is both a source and the target"), "\(same.standardError)")
    #expect(try state(phone) == before)
  }

  @Test func exitCodesSayWhatNeedsAPerson() throws {
    let (root, phone) = try copiedFixture()
    defer { root.remove() }
    #expect(try runImport(root, ["import", phone.path]).status == 2, "a target is needed")
    #expect(try runImport(root, ["import", root.path + "/missing", root.path + "/desk"]).status == 2)
    #expect(
      try runImport(root, ["import", phone.path, phone.path]).status == 2, "the source is not the target")
    let desk = root.appendingPathComponent("desk")
    try FileManager.default.createDirectory(at: desk, withIntermediateDirectories: false)
    try Data("WEBVTT\n\nmine\n".utf8).write(
      to: desk.appendingPathComponent("2026-04-11T09-00-00_transcription.vtt"))
    let conflict = try runImport(root, ["import", phone.path, desk.path])
    #expect(conflict.status == 1)
    #expect(conflict.standardOutput.contains("! conflict: 2026-04-11T09-00-00"), "\(conflict.standardOutput)")
    #expect(
      try String(
        contentsOf: desk.appendingPathComponent("2026-04-11T09-00-00_transcription.vtt"), encoding: .utf8)
        == "WEBVTT\n\nmine\n")
    let dry = try runImport(root, ["import", phone.path, root.path + "/not-yet", "--dry-run"])
    #expect(dry.status == 0, "\(dry.standardError)")
    #expect(dry.standardOutput.contains("13 to copy"), "\(dry.standardOutput)")
    #expect(!FileManager.default.fileExists(atPath: root.path + "/not-yet"), "a dry run makes no folder")
  }

  @Test func watchImportsEachMemoOnceItArrivesUntilInterrupted() throws {
    let said = try watchOneMemoArriving(environment: [:])
    #expect(!said.contains("watching by looking"), "inotify works on the scratch folder: \(said)")
  }

  /// The polling path (FUSE mounts, network shares, or where inotify fails), forced through its
  /// seam: the same memo arrives and is imported by looking every 2 s.
  @Test func watchByPollingImportsEachMemoToo() throws {
    let said = try watchOneMemoArriving(environment: ["STASH_WATCH_POLL": "1"])
    #expect(said.contains("watching by looking every 2 s (STASH_WATCH_POLL is set)"), "\(said)")
  }

  /// A memo arriving as a sync tool delivers it: the transcript first, then the audio; its base.
  static func deliverMemo(_ synced: URL) throws -> String {
    let base = "2026-04-01T09-00-00"
    let fixture = Fixtures.folder("crash")
    let old = Date().addingTimeInterval(-86_400)
    for name in [base + "_transcription.vtt", base + "_audio.m4a"] {
      let from = fixture.appendingPathComponent(
        name.hasSuffix(".vtt") ? "2026-04-10T09-00-00_transcription.vtt" : name)
      let to = synced.appendingPathComponent(name)
      try FileManager.default.copyItem(at: from, to: to)
      try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: to.path)
      usleep(300_000)
    }
    return base
  }

  /// A Voice Memos recording shared into the watched folder (issue 47): it is imported as any memo
  /// is, its transcript made from the one inside it.
  @Test func watchImportsAVoiceMemosRecordingThatArrives() throws {
    _ = try watchOneMemoArriving(environment: [:]) { synced in
      let recording = try VoiceMemoRecording.make(
        seconds: 2,
        transcript: VoiceMemoRecording.tableJSON([("Hello ", (0.2, 0.5)), ("there.", (0.6, 1.0))]))
      let path = synced.appendingPathComponent("20250608 083012-1A2B3C4D.m4a")
      try Data(recording).write(to: path)
      try FileManager.default.setAttributes(
        [.modificationDate: Date().addingTimeInterval(-86_400)], ofItemAtPath: path.path)
      return "2025-06-08T08-30-12"
    }
  }

  /// Runs `stash import --watch` on an empty synced folder, delivers one memo into it as a sync
  /// tool does, checks it is imported and the watch keeps running until interrupted; returns what
  /// the watch wrote on standard error.
  func watchOneMemoArriving(
    environment extra: [String: String], delivering deliver: ((URL) throws -> String)? = nil
  ) throws -> String {
    let root = try ScratchFolder("stash-import-watch")
    defer { root.remove() }
    let synced = root.appendingPathComponent("synced")
    let desk = root.appendingPathComponent("desk")
    try FileManager.default.createDirectory(at: synced, withIntermediateDirectories: false)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: stash)
    process.arguments = ["import", synced.path, desk.path, "--watch", "--settle", "0.2"]
    // A file, not a pipe, so the report can be read while the watch runs.
    let outputPath = root.appendingPathComponent("said.txt").path
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardOutput = output
    let errorsPath = root.appendingPathComponent("errors.txt").path
    _ = FileManager.default.createFile(atPath: errorsPath, contents: nil)
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorsPath))
    process.environment = environment(root, extra)
    try process.run()
    defer {
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
    }
    usleep(500_000)
    let base = try (deliver ?? Self.deliverMemo)(synced)
    let audio = desk.appendingPathComponent(base + "_audio.m4a").path
    var waited = 0
    while !FileManager.default.fileExists(atPath: audio) && waited < 300 {
      usleep(100_000)
      waited += 1
    }
    #expect(FileManager.default.fileExists(atPath: audio), "imported within 30 s")
    #expect(
      FileManager.default.fileExists(atPath: desk.appendingPathComponent(base + "_transcription.vtt").path))
    // The report is printed once the import's last fsync is done, a moment after the audio lands.
    func said() -> String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    waited = 0
    while !said().contains("copied: \(base)") && waited < 100 {
      usleep(100_000)
      waited += 1
    }
    #expect(said().contains("copied: \(base)"), "\(said())")
    #expect(process.isRunning, "--watch keeps running")
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal, "interrupted, as asked")
    return (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? ""
  }

  @Test func realKillsAtRandomMomentsConvergeOnARerun() throws {
    // Memos big enough that a copy takes a while: each kill lands somewhere in the middle.
    let root = try ScratchFolder("stash-import-kill")
    defer { root.remove() }
    let phone = root.appendingPathComponent("phone")
    try FileManager.default.createDirectory(at: phone, withIntermediateDirectories: false)
    var generator = SeededGenerator(seed: 18)
    for index in 0..<6 {
      let base = "2026-03-0\(index + 1)T10-00-00"
      let audio = (0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
      try Data(audio).write(to: phone.appendingPathComponent(base + "_audio.m4a"))
      try Data("WEBVTT\n\n00:00.000 --> 00:01.000\nmemo \(index)\n".utf8).write(
        to: phone.appendingPathComponent(base + "_transcription.vtt"))
      try FileManager.default.createDirectory(
        at: phone.appendingPathComponent(base + ".parts"), withIntermediateDirectories: false)
      try Data("WEBVTT\n\n00:01.000 --> 00:02.000\npart\n".utf8).write(
        to: phone.appendingPathComponent(base + ".parts/transcription.0001.vtt"))
    }
    let old = Date().addingTimeInterval(-86_400)
    for path in try FileManager.default.subpathsOfDirectory(atPath: phone.path) {
      try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: phone.path + "/" + path)
    }
    let source = try state(phone)
    let clean = root.appendingPathComponent("clean")
    let started = Date()
    #expect(try runImport(root, ["import", phone.path, clean.path]).status == 0)
    // The first run's time bounds the kills; on a loaded machine it can be slow, so a run the kill
    // came too late for halves the bound, and trials go on (up to 40) until three landed mid-import.
    var runMicroseconds = UInt32(max(50_000, Date().timeIntervalSince(started) * 1e6))
    let expected = try state(clean)
    var interrupted = 0
    var trial = 0
    while trial < 12 || (interrupted < 3 && trial < 40) {
      defer { trial += 1 }
      let desk = root.appendingPathComponent("desk\(trial)")
      let process = Process()
      process.executableURL = URL(fileURLWithPath: stash)
      process.arguments = ["import", phone.path, desk.path]
      process.environment = environment(root)
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      let delay = UInt32.random(in: 0...runMicroseconds, using: &generator)
      try process.run()
      usleep(delay)
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal {
        interrupted += 1
      } else {
        runMicroseconds = max(5_000, runMicroseconds / 2)
      }
      #expect(try state(phone) == source, "trial \(trial): the source is untouched")
      if FileManager.default.fileExists(atPath: desk.path) {
        // Whatever the kill left is whole: every file there is the source's, or a temporary.
        for (path, value) in try state(desk) where !path.contains(".stash-tmp-") && value != "<dir>" {
          #expect(expected[path] == value, "trial \(trial), killed after \(delay) µs: \(path)")
        }
      }
      let rerun = try runImport(root, ["import", phone.path, desk.path])
      #expect(rerun.status == 0, "trial \(trial): \(rerun.standardOutput)")
      // The import record is whole whenever the kill fell: the rerun reads it without a word.
      #expect(rerun.standardError.isEmpty, "trial \(trial): \(rerun.standardError)")
      #expect(try state(desk) == expected, "trial \(trial), killed after \(delay) µs")
    }
    #expect(interrupted >= 3, "kills must land while the import runs, or this proved nothing")
    print("import kill trials: \(interrupted) of \(trial) killed mid-import")
  }
}
