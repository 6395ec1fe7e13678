import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Testing

/// `Importer` over a folder of Apple Voice Memos recordings built here: each becomes a memo (its
/// audio unchanged, a transcript from its `tsrp`, a title from `©nam`), the source is never
/// written, a second import brings nothing twice, `--move` removes only the recording, and a
/// bad transcript costs only the transcript.
@Suite struct ImportVoiceMemosTests {
  static let runs: [(String, (Double, Double)?)] = [
    ("Buy ", (0.2, 0.5)), ("tomato ", (0.55, 0.9)), ("seeds. ", (0.95, 1.4)), ("Um, ", (2.6, 2.8)),
    ("and ", (2.8, 2.95)), ("compost…", (3.0, 3.6)),
  ]

  struct Folders {
    let root: ScratchFolder
    var source: String { root.appendingPathComponent("Recordings").path }
    var target: String { root.appendingPathComponent("memos").path }
    var record: String { root.appendingPathComponent("record.json").path }

    init() throws {
      root = try ScratchFolder("stash-import-voice-memos")
      try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
      try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    }

    func put(_ bytes: [UInt8], _ name: String) throws {
      try Data(bytes).write(to: URL(fileURLWithPath: source + "/" + name))
    }

    func run(move: Bool = false, dryRun: Bool = false) throws -> ImportReport {
      var options = ImportOptions(now: Date().timeIntervalSince1970, settle: 0, move: move, dryRun: dryRun)
      options.record = .init(path: record, folder: target)
      return try Importer(fileSystem: SystemFileSystem()).run(
        [.init(folder: source)], into: target, options: options)
    }

    func names(_ folder: String) throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
  }

  @Test func recordingsBecomeMemosWithTheirTranscriptAndTitle() throws {
    let folders = try Folders()
    defer { folders.root.remove() }
    let audio = try VoiceMemoRecording.make(
      title: "Garden", transcript: VoiceMemoRecording.interleavedJSON(Self.runs))
    try folders.put(audio, "20250608 083012-1A2B3C4D.m4a")
    // The default title makes no title file; a .qta keeps its transcript in keyed metadata.
    let untitled = try VoiceMemoRecording.make(
      title: "New Recording 3", transcript: VoiceMemoRecording.tableJSON(Self.runs), place: .keyedMetadata)
    try folders.put(untitled, "20250609 190000-99AA00BB.qta")
    try folders.put(Array("notes".utf8), "shopping.txt")
    let sourceBefore = try folders.names(folders.source)

    let report = try folders.run()
    #expect(report.exitCode == 0, "\(report.textLines)")
    #expect(report.memos.map(\.base) == ["2025-06-08T08-30-12", "2025-06-09T19-00-00"])
    #expect(report.memos.allSatisfy { $0.outcome == .copied }, "\(report.textLines)")
    #expect(
      report.memos[0].detail.contains("from Apple's Voice Memos: 20250608 083012-1A2B3C4D.m4a"),
      "\(report.memos[0].detail)")
    #expect(report.skipped.map(\.name) == ["shopping.txt"])
    #expect(
      try folders.names(folders.target) == [
        "2025-06-08T08-30-12_audio.m4a", "2025-06-08T08-30-12_title.txt",
        "2025-06-08T08-30-12_transcription.vtt",
        "2025-06-09T19-00-00_audio.m4a", "2025-06-09T19-00-00_transcription.vtt",
      ])
    #expect(try folders.bytes(folders.target + "/2025-06-08T08-30-12_audio.m4a") == audio)
    #expect(try folders.bytes(folders.target + "/2025-06-09T19-00-00_audio.m4a") == untitled)
    #expect(try folders.bytes(folders.target + "/2025-06-08T08-30-12_title.txt") == Array("Garden".utf8))
    let vtt = String(
      decoding: try folders.bytes(folders.target + "/2025-06-08T08-30-12_transcription.vtt"), as: UTF8.self)
    #expect(vtt.contains("00:00.200 --> 00:01.400\nBuy <00:00:00.550>tomato <00:00:00.950>seeds."), "\(vtt)")
    #expect(vtt.contains("00:02.600 --> 00:03.600\nUm, <00:00:02.800>and <00:00:03.000>compost…"), "\(vtt)")
    #expect(try folders.names(folders.source) == sourceBefore, "the source is never changed")

    // The folder reads as two memos, with no finding about their names.
    let listing = try MemoFolder.read(path: folders.target)
    #expect(listing.memos.count == 2)

    let again = try folders.run()
    #expect(again.memos.allSatisfy { $0.outcome == .alreadyHere }, "\(again.textLines)")
    // Deleted here, not brought back.
    try FileManager.default.removeItem(atPath: folders.target + "/2025-06-08T08-30-12_title.txt")
    let third = try folders.run()
    #expect(!FileManager.default.fileExists(atPath: folders.target + "/2025-06-08T08-30-12_title.txt"))
    // Its title deleted here and the rest still here: changed here since the import.
    #expect(third.memos[0].outcome == .changedHere, "\(third.textLines)")
  }

  @Test func aDryRunWritesNothingAndMoveRemovesOnlyTheRecording() throws {
    let folders = try Folders()
    defer { folders.root.remove() }
    let audio = try VoiceMemoRecording.make(transcript: VoiceMemoRecording.interleavedJSON(Self.runs))
    try folders.put(audio, "20250608 083012-1A2B3C4D.m4a")
    let plan = try folders.run(move: true, dryRun: true)
    #expect(plan.memos.first?.outcome == .copied && plan.memos.first?.moved == true, "\(plan.textLines)")
    #expect(try folders.names(folders.target).isEmpty)
    let moved = try folders.run(move: true)
    #expect(moved.memos.first?.moved == true, "\(moved.textLines)")
    #expect(try folders.names(folders.source).isEmpty)
    #expect(try folders.bytes(folders.target + "/2025-06-08T08-30-12_audio.m4a") == audio)
  }

  /// A recording renamed by another tool is known by its items; its base is its creation time.
  @Test func aRenamedRecordingIsKnownByItsItems() throws {
    let folders = try Folders()
    defer { folders.root.remove() }
    let audio = try VoiceMemoRecording.make(transcript: nil)
    try folders.put(audio, "garden walk.m4a")
    try folders.put(Array(try TestTone.mp4(seconds: 1, fragmented: false)), "other song.m4a")
    let report = try folders.run()
    let items = try VoiceMemoItems.read(path: folders.source + "/garden walk.m4a")
    #expect(items.creationTime == VoiceMemoRecording.defaultCreationTime)
    #expect(report.memos.map(\.base) == ["2025-06-08T08-30-12Z"], "\(report.textLines)")
    #expect(report.skipped.map(\.name) == ["other song.m4a"])
  }

  /// Each bad transcript: the audio comes all the same, and the report says what and where.
  @Test(arguments: ["{\"attributedString\": [\"a\", {]}", "[1, 2]", "\u{0}\u{1}binary"])
  func aBadTranscriptCostsOnlyTheTranscript(json: String) throws {
    let folders = try Folders()
    defer { folders.root.remove() }
    let audio = try VoiceMemoRecording.make(transcript: Array(json.utf8))
    try folders.put(audio, "20250608 083012-1A2B3C4D.m4a")
    let report = try folders.run()
    #expect(report.exitCode == 0)
    let detail = try #require(report.memos.first).detail
    #expect(
      detail.contains("its transcript cannot be read") && detail.contains("mp4-bad-transcript") == false)
    #expect(detail.contains("20250608 083012-1A2B3C4D.m4a@"), "\(detail)")
    #expect(try folders.names(folders.target) == ["2025-06-08T08-30-12_audio.m4a"])
  }

  // MARK: CloudRecordings.db

  /// Writes `CloudRecordings.db` into the source with the sqlite3 program, in the shape of the
  /// app's Core Data store (only the columns Stash reads, and a folder table).
  func database(_ folders: Folders, _ sql: String) throws {
    let path = folders.source + "/CloudRecordings.db"
    let schema = """
      CREATE TABLE ZFOLDER (Z_PK INTEGER PRIMARY KEY, ZENCRYPTEDNAME VARCHAR, ZUUID VARCHAR);
      CREATE TABLE ZCLOUDRECORDING (Z_PK INTEGER PRIMARY KEY, ZFOLDER INTEGER, ZDATE TIMESTAMP,
        ZDURATION FLOAT, ZCUSTOMLABEL VARCHAR, ZENCRYPTEDTITLE VARCHAR, ZPATH VARCHAR, ZUNIQUEID VARCHAR,
        ZEVICTIONDATE TIMESTAMP);
      """
    let made = try runProcess("sqlite3", [path, schema + sql])
    #expect(made.status == 0, "\(made.standardError)")
  }

  /// 2025-06-08T08:30:12Z in Core Data's seconds since 2001.
  static let coreDataDate = 1_749_371_412 - 978_307_200

  @Test func theDatabaseGivesTitlesDatesFoldersAndLeavesDeletedAndEvicted() throws {
    let folders = try Folders()
    defer { folders.root.remove() }
    let named = try VoiceMemoRecording.make(transcript: VoiceMemoRecording.interleavedJSON(Self.runs))
    try folders.put(named, "20250608 083012-1A2B3C4D.m4a")
    // Re-saved by another tool: no items, another name; only the database knows it.
    let plain = VoiceMemoRecording.dress(
      Array(try TestTone.mp4(seconds: 1, fragmented: false)), title: nil, tool: nil, uuid: nil,
      transcript: nil,
      creationTime: nil)
    try folders.put(plain, "Recording 2.m4a")
    try folders.put(named, "20250202 020202-0000AAAA.m4a")
    try database(
      folders,
      """
      INSERT INTO ZFOLDER VALUES (1, 'Garden', 'F1'), (2, 'Recently Deleted', 'F2');
      INSERT INTO ZCLOUDRECORDING VALUES
        (1, 1, \(Self.coreDataDate), 3.0, 'Tomato plans', 'New Recording', '20250608 083012-1A2B3C4D.m4a', 'U1', NULL),
        (2, NULL, \(Self.coreDataDate + 86_400), 1.0, NULL, 'Shed', 'Recording 2.m4a', 'U2', NULL),
        (3, NULL, \(Self.coreDataDate), 9.0, NULL, 'Far away', '20250101 101010-ABCDEF01.m4a', 'U3', 700000000),
        (4, 2, \(Self.coreDataDate - 8_640_000), 1.0, NULL, 'Gone', '20250202 020202-0000AAAA.m4a', 'U4', NULL);
      """)
    let report = try folders.run()
    #expect(report.exitCode == 0, "\(report.textLines)")
    #expect(
      report.memos.map(\.base) == ["2025-06-08T08-30-12Z", "2025-06-09T08-30-12Z"], "\(report.textLines)")
    #expect(report.memos[0].detail.contains("in Apple's folder Garden"), "\(report.memos[0].detail)")
    #expect(
      try folders.bytes(folders.target + "/2025-06-08T08-30-12Z_title.txt") == Array("Tomato plans".utf8))
    #expect(try folders.bytes(folders.target + "/2025-06-09T08-30-12Z_title.txt") == Array("Shed".utf8))
    #expect(try folders.bytes(folders.target + "/2025-06-09T08-30-12Z_audio.m4a") == plain)
    let skipped = Dictionary(uniqueKeysWithValues: report.skipped.map { ($0.name, $0.reason) })
    #expect(skipped["20250101 101010-ABCDEF01.m4a"]?.hasPrefix("in iCloud only") == true, "\(skipped)")
    #expect(skipped["20250202 020202-0000AAAA.m4a"]?.contains("Recently Deleted") == true, "\(skipped)")
    #expect(skipped["CloudRecordings.db"]?.hasPrefix("Voice Memos' database") == true, "\(skipped)")
    #expect(report.notices.isEmpty, "\(report.notices)")

    var options = ImportOptions(now: Date().timeIntervalSince1970, settle: 0)
    options.includeDeleted = true
    let withDeleted = try Importer(fileSystem: SystemFileSystem()).run(
      [.init(folder: folders.source)], into: folders.target, options: options)
    #expect(withDeleted.memos.contains { $0.base == "2025-06-08T08-30-12Z" && $0.outcome == .alreadyHere })
    #expect(
      withDeleted.skipped.allSatisfy { !$0.reason.contains("Recently Deleted") }, "\(withDeleted.textLines)")
    #expect(withDeleted.memos.contains { $0.detail.contains("20250202 020202-0000AAAA.m4a") })
  }

  /// A recording imported once by its name alone (shared off an iPhone: no database), then again
  /// from a Mac's folder whose database dates it in UTC: the base differs, the recording is the
  /// same, and it is not copied twice. Another recording of the same size with other bytes is.
  @Test func aRecordingImportedWithoutTheDatabaseIsNotCopiedAgainWithIt() throws {
    let folders = try Folders()
    defer { folders.root.remove() }
    let audio = try VoiceMemoRecording.make(transcript: VoiceMemoRecording.interleavedJSON(Self.runs))
    try folders.put(audio, "20250608 083012-1A2B3C4D.m4a")
    let first = try folders.run()
    #expect(first.memos.map(\.base) == ["2025-06-08T08-30-12"], "\(first.textLines)")
    var other = audio
    other[other.count / 2] ^= 0xFF
    try folders.put(other, "20250609 083012-2A2B3C4D.m4a")
    try database(
      folders,
      """
      INSERT INTO ZCLOUDRECORDING VALUES
        (1, NULL, \(Self.coreDataDate), 3.0, 'Tomato plans', 'New Recording', '20250608 083012-1A2B3C4D.m4a', 'U1', NULL),
        (2, NULL, \(Self.coreDataDate + 3_600), 3.0, NULL, 'New Recording', '20250609 083012-2A2B3C4D.m4a', 'U2', NULL);
      """)
    let second = try folders.run()
    let outcomes = Dictionary(uniqueKeysWithValues: second.memos.map { ($0.base, $0) })
    let same = try #require(outcomes["2025-06-08T08-30-12Z"], "\(second.textLines)")
    #expect(same.outcome == .alreadyHere, "\(second.textLines)")
    #expect(same.detail.contains("already here as 2025-06-08T08-30-12"), "\(same.detail)")
    #expect(outcomes["2025-06-08T09-30-12Z"]?.outcome == .copied, "\(second.textLines)")
    let bases = Set(try folders.names(folders.target).map { String($0.prefix(while: { $0 != "_" })) })
    #expect(bases == ["2025-06-08T08-30-12", "2025-06-08T09-30-12Z"], "\(bases)")
  }

  /// A database that cannot be read costs only what it would have given: the recordings come by
  /// their names, and the report names the file and the reason.
  @Test(arguments: ["garbage", "other schema"])
  func aBadDatabaseIsSaidAndTheRestImported(kind: String) throws {
    let folders = try Folders()
    defer { folders.root.remove() }
    try folders.put(try VoiceMemoRecording.make(transcript: nil), "20250608 083012-1A2B3C4D.m4a")
    if kind == "garbage" {
      try folders.put(Array(repeating: 0x41, count: 4096), "CloudRecordings.db")
    } else {
      let made = try runProcess(
        "sqlite3", [folders.source + "/CloudRecordings.db", "CREATE TABLE ZOTHER (A);"])
      #expect(made.status == 0)
    }
    let report = try folders.run()
    #expect(report.memos.map(\.base) == ["2025-06-08T08-30-12"], "\(report.textLines)")
    let notice = try #require(report.notices.first)
    #expect(notice.contains("CloudRecordings.db") && notice.contains("cannot be read"), "\(notice)")
    #expect(notice.contains(kind == "garbage" ? "not a database" : "another schema"), "\(notice)")
  }

  /// A recording cut off before its index (a copy onto the source still running) waits while it
  /// is recent, and comes as it is once it is not: its audio unchanged, with the reason.
  @Test func aRecordingWithoutItsIndexWaitsWhileRecent() throws {
    let folders = try Folders()
    defer { folders.root.remove() }
    let whole = try VoiceMemoRecording.make(transcript: VoiceMemoRecording.interleavedJSON(Self.runs))
    let cut = Array(whole.dropLast(100))
    let name = "20250608 083012-1A2B3C4D.m4a"
    try folders.put(cut, name)
    let early = try folders.run()
    #expect(early.memos.first?.outcome == .stillRecording, "\(early.textLines)")
    #expect(early.memos.first?.detail.contains("index cannot be read") == true)
    #expect(try folders.names(folders.target).isEmpty)
    // An hour later it is what it is.
    let path = folders.source + "/" + name
    let hourAgo = Date().addingTimeInterval(-3600)
    try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: path)
    let later = try folders.run()
    #expect(later.memos.first?.outcome == .copied, "\(later.textLines)")
    #expect(later.memos.first?.detail.contains("mp4-index-cut-off") == false)
    #expect(later.memos.first?.detail.contains("cut short") == true, "\(later.memos.first?.detail ?? "")")
    #expect(try folders.bytes(folders.target + "/2025-06-08T08-30-12_audio.m4a") == cut)
  }

  /// The app holding its database open with writes still in the journal (`-wal`): the import
  /// reads a private copy of the two, so those writes count, and leaves the originals as they are.
  @Test func aDatabaseHeldOpenWithItsJournalIsReadFromACopy() throws {
    let folders = try Folders()
    defer { folders.root.remove() }
    try folders.put(try VoiceMemoRecording.make(transcript: nil), "20250608 083012-1A2B3C4D.m4a")
    let statements = """
      PRAGMA journal_mode=WAL;
      PRAGMA wal_autocheckpoint=0;
      CREATE TABLE ZCLOUDRECORDING (Z_PK INTEGER PRIMARY KEY, ZDATE TIMESTAMP, ZCUSTOMLABEL VARCHAR,
        ZPATH VARCHAR);
      INSERT INTO ZCLOUDRECORDING VALUES (1, \(Self.coreDataDate), 'Held open', '20250608 083012-1A2B3C4D.m4a');
      .print ready

      """
    let holder = try Self.holdOpen(folders.source + "/CloudRecordings.db", statements)
    defer { holder.close() }
    let journal = try #require(
      try FileManager.default.attributesOfItem(atPath: folders.source + "/CloudRecordings.db-wal")[.size]
        as? Int)
    #expect(journal > 0, "the rows are in the journal only")
    let before = try folders.bytes(folders.source + "/CloudRecordings.db")
    let report = try folders.run()
    #expect(report.notices.isEmpty, "\(report.notices)")
    #expect(report.memos.map(\.base) == ["2025-06-08T08-30-12Z"], "\(report.textLines)")
    #expect(try folders.bytes(folders.target + "/2025-06-08T08-30-12Z_title.txt") == Array("Held open".utf8))
    #expect(try folders.bytes(folders.source + "/CloudRecordings.db") == before)
    #expect(report.skipped.allSatisfy { $0.reason.hasPrefix("Voice Memos' database") }, "\(report.skipped)")
  }

  /// The app in the middle of a write with the old journal (no `-wal`): `BEGIN EXCLUSIVE` held, a
  /// row inserted and not committed. The import reads what was committed, the recording comes
  /// with that title, and the database is left as it is.
  @Test func aDatabaseLockedForWritingIsReadAsCommitted() throws {
    let folders = try Folders()
    defer { folders.root.remove() }
    try folders.put(try VoiceMemoRecording.make(transcript: nil), "20250608 083012-1A2B3C4D.m4a")
    let statements = """
      CREATE TABLE ZCLOUDRECORDING (Z_PK INTEGER PRIMARY KEY, ZDATE TIMESTAMP, ZCUSTOMLABEL VARCHAR,
        ZPATH VARCHAR);
      INSERT INTO ZCLOUDRECORDING VALUES (1, \(Self.coreDataDate), 'Committed', '20250608 083012-1A2B3C4D.m4a');
      BEGIN EXCLUSIVE;
      UPDATE ZCLOUDRECORDING SET ZCUSTOMLABEL = 'Not yet' WHERE Z_PK = 1;
      .print ready

      """
    let holder = try Self.holdOpen(folders.source + "/CloudRecordings.db", statements)
    defer { holder.close() }
    #expect(!FileManager.default.fileExists(atPath: folders.source + "/CloudRecordings.db-wal"))
    let before = try folders.bytes(folders.source + "/CloudRecordings.db")
    let report = try folders.run()
    #expect(report.notices.isEmpty, "\(report.notices)")
    #expect(report.memos.map(\.base) == ["2025-06-08T08-30-12Z"], "\(report.textLines)")
    #expect(try folders.bytes(folders.target + "/2025-06-08T08-30-12Z_title.txt") == Array("Committed".utf8))
    #expect(try folders.bytes(folders.source + "/CloudRecordings.db") == before)
  }

  /// `sqlite3` holding the database at `path` open after running `statements`, which end by
  /// printing `ready`; `close()` ends it.
  struct Holder {
    let process: Process
    let input: Pipe

    func close() {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
    }
  }

  static func holdOpen(_ path: String, _ statements: String) throws -> Holder {
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    holder.arguments = [path]
    let input = Pipe()
    let output = Pipe()
    holder.standardInput = input
    holder.standardOutput = output
    try holder.run()
    input.fileHandleForWriting.write(Data(statements.utf8))
    var said = ""
    while !said.contains("ready") {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { break }
      said += String(decoding: data, as: UTF8.self)
    }
    return Holder(process: holder, input: input)
  }
}
