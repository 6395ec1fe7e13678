import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// What imports brought into one target folder: per memo (its base hashed), per file (its name
/// after the base: `_audio.m4a`, `.parts/audio.m4a.1`), the size, modification time and content
/// hash it had when it was copied and verified, or found already here. It lets a later import tell
/// a memo deleted here since (not copied again) and a file changed here since (a new title, a
/// repaired audio: not a conflict) from a memo never imported. It lives outside the memo folder
/// (`$XDG_STATE_HOME/stash/imports/`), so the folder stays only the memos, and holds no words: no
/// base, no title, no path in clear.
package struct ImportRecord: Sendable, Equatable {
  /// One file as it was imported.
  package struct Entry: Sendable, Equatable {
    /// Its size in bytes.
    package var size: Int
    /// Its modification time (an import keeps the source's), seconds since 1970.
    package var modificationTime: Double
    /// Its bytes' XXH64, or nil when it was found already here by size and time (not read).
    package var hash: UInt64?
  }

  /// The target folder's identity (`<device>:<inode>`) when the record was written: a folder made
  /// again at the same path is another folder, and starts with no record.
  package var folder: String
  /// Per hashed base, per file name after the base.
  package private(set) var memos: [UInt64: [String: Entry]] = [:]

  /// The first line, which names the format and its version.
  static let heading = "stash import record 1"

  /// An empty record for the folder `folder` identifies.
  package init(folder: String) { self.folder = folder }

  /// The hash a base is kept under.
  package static func key(_ base: String) -> UInt64 {
    var hash = ContentHash()
    hash.update(Array(base.utf8))
    return hash.value
  }

  /// What was imported of `base`, by name after the base.
  package func files(of base: String) -> [String: Entry] { memos[Self.key(base)] ?? [:] }

  /// Records `entry` for the file `name` (relative to the folder) of `base`.
  package mutating func record(_ entry: Entry, base: String, name: String) {
    memos[Self.key(base), default: [:]][String(name.dropFirst(base.count))] = entry
  }

  /// The entry for the file `name` (relative to the folder) of `base`, or nil.
  package func entry(base: String, name: String) -> Entry? {
    memos[Self.key(base)]?[String(name.dropFirst(base.count))]
  }

  /// The record as written: the heading, the folder, then one line per file, sorted, each
  /// `<base hash> <name after the base> <size> <time> <content hash or ->`.
  package var text: String {
    var lines = [Self.heading, "folder \(folder)"]
    for key in memos.keys.sorted() {
      for (name, entry) in memos[key]!.sorted(by: { $0.key < $1.key }) {
        lines.append(
          "\(ContentHash.hex(key)) \(name) \(entry.size) \(entry.modificationTime) \(entry.hash.map(ContentHash.hex) ?? "-")"
        )
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Reads a record's text; nil with the line number when it is not one.
  package static func parse(_ text: String) -> Result<ImportRecord, ParseError> {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines[0] == heading else { return .failure(ParseError(line: 1)) }
    guard lines.count >= 3, lines[1].hasPrefix("folder ") else { return .failure(ParseError(line: 2)) }
    // A record ends with a line break: without one, its last line was cut short.
    guard lines.last == "" else { return .failure(ParseError(line: lines.count)) }
    var record = ImportRecord(folder: String(lines[1].dropFirst("folder ".count)))
    for (index, line) in lines.dropFirst(2).dropLast().enumerated() {
      let fields = line.split(separator: " ", omittingEmptySubsequences: false)
      guard fields.count == 5, fields[0].count == 16, let key = UInt64(fields[0], radix: 16),
        !fields[1].isEmpty,
        let size = Int(fields[2]), size >= 0, let time = Double(fields[3]), time.isFinite
      else { return .failure(ParseError(line: index + 3)) }
      let hash = fields[4].count == 16 ? UInt64(fields[4], radix: 16) : nil
      guard hash != nil || fields[4] == "-" else { return .failure(ParseError(line: index + 3)) }
      record.memos[key, default: [:]][String(fields[1])] = Entry(
        size: size, modificationTime: time, hash: hash)
    }
    return .success(record)
  }

  /// Where a record's text stops making sense.
  package struct ParseError: Error, Sendable, Equatable {
    /// The first line that is not what a record holds, from 1.
    package var line: Int
  }

}

extension ImportRecord {
  /// Where the record of the target folder at `resolvedTarget` lives, under `stateHome` (the
  /// `XDG_STATE_HOME`, or `~/.local/state`): `<stateHome>/stash/imports/<hash of the path>`.
  package static func path(forTarget resolvedTarget: String, stateHome: String) -> String {
    var hash = ContentHash()
    hash.update(Array(resolvedTarget.utf8))
    return stateHome + "/stash/imports/" + hash.hex
  }

  /// The state folder for this process's environment: `$XDG_STATE_HOME` when it is an absolute
  /// path, else `$HOME/.local/state`; nil when neither can be told.
  package static func stateHome(environment: (String) -> String?) -> String? {
    if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state }
    if let home = environment("HOME"), home.hasPrefix("/") {
      return (home == "/" ? "" : home) + "/.local/state"
    }
    return nil
  }

  /// Where the record of the folder at `resolvedTarget` lives and the folder's identity, for this
  /// process's environment; nil when the folder is not there (a dry run into a folder not made
  /// yet) or there is no state folder to keep a record in (no HOME). `stash import` and the
  /// browser's import both go through here.
  package static func location(
    forTarget resolvedTarget: String,
    environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }
  ) -> ImportOptions.RecordLocation? {
    var info = stat()
    guard stat(resolvedTarget, &info) == 0, let stateHome = stateHome(environment: environment) else {
      return nil
    }
    return ImportOptions.RecordLocation(
      path: path(forTarget: resolvedTarget, stateHome: stateHome), folder: "\(info.st_dev):\(info.st_ino)")
  }

  /// The record at `path` for the folder `folder` identifies: an empty one when there is none or it
  /// belongs to another folder once at this path; nil with why when it cannot be read or is damaged.
  static func load(_ path: String, folder: String, fileSystem fs: some FileSystem) -> (ImportRecord?, String?)
  {
    let bytes: [UInt8]
    do {
      guard try fs.status(path) != nil else { return (ImportRecord(folder: folder), nil) }
      bytes = try fs.read(path, limit: 256 << 20)
    } catch {
      return (nil, "\(error)")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return (nil, "\(PathText.escaped(path)): not a record stash wrote (not text)")
    }
    switch parse(text) {
    case .success(let record):
      return (record.folder == folder ? record : ImportRecord(folder: folder), nil)
    case .failure(let error):
      return (nil, "\(PathText.escaped(path)):\(error.line): not a record stash wrote (damaged)")
    }
  }

  /// Writes the record at `path` atomically (a temporary file in its folder, fsynced, renamed over
  /// the old record, the folder fsynced), making its folders (mode 0700) where missing, and
  /// removing the temporaries of a write of it that was killed.
  func save(_ path: String, fileSystem fs: some FileSystem) throws {
    let slash = path.lastIndex(of: "/")!
    let folder = String(path[..<slash])
    try fs.makeDirectories(folder)
    let name = String(path[path.index(after: slash)...])
    // What an import killed while it wrote this record left: its temporaries, by their shape.
    for leftover in try fs.list(folder) where TemporaryName.finalName(of: leftover) == name {
      try? fs.unlink(folder + "/" + leftover)
    }
    try AtomicFile.write(Array(text.utf8), named: name, in: folder, mode: .replace, fileSystem: fs)
  }
}
