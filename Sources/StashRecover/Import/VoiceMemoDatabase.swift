import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// What `CloudRecordings.db`, the Core Data store Apple's Voice Memos keeps beside its recordings
/// on a Mac, says of each: its file (`ZPATH`, relative to the folder), date (`ZDATE`, seconds since
/// 2001-01-01 UTC), the title the person sees (`ZCUSTOMLABEL`, else `ZENCRYPTEDTITLE`), whether it
/// was evicted to iCloud (`ZEVICTIONDATE` set: no local file), its folder (`ZFOLDER`), and whether
/// it is in Recently Deleted. The file is read through `SQLiteReadSession`, never written.
package struct VoiceMemoDatabase: Sendable {
  /// One row of `ZCLOUDRECORDING`.
  package struct Recording: Sendable, Equatable {
    /// `ZPATH`: the file, relative to the folder.
    package var path: String
    /// `ZDATE` as seconds since 1970 UTC.
    package var date: Double?
    /// The title the app shows.
    package var title: String?
    /// `ZEVICTIONDATE` is set: the file lives in iCloud only.
    package var evicted: Bool
    /// The name of the recording's folder in the app.
    package var folder: String?
    /// In Recently Deleted.
    package var deleted: Bool
  }

  /// The database's name in the Recordings folder.
  package static let fileName = "CloudRecordings.db"
  /// Seconds between 1970 and 2001 (Core Data's epoch).
  static let coreDataEpoch = 978_307_200.0
  /// Columns some versions use for a recording moved to Recently Deleted (none is documented
  /// publicly; a folder of that name counts too).
  static let deletionColumns = ["ZDELETIONDATE", "ZTRASHEDDATE", "ZDELETEDDATE"]

  /// Every recording listed, in `ZPATH` order.
  package var recordings: [Recording]

  /// Names of the database and its journal files, which an import leaves as they are.
  package static func isDatabaseFile(_ name: String) -> Bool {
    [fileName, fileName + "-wal", fileName + "-shm", fileName + "-journal"].contains(name)
  }

  /// Reads the database at `path`, never writing it. With a `-wal` journal beside it (the app has
  /// it open, or was stopped), the two are copied into a private folder and the copy is read, so
  /// the journal's latest writes count; without one, the file is read in place, immutable. Throws
  /// a message that names the file when it cannot be opened, is not a database, or has another
  /// schema.
  package static func read(path: String, fileSystem fs: some FileSystem) throws(RecoverError)
    -> VoiceMemoDatabase
  {
    guard let journal = try? fs.status(path + "-wal"), journal.kind == .regular, journal.size > 0 else {
      return try read(path: path, privateCopy: false)
    }
    let temporary = (getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
    var template = Array((temporary + "/stash-voice-memos.XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw RecoverError(
        code: .io, message: "no private folder to copy Voice Memos' database into", path: temporary,
        number: errno)
    }
    let folder = String(cString: made)
    let copy = folder + "/" + fileName
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] { try? fs.unlink(copy + suffix) }
      try? fs.removeDirectory(folder)
    }
    do {
      for suffix in ["", "-wal"] {
        let file = try ReadOnlyFile(path: path + suffix)
        try AtomicFile.write(
          try file.read(at: 0, count: file.size), named: fileName + suffix, in: folder, mode: .createNew,
          fileSystem: fs)
      }
    } catch {
      throw RecoverError(
        code: .io,
        message: "Voice Memos' database cannot be copied to be read (\(error)); the recordings are imported "
          + "without it",
        path: path)
    }
    return try read(path: copy, privateCopy: true, naming: path)
  }

  /// Reads the database at `path` (a private copy, or the file itself, immutable); errors name
  /// `naming`.
  static func read(path: String, privateCopy: Bool, naming: String? = nil) throws(RecoverError)
    -> VoiceMemoDatabase
  {
    let shown = naming ?? path
    func failure(_ message: String) -> RecoverError {
      RecoverError(
        code: .io,
        message: "Voice Memos' database cannot be read (\(message)); the recordings are imported without it",
        path: shown)
    }
    do throws(SQLiteReadSession.Failure) {
      let session = try SQLiteReadSession(path: path, privateCopy: privateCopy)
      let columns = Set(
        try session.rows("PRAGMA table_info(ZCLOUDRECORDING)").compactMap { $0.count > 1 ? $0[1].text : nil })
      guard columns.contains("ZPATH") else {
        throw SQLiteReadSession.Failure(
          message: "another schema: no table ZCLOUDRECORDING with a column ZPATH")
      }
      let wanted =
        ["ZPATH", "ZDATE", "ZCUSTOMLABEL", "ZENCRYPTEDTITLE", "ZEVICTIONDATE", "ZFOLDER"]
        + deletionColumns
      let selected = wanted.map { columns.contains($0) ? $0 : "NULL" }
      var folders: [Int64: String] = [:]
      let folderColumns = Set(
        try session.rows("PRAGMA table_info(ZFOLDER)").compactMap { $0.count > 1 ? $0[1].text : nil })
      if folderColumns.contains("Z_PK") && folderColumns.contains("ZENCRYPTEDNAME") {
        for row in try session.rows("SELECT Z_PK, ZENCRYPTEDNAME FROM ZFOLDER") {
          if case .integer(let key) = row[0], let name = row[1].text { folders[key] = name }
        }
      }
      var recordings: [Recording] = []
      for row in try session.rows(
        "SELECT \(selected.joined(separator: ", ")) FROM ZCLOUDRECORDING ORDER BY ZPATH")
      {
        guard let path = row[0].text, !path.isEmpty else { continue }
        let label = row[2].text.flatMap { Text.trimmed($0).isEmpty ? nil : $0 }
        let title = label ?? row[3].text.flatMap { Text.trimmed($0).isEmpty ? nil : $0 }
        var folder: String?
        if case .integer(let key) = row[5] { folder = folders[key] }
        recordings.append(
          Recording(
            path: path, date: row[1].number.map { $0 + coreDataEpoch }, title: title,
            evicted: row[4] != .null, folder: folder,
            deleted: row[6...].contains { $0 != .null } || folder == "Recently Deleted"))
      }
      return VoiceMemoDatabase(recordings: recordings)
    } catch {
      throw failure(error.message)
    }
  }
}
