import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// Watches the memo folder and its `<base>.parts/` folders with inotify, so the list follows
/// changes made outside. It only says that something changed; the loop debounces and re-reads.
final class FolderWatcher {
  /// The inotify descriptor, for `poll`; -1 when inotify is unavailable.
  let descriptor: Int32
  private let folder: String
  /// Watches on parts folders, by watch descriptor.
  private var partsWatches: [Int32: String] = [:]
  /// Why watching is not possible, when it is not.
  private(set) var unavailable: String?

  /// What a change in the folder may be: a finished write, a rename in or out, a deletion.
  private static let fileMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
  /// The folder also reports new folders (a parts folder appearing) and its own removal.
  private static let folderMask = fileMask | UInt32(IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF)

  /// Starts watching `folder` (`inotify_init1`, `inotify_add_watch`).
  init(folder: String) {
    self.folder = folder
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    if descriptor < 0 {
      unavailable = "inotify: " + String(cString: strerror(errno))
      return
    }
    if inotify_add_watch(descriptor, folder, FolderWatcher.folderMask) < 0 {
      unavailable = "inotify: " + String(cString: strerror(errno))
    }
  }

  deinit {
    if descriptor >= 0 { Glibc.close(descriptor) }
  }

  /// Watches each parts folder named, and stops watching those no longer listed.
  func watchParts(_ names: [String]) {
    guard descriptor >= 0 else { return }
    let wanted = Set(names)
    for (wd, name) in partsWatches where !wanted.contains(name) {
      inotify_rm_watch(descriptor, wd)
      partsWatches[wd] = nil
    }
    let have = Set(partsWatches.values)
    for name in wanted where !have.contains(name) {
      let wd = inotify_add_watch(descriptor, PathText.join(folder, name), FolderWatcher.fileMask)
      if wd >= 0 { partsWatches[wd] = name }
    }
  }

  /// Reads every pending event; true when any could change the listing.
  func drain() -> Bool {
    guard descriptor >= 0 else { return false }
    var changed = false
    var buffer = [UInt8](repeating: 0, count: 16384)
    while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if n <= 0 { break }
      var offset = 0
      while offset + MemoryLayout<inotify_event>.size <= n {
        let (wd, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, UInt32) in
          let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          return (event.wd, event.mask, event.len)
        }
        if mask & UInt32(IN_IGNORED) != 0 {
          partsWatches[wd] = nil
        } else {
          changed = true
        }
        offset += MemoryLayout<inotify_event>.size + Int(length)
      }
    }
    return changed
  }
}
