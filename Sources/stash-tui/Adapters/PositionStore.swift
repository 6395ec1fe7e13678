import StashBrowser
import StashFormat
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// Where memos were left off, kept outside every memo folder in `$XDG_STATE_HOME/stash/positions`
/// (by default `~/.local/state/stash/positions`), as a `PositionBook`.
///
/// A memo is known by its audio, not its name: XXH64 of the audio file's first 64 KiB, and the
/// file's size. So a memo whose files are renamed, or copied to another folder, is still known; one
/// whose audio is rewritten (repaired, trimmed, re-encoded) is not, and starts from the beginning.
///
/// Every write holds an exclusive lock on the state folder, reads the file again, applies only the
/// places this browser changed, and writes it atomically (StashRecover's `AtomicFile`): two
/// browsers at once lose neither's places, and a reader never sees half a file. A file that is not
/// a book is renamed aside (never deleted) and a new one started, with a warning.
final class PositionStore {
  /// The state folder.
  let folder: String
  /// The book's path.
  var file: String { folder + "/positions" }
  /// Bytes of the audio hashed for its key.
  static let keyBytes = 65_536
  /// The largest book read (10,000 places take about 600 KB).
  static let fileLimit = 8 << 20
  private let fileSystem = SystemFileSystem()

  /// The store in `folder`.
  init(folder: String) { self.folder = folder }

  /// The store the environment names: `$XDG_STATE_HOME/stash` when that is an absolute path (as
  /// the XDG specification asks), else `$HOME/.local/state/stash`; nil without either.
  static func fromEnvironment() -> PositionStore? {
    if let state = Environment.value("XDG_STATE_HOME"), state.hasPrefix("/") {
      return PositionStore(folder: state + "/stash")
    }
    guard let home = Environment.value("HOME"), home.hasPrefix("/") else { return nil }
    return PositionStore(folder: home + "/.local/state/stash")
  }

  /// The key of the memo whose audio is `path`, or nil when it cannot be read.
  static func key(audio path: String) -> String? {
    // ReadOnlyFile refuses what is not a regular file and reads through short reads and interrupted calls.
    guard let file = try? ReadOnlyFile(path: path) else { return nil }
    let count = min(keyBytes, file.size)
    guard let bytes = try? file.read(at: 0, count: count), bytes.count == count else { return nil }
    var hash = ContentHash()
    hash.update(bytes)
    return hash.hex + "-\(file.size)"
  }

  /// Where the memo with `key` was left off, or nil; and a warning when the book was damaged (it
  /// is set aside then).
  func position(of key: String) -> (Double?, warning: String?) {
    let (book, warning) = load(lockedAlready: false)
    return (book.entries[key]?.position, warning)
  }

  /// The book as it is on disk now, to mark the memos left off partway; nil when there is none or
  /// it cannot be read (a damaged book is set aside when a memo is played, not here).
  func snapshot() -> PositionBook? {
    guard let bytes = try? fileSystem.read(file, limit: PositionStore.fileLimit),
      let text = String(validating: bytes, as: UTF8.self), case .success(let book) = PositionBook.parse(text)
    else { return nil }
    return book
  }

  /// Remembers (or, with nil, forgets) places, merged into the book as it is on disk now; a
  /// warning when it was damaged or could not be written.
  func record(_ changes: [String: PositionBook.Entry?]) -> String? {
    do {
      try makeFolder()
      let lock = try FolderLock.acquire(folder, wait: true, fileSystem: fileSystem)
      defer { lock.release() }
      var (book, warning) = load(lockedAlready: true)
      if warning != nil && book.entries.isEmpty && (try? fileSystem.status(file)) != nil {
        // Unreadable but not damaged (permissions): leave it be rather than write over it.
        return warning
      }
      book.apply(changes)
      try AtomicFile.write(
        Array(book.text.utf8), named: "positions", in: folder, mode: .replace, fileSystem: fileSystem)
      return warning
    } catch {
      return "Cannot remember where the memo was left off: \(error)"
    }
  }

  /// The book on disk; a damaged one is set aside (under the lock) and an empty book returned.
  private func load(lockedAlready: Bool) -> (PositionBook, String?) {
    let bytes: [UInt8]
    do {
      guard try fileSystem.status(file) != nil else { return (PositionBook(), nil) }
      bytes = try fileSystem.read(file, limit: PositionStore.fileLimit)
    } catch {
      if error.code == .tooLarge {
        return setAside(reason: "it is larger than a book of places can be", lockedAlready: lockedAlready)
      }
      return (PositionBook(), "Cannot read where memos were left off: \(error)")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return setAside(reason: "it is not UTF-8 text", lockedAlready: lockedAlready)
    }
    switch PositionBook.parse(text) {
    case .success(let book): return (book, nil)
    case .failure(let damage):
      return setAside(reason: damage.description, lockedAlready: lockedAlready)
    }
  }

  /// Renames the damaged book to `positions.damaged-<date>` and says so.
  private func setAside(reason: String, lockedAlready: Bool) -> (PositionBook, String?) {
    var lock: FolderLock?
    if !lockedAlready {
      lock = try? FolderLock.acquire(folder, wait: true, fileSystem: fileSystem)
      // Another browser may have set it aside (and written a new one) meanwhile.
      if let bytes = try? fileSystem.read(file, limit: PositionStore.fileLimit),
        let text = String(validating: bytes, as: UTF8.self),
        case .success(let book) = PositionBook.parse(text)
      {
        return (book, nil)
      }
    }
    defer { lock?.release() }
    let stamp = PositionStore.stamp()
    var name = "positions.damaged-\(stamp)"
    var n = 1
    while (try? fileSystem.status(folder + "/" + name)) != nil {
      n += 1
      name = "positions.damaged-\(stamp)-\(n)"
    }
    do {
      try fileSystem.renameNoReplace(file, folder + "/" + name)
      try fileSystem.syncDirectory(folder)
    } catch {
      return (
        PositionBook(),
        "The file of places memos were left off is damaged (\(reason)) and cannot be set aside: \(error)"
      )
    }
    return (
      PositionBook(),
      "Where memos were left off could not be read (\(reason)): set aside as "
        + PathTextShort.make(folder + "/" + name, home: Environment.value("HOME")) + "; starting afresh."
    )
  }

  /// The time now as `2026-12-02T013000Z` (ISO 8601 in UTC, without the colons a file name
  /// would rather not have).
  private static func stamp() -> String {
    String(RecordingDate.isoUTC(Double(time(nil))).filter { $0 != ":" })
  }

  /// Makes the state folder and any missing parent, each 0700 as the XDG specification asks.
  func makeFolder() throws {
    var path = ""
    for component in folder.split(separator: "/") {
      path += "/" + component
      if try fileSystem.status(path) == nil {
        do {
          try fileSystem.makeDirectory(path)
        } catch {
          // Another browser made it meanwhile.
          guard error.number == EEXIST else { throw error }
        }
      }
    }
  }
}

/// The places of one reading of the book, to tell which memos of a listing were left off
/// partway. Only a memo whose audio has a size some key names is hashed, so a folder of memos
/// never played costs a `stat` each.
struct HeardPlaces: Sendable {
  let book: PositionBook
  private let sizes: Set<Int>

  /// The places in `book`; nil when it has none.
  init?(_ book: PositionBook?) {
    guard let book, !book.entries.isEmpty else { return nil }
    self.book = book
    sizes = book.sizes
  }

  /// Marks the rows read (`MemoRow.partlyHeard`), their audio found by `audioPath` from a base.
  func mark(_ rows: inout [(index: Int, row: MemoRow)], audioPath: (String) -> String) {
    for at in rows.indices where rows[at].row.audio != .missing {
      let row = rows[at].row
      rows[at].row.partlyHeard = isPartlyHeard(audio: audioPath(row.base), duration: row.durationSeconds)
    }
  }

  /// Whether the memo whose audio is `path`, `duration` seconds long, was left off partway.
  func isPartlyHeard(audio path: String, duration: Double?) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0, sizes.contains(Int(info.st_size)),
      let key = PositionStore.key(audio: path)
    else { return false }
    return book.isPartlyHeard(key: key, duration: duration)
  }
}
