import Foundation
import StashFormat
import StashTestSupport
import Testing

@testable import StashRecover

/// The import record in-process: its text and how it is read back, the browser's own delete and
/// rename followed by an import, and a kill at every step of writing it.
@Suite struct ImportRecordTests {
  @Test func itsTextReadsBackAndHoldsNoWords() throws {
    var record = ImportRecord(folder: "2049:77")
    record.record(
      .init(size: 1200, modificationTime: 1_775_000_000.25, hash: 0xDEAD_BEEF), base: "Kitchen idea",
      name: "Kitchen idea_audio.m4a")
    record.record(
      .init(size: 12, modificationTime: 1_775_000_001, hash: nil), base: "Kitchen idea",
      name: "Kitchen idea.parts/transcription.0001.vtt")
    let text = record.text
    #expect(!text.contains("Kitchen"), "\(text)")
    #expect(text.contains(" _audio.m4a 1200 1775000000.25 00000000deadbeef\n"), "\(text)")
    #expect(text.contains(" .parts/transcription.0001.vtt 12 1775000001.0 -\n"), "\(text)")
    #expect(try ImportRecord.parse(text).get() == record)
    #expect(record.entry(base: "Kitchen idea", name: "Kitchen idea_audio.m4a")?.size == 1200)
    #expect(record.entry(base: "Kitchen idea2", name: "Kitchen idea2_audio.m4a") == nil)
    // Damage is found, with the line it is on.
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(ImportRecord.parse(String(text.dropLast())) == .failure(.init(line: 4)), "cut short")
    #expect(
      ImportRecord.parse("stash import record 2\n" + lines.dropFirst().joined(separator: "\n"))
        == .failure(.init(line: 1)))
    var torn = lines
    torn[3] = torn[3].dropLast(5)
    #expect(ImportRecord.parse(torn.joined(separator: "\n")) == .failure(.init(line: 4)))
  }

  @Test func theStateFolderFollowsXDG() {
    let environment = { (values: [String: String]) in { (name: String) in values[name] } }
    #expect(ImportRecord.stateHome(environment: environment(["XDG_STATE_HOME": "/s", "HOME": "/h"])) == "/s")
    #expect(
      ImportRecord.stateHome(environment: environment(["XDG_STATE_HOME": "rel", "HOME": "/h"]))
        == "/h/.local/state")
    #expect(ImportRecord.stateHome(environment: environment([:])) == nil)
    let path = ImportRecord.path(forTarget: "/home/ann/Memos", stateHome: "/s")
    #expect(path.hasPrefix("/s/stash/imports/") && !path.contains("Memos") && path.count == 17 + 16)
    #expect(path != ImportRecord.path(forTarget: "/home/ann/Memos2", stateHome: "/s"))
  }

  /// The browser's own deletion (to a Trash) and rename, then an import with the record: the memo
  /// deleted is not copied again, the title renamed is changed here, not a conflict.
  @Test func theBrowsersDeleteAndRenameStick() throws {
    let scratch = try RecordScratch()
    defer { scratch.remove() }
    let (folders, state, location) = (scratch.folders, scratch.state, scratch.location)
    let withRecord = { (options: inout ImportOptions) in options.record = location }
    let (gone, renamed) = ("2026-04-04T09-00-00", "2026-04-05T09-00-00")
    try Data("Standup notes".utf8).write(to: folders.source.appendingPathComponent(renamed + "_title.txt"))
    let first = try folders.run(options: withRecord)
    let copied = first.memos.filter { $0.outcome == .copied }.map(\.base)
    #expect(copied.contains(gone) && copied.contains(renamed), "\(first.textLines)")
    try MemoTitle.set("A new title", base: renamed, in: folders.target.path)
    _ = try MemoDeletion.delete(
      base: gone, in: folders.target.path,
      disposal: .trash(Trash(directory: state.path + "/Trash")))

    let second = try folders.run(options: withRecord)
    let outcome = { (base: String) in second.memos.first { $0.base == base }?.outcome }
    #expect(outcome(gone) == .deletedHere, "\(second.textLines)")
    #expect(outcome(renamed) == .changedHere, "\(second.textLines)")
    #expect(second.exitCode == 0 || second.memos.contains { $0.outcome == .incomplete })
    #expect(
      !second.memos.contains { $0.outcome == .conflict || $0.outcome == .copied }, "\(second.textLines)")
    #expect(try SystemFileSystem().status(folders.target.path + "/" + gone + "_audio.m4a") == nil)

    // Without the record, the same folders are a copy and a conflict, as before.
    let blind = try folders.run(dryRun: true)
    #expect(blind.memos.first { $0.base == gone }?.outcome == .copied)
    #expect(blind.memos.first { $0.base == renamed }?.outcome == .conflict)
  }

  /// A memo deleted here since it was imported, then the source: a new title there is not copied
  /// (alone it would be a file of no memo; it once was, and lint found an orphan), a memo whose
  /// audio alone was deleted here is deleted here (not "already here"), and `--move`, which takes
  /// what was deleted here off the source too (§7.6), says no copy is left rather than offer
  /// `--again`, and leaves a memo with a file it did not copy on the source.
  @Test func aMemoDeletedHereStaysDeletedAndMoveSaysWhatItLeaves() throws {
    let scratch = try RecordScratch()
    defer { scratch.remove() }
    let (folders, location) = (scratch.folders, scratch.location)
    let withRecord = { (options: inout ImportOptions) in options.record = location }
    let (gone, titled, audioless) = ("2026-04-04T09-00-00", "2026-04-05T09-00-00", "2026-04-10T09-00-00")
    _ = try folders.run(options: withRecord)
    let fm = FileManager.default
    for name in try fm.contentsOfDirectory(atPath: folders.target.path)
    where name.hasPrefix(gone) || name.hasPrefix(titled) {
      try fm.removeItem(atPath: folders.target.path + "/" + name)
    }
    try fm.removeItem(atPath: folders.target.path + "/" + audioless + "_audio.m4a")
    try Data("Standup\n".utf8).write(to: folders.source.appendingPathComponent(titled + "_title.txt"))

    let second = try folders.run(options: withRecord)
    let memo = { (report: ImportReport, base: String) in report.memos.first { $0.base == base } }
    #expect(memo(second, titled)?.outcome == .deletedHere, "\(second.textLines)")
    #expect(memo(second, titled)?.copied.isEmpty == true)
    #expect(memo(second, titled)?.detail.contains("not copied, as its audio is gone here") == true)
    #expect(!fm.fileExists(atPath: folders.target.path + "/" + titled + "_title.txt"))
    #expect(memo(second, audioless)?.outcome == .deletedHere, "\(second.textLines)")

    let moving = try folders.run(move: true, options: withRecord)
    #expect(memo(moving, gone)?.moved == true, "\(moving.textLines)")
    let said = memo(moving, gone)?.detail ?? ""
    #expect(said.contains("no copy is left in either folder") && !said.contains("--again"), "\(said)")
    #expect(!fm.fileExists(atPath: folders.source.path + "/" + gone + "_audio.m4a"))
    // The memo with a new title not copied stays on the source whole.
    #expect(memo(moving, titled)?.moved == false && memo(moving, titled)?.keptOnSource == true)
    #expect(fm.fileExists(atPath: folders.source.path + "/" + titled + "_title.txt"))
    #expect(fm.fileExists(atPath: folders.source.path + "/" + titled + "_audio.m4a"))
  }

  /// A file changed on the source since it was imported, whose copy here is still what the import
  /// brought, is a conflict that says so (it once said the copy here had other bytes); a file
  /// deleted here, the rest of its memo still here, is counted as changed here, not already here.
  @Test func aChangeOnEitherSideSinceTheImportIsSaidAsItIs() throws {
    let scratch = try RecordScratch()
    defer { scratch.remove() }
    let (folders, location) = (scratch.folders, scratch.location)
    let withRecord = { (options: inout ImportOptions) in options.record = location }
    let (base, titledBase) = ("2026-04-10T09-00-00", "2026-04-12T09-00-00")
    let titled = titledBase + "_title.txt"
    try Data("Old\n".utf8).write(to: folders.source.appendingPathComponent(titled))
    let first = try folders.run(options: withRecord)
    let memo = { (report: ImportReport, base: String) in report.memos.first { $0.base == base } }
    #expect(memo(first, base)?.outcome == .copied && memo(first, titledBase)?.outcome == .copied)
    let fm = FileManager.default
    try Data("New\n".utf8).write(to: folders.source.appendingPathComponent(titled))
    try fm.removeItem(atPath: folders.target.path + "/" + base + "_transcription.vtt")

    let second = try folders.run(options: withRecord)
    let changed = try #require(memo(second, titledBase), "\(second.textLines)")
    #expect(changed.outcome == .conflict)
    #expect(
      changed.detail.hasPrefix(
        "changed on the source since it was imported (the copy here is still what the import brought): "
          + titled),
      "\(changed.detail)")
    #expect(!changed.detail.contains("here with other bytes"))
    #expect(try Data(contentsOf: folders.target.appendingPathComponent(titled)) == Data("Old\n".utf8))
    let deleted = try #require(memo(second, base))
    #expect(deleted.outcome == .changedHere, "\(second.textLines)")
    #expect(deleted.detail.contains("deleted here since it was imported, not copied again"))
    let summary = second.textLines.last ?? ""
    #expect(summary.contains("1 changed here since imported"), "\(summary)")

    // A title changed on both sides is the plain conflict.
    try Data("Mine\n".utf8).write(to: folders.target.appendingPathComponent(titled))
    let third = try folders.run(options: withRecord)
    let both = try #require(memo(third, titledBase))
    #expect(both.outcome == .conflict && both.detail.hasPrefix("here with other bytes"), "\(both.detail)")
  }

  /// A kill at every step of the import that writes the record: the record on disk is always the
  /// old one or the new one, whole, and the next import reads it without a word.
  @Test func aKillAtEveryStepOfWritingTheRecordLeavesTheOldOrTheNew() throws {
    let scratch = try RecordScratch()
    defer { scratch.remove() }
    let (folders, state, location) = (scratch.folders, scratch.state, scratch.location)
    let withRecord = { (options: inout ImportOptions) in options.record = location }
    // Everything is here already; only the record changes from here on.
    _ = try folders.run()
    let old = "stash import record 1\nfolder 1:1\n"
    try FileManager.default.createDirectory(
      atPath: state.path + "/stash/imports", withIntermediateDirectories: true)
    try Data(old.utf8).write(to: URL(fileURLWithPath: location.path))
    let measure = FaultyFileSystem()
    let clean = try folders.run(fileSystem: measure, options: withRecord)
    #expect(clean.notices.isEmpty, "\(clean.notices)")
    let new = try String(contentsOfFile: location.path, encoding: .utf8)
    #expect(new != old && new.split(separator: "\n").count > 10)
    let first = try #require(measure.calls.firstIndex { $0.contains(state.path) })
    let steps = Array((first + 1)...(measure.steps + 1))
    #expect(steps.count >= 5, "the record's writing takes steps")
    var sawOld = 0
    var sawNew = 0
    for step in steps {
      try Data(old.utf8).write(to: URL(fileURLWithPath: location.path))
      _ = try? folders.run(fileSystem: FaultyFileSystem(stopAt: step), options: withRecord)
      let now = try String(contentsOfFile: location.path, encoding: .utf8)
      #expect(now == old || now == new, "step \(step): \(now)")
      if now == old { sawOld += 1 } else { sawNew += 1 }
      let (read, problem) = ImportRecord.load(location.path, folder: "1:1", fileSystem: SystemFileSystem())
      #expect(read != nil && problem == nil, "step \(step): \(problem ?? "")")
    }
    #expect(sawOld > 0 && sawNew > 0, "kills before and after the rename")
    // The next import reads it, and takes away what a killed write left.
    let after = try folders.run(options: withRecord)
    #expect(after.notices.isEmpty, "\(after.notices)")
    let left = try FileManager.default.contentsOfDirectory(atPath: state.path + "/stash/imports")
    #expect(left == ["record"], "\(left)")
  }

  /// A record that cannot be written is said, and the import itself stands.
  @Test func aRecordThatCannotBeWrittenIsSaid() throws {
    let scratch = try RecordScratch()
    defer { scratch.remove() }
    let (folders, location) = (scratch.folders, scratch.location)
    let fs = FaultyFileSystem()
    fs.failing = [("rename", "/stash/imports/record", ENOSPC)]
    let report = try folders.run(fileSystem: fs) { $0.record = location }
    #expect(report.memos.contains { $0.outcome == .copied })
    #expect(
      report.notices.count == 1 && report.notices[0].contains("could not be written"), "\(report.notices)")
    #expect(!FileManager.default.fileExists(atPath: location.path))
  }
}

/// A source and target to import between (`ImportFolders`) and a state folder of the test's own
/// holding their import record: what each test of the record starts from.
struct RecordScratch {
  let folders: ImportFolders
  let state: ScratchFolder
  let location: ImportOptions.RecordLocation

  init() throws {
    folders = try ImportFolders()
    state = try ScratchFolder("stash-import-state")
    location = ImportOptions.RecordLocation(path: state.path + "/stash/imports/record", folder: "1:1")
  }

  func remove() {
    folders.remove()
    state.remove()
  }
}
