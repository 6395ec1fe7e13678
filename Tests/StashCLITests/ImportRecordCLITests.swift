import Foundation
import StashTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `stash import` run as a program against its import record: a memo deleted in the target is not
/// brought back (until `--again`), stash's own edits in the target (a new title, a repaired audio,
/// a recovered transcript) are no conflict, `--move` clears what was imported before, `--watch`
/// keeps a deletion, and a damaged record is said once and set aside. Each test keeps its records
/// in its own scratch folder (`XDG_STATE_HOME`), never in the real home.
@Suite struct ImportRecordCLITests {
  let stash = Fixtures.product("stash").path
  let deleted = "2026-04-05T09-00-00"
  let titled = "2026-04-04T09-00-00"

  /// A `cp -R` of the crash fixture as `phone` in a scratch folder, every file dated a day ago (a
  /// copy made earlier, so no memo looks like a recording running), with a title on one memo.
  func phone() throws -> (root: ScratchFolder, phone: URL, desk: URL) {
    let root = try ScratchFolder("stash-import-record")
    let phone = root.appendingPathComponent("phone")
    let copied = try runProcess("cp", ["-R", Fixtures.folder("crash").path, phone.path])
    #expect(copied.status == 0, "\(copied.standardError)")
    try Data("Standup notes\n".utf8).write(to: phone.appendingPathComponent(titled + "_title.txt"))
    let old = Date().addingTimeInterval(-86_400)
    for path in try FileManager.default.subpathsOfDirectory(atPath: phone.path) {
      try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: phone.path + "/" + path)
    }
    return (root, phone, root.appendingPathComponent("desk"))
  }

  func run(_ root: ScratchFolder, _ arguments: [String]) throws -> ProcessResult {
    try runProcess(stash, arguments, environment: environment(root))
  }

  func environment(_ root: ScratchFolder, _ extra: [String: String] = [:]) -> [String: String] {
    ProcessInfo.processInfo.environment.merging(
      extra.merging(["XDG_STATE_HOME": root.appendingPathComponent("state").path]) { $1 }
    ) { $1 }
  }

  /// The record files under the test's state folder.
  func records(_ root: ScratchFolder) -> [String] {
    let folder = root.appendingPathComponent("state/stash/imports").path
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { folder + "/" + $0 }
  }

  /// Moves every file of `base` out of `desk` into `root/Trash`, as a deletion to the Trash does.
  func delete(_ base: String, in desk: URL, _ root: ScratchFolder) throws {
    let trash = root.appendingPathComponent("Trash")
    try? FileManager.default.createDirectory(at: trash, withIntermediateDirectories: false)
    for name in try FileManager.default.contentsOfDirectory(atPath: desk.path) where name.hasPrefix(base) {
      try FileManager.default.moveItem(
        at: desk.appendingPathComponent(name), to: trash.appendingPathComponent(name))
    }
  }

  func exists(_ url: URL, _ name: String) -> Bool {
    FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path)
  }

  @Test func aMemoDeletedHereIsNotCopiedAgainUntilAgain() throws {
    let (root, phone, desk) = try phone()
    defer { root.remove() }
    let first = try run(root, ["import", phone.path, desk.path])
    #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
    #expect(first.standardOutput.contains("13 copied"), "\(first.standardOutput)")
    // One record, and no word of the folder in it: no base, no title, no path. (A base's date is
    // looked for with its dash: the record's times and hashes are digits, and may hold "2026".)
    let written = records(root)
    #expect(written.count == 1)
    let text = try String(contentsOfFile: written.first ?? "", encoding: .utf8)
    #expect(text.hasPrefix("stash import record 1\n"))
    #expect(text.split(separator: "\n").count > 20, "a line per file")
    for word in ["2026-", "Standup", "desk", "phone", root.path] { #expect(!text.contains(word), "\(word)") }

    try delete(deleted, in: desk, root)
    let second = try run(root, ["import", phone.path, desk.path])
    #expect(second.status == 0, "\(second.standardOutput)")
    #expect(
      second.standardOutput.contains(
        "  deleted here since it was imported: \(deleted)\n"
          + "      not copied again; stash import --again brings it back"), "\(second.standardOutput)")
    #expect(second.standardOutput.contains("0 copied (0 B), 12 already here, 1 deleted here since imported"))
    #expect(!exists(desk, deleted + "_audio.m4a"), "the deletion sticks")
    #expect(!exists(desk, deleted + "_transcription.vtt"))
    #expect(second.standardError.isEmpty, "\(second.standardError)")

    let json = try run(root, ["import", phone.path, desk.path, "--json"])
    let report = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
    let memos = report?["memos"] as? [[String: Any]] ?? []
    #expect(memos.first { $0["base"] as? String == deleted }?["outcome"] as? String == "deletedHere")
    #expect((report?["notices"] as? [Any])?.isEmpty == true, "\(json.standardOutput)")
    let dry = try run(root, ["import", phone.path, desk.path, "--again", "--dry-run"])
    #expect(dry.standardOutput.contains("would copy: \(deleted)"), "\(dry.standardOutput)")
    let again = try run(root, ["import", phone.path, desk.path, "--again"])
    #expect(again.status == 0, "\(again.standardOutput)")
    #expect(again.standardOutput.contains("  copied: \(deleted)"), "\(again.standardOutput)")
    for kind in ["_audio.m4a", "_transcription.vtt", "_track.gpx"] {
      let back = try Data(contentsOf: desk.appendingPathComponent(deleted + kind))
      #expect(back == (try Data(contentsOf: phone.appendingPathComponent(deleted + kind))), "\(kind)")
    }
    let after = try run(root, ["import", phone.path, desk.path])
    #expect(after.standardOutput.contains("0 copied (0 B), 13 already here"), "\(after.standardOutput)")
  }

  /// A new title, an audio repaired by `recover --repair-audio` and transcripts recovered from
  /// parts are changes made here since: exit 0, no conflict, nothing overwritten; `--move` then
  /// clears those memos off the source, the target keeping its own versions.
  @Test func stashsOwnEditsAreChangesHereNotConflicts() throws {
    let (root, phone, desk) = try phone()
    defer { root.remove() }
    #expect(try run(root, ["import", phone.path, desk.path]).status == 0)
    // A new title, written as the browser's rename writes it: a whole new file in its place.
    let title = desk.appendingPathComponent(titled + "_title.txt")
    try Data("Standup notes, Tuesday\n".utf8).write(to: title, options: .atomic)
    let repair = try run(root, ["recover", desk.path, "--repair-audio", "--include-recent"])
    #expect(
      repair.standardOutput.contains("repaired: 2026-04-11T09-00-00_audio.m4a"), "\(repair.standardOutput)")
    #expect(repair.standardOutput.contains("repaired: 2026-04-12T09-00-00_audio.m4a"))
    let repaired = try Data(contentsOf: desk.appendingPathComponent("2026-04-11T09-00-00_audio.m4a"))
    #expect(repaired != (try Data(contentsOf: phone.appendingPathComponent("2026-04-11T09-00-00_audio.m4a"))))

    let again = try run(root, ["import", phone.path, desk.path])
    #expect(again.status == 0, "\(again.standardOutput)")
    #expect(!again.standardOutput.contains("conflict"), "\(again.standardOutput)")
    for base in [titled, "2026-04-11T09-00-00", "2026-04-12T09-00-00", "2026-04-01T09-00-00"] {
      #expect(again.standardOutput.contains("  changed here since it was imported: \(base)\n"), "\(base)")
    }
    #expect(again.standardOutput.contains("kept as it is here: \(titled)_title.txt"))
    #expect(again.standardOutput.contains("kept as it is here: 2026-04-11T09-00-00_audio.m4a"))
    #expect(try String(contentsOf: title, encoding: .utf8) == "Standup notes, Tuesday\n")

    let dry = try run(root, ["import", phone.path, desk.path, "--move", "--dry-run"])
    #expect(
      dry.standardOutput.contains(
        "changed here since it was imported, would be removed from the source: \(titled)"),
      "\(dry.standardOutput)")
    #expect(!dry.standardOutput.contains(", removed from the source"), "a dry run removes nothing")
    #expect(exists(phone, titled + "_audio.m4a"))

    let move = try run(root, ["import", phone.path, desk.path, "--move"])
    #expect(
      move.standardOutput.contains(
        "changed here since it was imported, removed from the source: 2026-04-11T09-00-00"),
      "\(move.standardOutput)")
    for base in ["2026-04-11T09-00-00", "2026-04-12T09-00-00", "2026-04-01T09-00-00", "2026-04-13T09-00-00"] {
      #expect(!exists(phone, base + "_audio.m4a"), "\(base) is cleared off the source")
      #expect(exists(desk, base + "_audio.m4a"))
    }
    #expect(try Data(contentsOf: desk.appendingPathComponent("2026-04-11T09-00-00_audio.m4a")) == repaired)
    #expect(try String(contentsOf: title, encoding: .utf8) == "Standup notes, Tuesday\n")
  }

  /// With `--move`, a memo deleted here since it was imported is removed from the source as well:
  /// it was verified here before, and the person deleted it (it is in their Trash).
  @Test func moveClearsAMemoDeletedHereOffTheSource() throws {
    let (root, phone, desk) = try phone()
    defer { root.remove() }
    #expect(try run(root, ["import", phone.path, desk.path]).status == 0)
    try delete(deleted, in: desk, root)
    let move = try run(root, ["import", phone.path, desk.path, "--move"])
    #expect(
      move.standardOutput.contains("deleted here since it was imported, removed from the source: \(deleted)"),
      "\(move.standardOutput)")
    #expect(!exists(phone, deleted + "_audio.m4a"))
    #expect(!exists(desk, deleted + "_audio.m4a"), "and it does not come back")
    #expect(exists(root.url, "Trash/" + deleted + "_audio.m4a"))
  }

  /// A source file changed since it was imported is no longer what the record holds: the target's
  /// other bytes are a conflict again. A memo whose audio was deleted here stays deleted even when
  /// its transcript changed on the source: copied alone, the transcript would be a file of no memo
  /// (it once was).
  @Test func aSourceChangedSinceItWasImportedIsNotTakenForTheSame() throws {
    let (root, phone, desk) = try phone()
    defer { root.remove() }
    #expect(try run(root, ["import", phone.path, desk.path]).status == 0)
    try delete(deleted, in: desk, root)
    try Data("WEBVTT\n\n00:00.000 --> 00:01.000\nredone on the phone\n".utf8).write(
      to: phone.appendingPathComponent(deleted + "_transcription.vtt"))
    try Data("Standup, phone\n".utf8).write(to: phone.appendingPathComponent(titled + "_title.txt"))
    try Data("Standup, desk\n".utf8).write(to: desk.appendingPathComponent(titled + "_title.txt"))
    let again = try run(root, ["import", phone.path, desk.path])
    #expect(again.status == 1, "\(again.standardOutput)")
    #expect(again.standardOutput.contains("! conflict: \(titled)"), "\(again.standardOutput)")
    #expect(
      again.standardOutput.contains("  deleted here since it was imported: \(deleted)"),
      "\(again.standardOutput)")
    #expect(again.standardOutput.contains("new on the source and not copied, as its audio is gone here: "))
    #expect(!exists(desk, deleted + "_transcription.vtt"))
    #expect(!exists(desk, deleted + "_audio.m4a"), "the audio, unchanged there, stays deleted")
  }

  @Test func aDamagedRecordIsSaidOnceAndSetAside() throws {
    let (root, phone, desk) = try phone()
    defer { root.remove() }
    #expect(try run(root, ["import", phone.path, desk.path]).status == 0)
    let record = try #require(records(root).first)
    try Data("stash import record 1\nfolder 1:2\nnot a line\n".utf8).write(to: URL(fileURLWithPath: record))
    try delete(deleted, in: desk, root)
    let damaged = try run(root, ["import", phone.path, desk.path])
    #expect(damaged.status == 0, "\(damaged.standardOutput)")
    #expect(
      damaged.standardError.contains("the import record \(record):3: not a record stash wrote (damaged)"),
      "\(damaged.standardError)")
    #expect(damaged.standardOutput.contains("  copied: \(deleted)"), "as if there were no record")
    let next = try run(root, ["import", phone.path, desk.path])
    #expect(next.standardError.isEmpty, "said once: \(next.standardError)")
    #expect(next.standardOutput.contains("13 already here"), "\(next.standardOutput)")
  }

  /// A parts folder is made with the source's permissions (less the umask), not 0700.
  @Test func aPartsFolderKeepsTheSourcesMode() throws {
    let (root, phone, desk) = try phone()
    defer { root.remove() }
    let parts = phone.appendingPathComponent("2026-04-01T09-00-00.parts").path
    #expect(chmod(parts, 0o751) == 0)
    #expect(try run(root, ["import", phone.path, desk.path]).status == 0)
    var info = stat()
    #expect(stat(desk.path + "/2026-04-01T09-00-00.parts", &info) == 0)
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let mask = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }.flatMap {
      mode_t($0.split(separator: "\t").last ?? "", radix: 8)
    }
    #expect(info.st_mode & 0o777 == 0o751 & ~(mask ?? 0o022))
  }

  /// `--watch` on a folder already imported: the first pass counts what is here, a memo deleted
  /// here is not brought back at any pass, and repeats are not printed.
  @Test func watchCountsWhatIsHereAndADeletionSticks() throws {
    let (root, phone, desk) = try phone()
    defer { root.remove() }
    #expect(try run(root, ["import", phone.path, desk.path]).status == 0)
    try delete(deleted, in: desk, root)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: stash)
    process.arguments = ["import", phone.path, desk.path, "--watch", "--settle", "0"]
    let outputPath = root.appendingPathComponent("said.txt").path
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardError = FileHandle.nullDevice
    process.environment = environment(root, ["STASH_WATCH_POLL": "1"])
    try process.run()
    defer {
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
    }
    func said() -> String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var waited = 0
    while !said().contains("already here") && waited < 100 {
      usleep(100_000)
      waited += 1
    }
    // Two more passes (one every 2 s) with nothing new.
    usleep(4_500_000)
    #expect(process.isRunning)
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    let output = said()
    #expect(
      output == "  deleted here since it was imported: \(deleted)\n"
        + "      not copied again; stash import --again brings it back\n"
        + "0 copied (0 B), 12 already here, 1 deleted here since imported; 1 other file not copied\n",
      "\(output)")
    #expect(!exists(desk, deleted + "_audio.m4a"))
  }
}
