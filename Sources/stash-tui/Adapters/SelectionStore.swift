import StashBrowser
import StashFormat
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// The memo selected last in a folder, kept beside the places memos were left off
/// (`$XDG_STATE_HOME/stash/selections`, a `SelectionBook`), so reopening the folder selects it
/// again. Nothing is written into the memo folder. The folder is known by a hash of its resolved
/// path and the memo by a hash of its base (XXH64, as `PositionStore` keys audio), so the file
/// holds no name.
///
/// A write holds the state folder's lock, reads the file again, sets this folder's entry and
/// writes it atomically (StashRecover's `AtomicFile`). A file that is not a book is left as it is:
/// nothing is remembered over it, and no memo is selected from it.
final class SelectionStore {
  /// The state folder (the one `PositionStore` uses).
  let places: PositionStore
  /// The hash of the memo folder's resolved path.
  let folderKey: String
  /// The hash of the memo to select once the folder is listed; nil once done.
  private var wanted: String?
  private let fileSystem = SystemFileSystem()
  /// The largest book read (1,000 folders take about 45 KB).
  static let fileLimit = 1 << 20

  /// The memory of the folder `memoFolder` in the state folder of `places`.
  init(places: PositionStore, memoFolder: String) {
    self.places = places
    folderKey = SelectionStore.hash((try? MemoFolderPath.resolve(memoFolder)) ?? memoFolder)
    if case .success(let book)? = load() { wanted = book.entries[folderKey]?.memo }
  }

  /// The store the environment names (as `PositionStore.fromEnvironment`), for `memoFolder`.
  static func fromEnvironment(memoFolder: String) -> SelectionStore? {
    PositionStore.fromEnvironment().map { SelectionStore(places: $0, memoFolder: memoFolder) }
  }

  var file: String { places.folder + "/selections" }

  /// XXH64 of `text`'s UTF-8 bytes as 16 hex digits.
  static func hash(_ text: String) -> String { ContentHash.hex(hashValue(text)) }

  /// XXH64 of `text`'s UTF-8 bytes.
  static func hashValue(_ text: String) -> UInt64 {
    var text = text
    return text.withUTF8 { bytes in
      var hash = ContentHash()
      hash.update(UnsafeRawBufferPointer(bytes))
      return hash.value
    }
  }

  /// The memo of `rows` remembered for this folder, the first time it is asked (the open's
  /// listing); nil after, or when it is not listed.
  func restore(in rows: MemoList) -> String? {
    guard let memo = wanted else { return nil }
    wanted = nil
    // Compared as numbers: each base's hash written out in hex was most of a pass that, for a memo
    // far down a folder of 100,000, stood between the browser and its first screen.
    guard let key = UInt64(memo, radix: 16) else { return nil }
    for position in rows.indices {
      let base = rows.base(at: position)
      if SelectionStore.hashValue(base) == key { return base }
    }
    return nil
  }

  /// Remembers `base` as this folder's memo; a warning when it cannot.
  func remember(_ base: String) -> String? {
    do {
      try places.makeFolder()
      let lock = try FolderLock.acquire(places.folder, wait: true, fileSystem: fileSystem)
      defer { lock.release() }
      var book = SelectionBook()
      switch load() {
      case nil: break
      case .success(let read)?: book = read
      case .failure?: return nil  // not ours to write over
      }
      book.set(.init(memo: SelectionStore.hash(base), updated: Int(time(nil))), for: folderKey)
      try AtomicFile.write(
        Array(book.text.utf8), named: "selections", in: places.folder, mode: .replace, fileSystem: fileSystem)
      return nil
    } catch {
      return "Cannot remember the memo selected: \(error)"
    }
  }

  /// The book on disk: nil when there is none, a failure when it is not a book.
  private func load() -> Result<SelectionBook, SelectionBook.Damage>? {
    guard (try? fileSystem.status(file)) != nil else { return nil }
    guard let bytes = try? fileSystem.read(file, limit: SelectionStore.fileLimit),
      let text = String(validating: bytes, as: UTF8.self)
    else { return .failure(.init(line: 1, reason: "unreadable")) }
    return SelectionBook.parse(text)
  }
}
