import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reading a folder's names in one pass (`opendir(3)`/`readdir(3)`), never recursing.
package enum DirectoryReader {
  /// Every name in the folder at `path` except `.` and `..`, in the order the file system gives.
  /// Only symlinks and names whose kind the file system does not report are `stat`ed. With
  /// `readingAhead`, the folder is read on a thread of its own meanwhile (`forEachNameReadingAhead`):
  /// for a memo folder, which may hold hundreds of thousands of names; not for a small one, where
  /// starting the thread costs more than it saves.
  package static func entries(of path: String, readingAhead: Bool = false) throws(FormatError)
    -> [DirectoryEntry]
  {
    var entries: [DirectoryEntry] = []
    let prefix = path.hasSuffix("/") ? path : path + "/"
    let add = { (name: UnsafeRawBufferPointer, type: Int32) in
      entries.append(DirectoryEntry(bytes: name, kind: Self.kind(type: type, prefix: prefix, name: name)))
    }
    if readingAhead {
      try forEachNameReadingAhead(of: path, add)
    } else {
      try forEachName(of: path, add)
    }
    return entries
  }

  /// Calls `body` with every name in the folder at `path` except `.` and `..` (its bytes, valid
  /// only during the call) and its `d_type`, in the order the file system gives.
  package static func forEachName(
    of path: String, _ body: (UnsafeRawBufferPointer, Int32) -> Void
  ) throws(FormatError) {
    guard let directory = opendir(path) else { throw unreadable(path, errno) }
    defer { closedir(directory) }
    try forEach(in: directory, path: path, body)
  }

  /// As `forEachName`, with the folder read ahead on a thread of its own while `body` runs on
  /// this one: the names are copied, a batch at a time, into a few buffers handed between the two,
  /// so the kernel's reading of a large folder and the caller's work on its names overlap (on a
  /// folder of 200,000 names, most of the time is the kernel's). The same names in the same order;
  /// without a thread to be had, the names are read on this one.
  package static func forEachNameReadingAhead(
    of path: String, _ body: (UnsafeRawBufferPointer, Int32) -> Void
  ) throws(FormatError) {
    guard let directory = opendir(path) else { throw unreadable(path, errno) }
    defer { closedir(directory) }
    let handoff = ReadAhead()
    let shared = UnsafeTransfer((directory: directory, handoff: handoff))
    guard let thread = Threads.start({ shared.value.handoff.fill(from: shared.value.directory) }) else {
      try forEach(in: directory, path: path, body)
      return
    }
    handoff.drain(body)
    pthread_join(thread, nil)
    if handoff.failure != 0 { throw unreadable(path, handoff.failure) }
  }

  /// The error of a folder that cannot be read (`folder-unreadable`), for the `errno` given.
  private static func unreadable(_ path: String, _ code: Int32) -> FormatError {
    FormatError(
      code: .folderUnreadable, message: "cannot read the folder: \(String(cString: strerror(code)))",
      path: path)
  }

  /// What `forEachName` does once the folder is open.
  private static func forEach(
    in directory: OpaquePointer, path: String, _ body: (UnsafeRawBufferPointer, Int32) -> Void
  ) throws(FormatError) {
    while true {
      errno = 0
      guard let raw = readdir(directory) else {
        if errno != 0 { throw unreadable(path, errno) }
        break
      }
      let type = Int32(raw.pointee.d_type)
      withUnsafeBytes(of: &raw.pointee.d_name) { buffer in
        let name = UnsafeRawBufferPointer(rebasing: buffer[..<(buffer.firstIndex(of: 0) ?? buffer.count)])
        if name.count <= 2 && name.allSatisfy({ $0 == 0x2E }) { return }
        body(name, type)
      }
    }
  }

  /// The kind `d_type` gives, or, for symlinks and names it leaves unknown, what `stat` finds.
  static func kind(type: Int32, prefix: String, name: UnsafeRawBufferPointer) -> DirectoryEntry.Kind {
    let kind: DirectoryEntry.Kind
    switch type {
    case Int32(DT_REG): kind = .file
    case Int32(DT_DIR): kind = .folder
    case Int32(DT_FIFO): kind = .fifo
    case Int32(DT_SOCK): kind = .socket
    case Int32(DT_CHR), Int32(DT_BLK): kind = .device
    default: kind = Self.kindByStat(prefix, Array(name))
    }
    return kind
  }

  /// The kind of a symlink's target or of a name `d_type` left unknown (`lstat(2)`, then `stat(2)`).
  static func kindByStat(_ prefix: String, _ name: [UInt8]) -> DirectoryEntry.Kind {
    var path = Array(prefix.utf8)
    path.append(contentsOf: name)
    path.append(0)
    return path.withUnsafeBufferPointer { buffer -> DirectoryEntry.Kind in
      let cPath = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
      var info = stat()
      guard lstat(cPath, &info) == 0 else { return .other }
      if (info.st_mode & S_IFMT) != S_IFLNK { return kind(of: info.st_mode) }
      var target = stat()
      guard stat(cPath, &target) == 0 else {
        return errno == ENOENT || errno == ENOTDIR ? .brokenSymlink : .unfollowableSymlink
      }
      switch kind(of: target.st_mode) {
      case .file: return .symlinkToFile
      case .folder: return .symlinkToFolder
      case let other: return other
      }
    }
  }

  static func kind(of mode: mode_t) -> DirectoryEntry.Kind {
    switch mode & S_IFMT {
    case S_IFREG: .file
    case S_IFDIR: .folder
    case S_IFIFO: .fifo
    case S_IFSOCK: .socket
    case S_IFCHR, S_IFBLK: .device
    default: .other
    }
  }
}

/// The buffers `DirectoryReader.forEachNameReadingAhead` hands from the thread that reads the
/// folder to the one that takes its names: each holds names end to end, each as its `d_type`, its
/// length in two bytes and its bytes. The reading thread fills a free buffer, publishes it (its
/// length, and whether it is the last) and signals `filled`; the taking thread waits on `filled`,
/// goes through it and signals `free`. The semaphores order every access to a buffer and its
/// length, so the two threads never touch one at once.
private final class ReadAhead: @unchecked Sendable {
  static let buffers = 4
  static let capacity = 128 << 10
  private let storage = UnsafeMutableRawPointer.allocate(byteCount: buffers * capacity, alignment: 16)
  /// Each buffer's length in bytes, and whether it is the last.
  private let lengths = UnsafeMutablePointer<Int>.allocate(capacity: buffers)
  private let ends = UnsafeMutablePointer<Bool>.allocate(capacity: buffers)
  private let filled = DispatchSemaphore(value: 0)
  private let free = DispatchSemaphore(value: buffers)
  /// The `errno` of a failed `readdir(3)`, or 0; read only once the reading thread is joined.
  private(set) var failure: Int32 = 0

  deinit {
    storage.deallocate()
    lengths.deallocate()
    ends.deallocate()
  }

  /// On the reading thread: every name of `directory` but `.` and `..`, into the buffers in turn.
  func fill(from directory: OpaquePointer) {
    var slot = 0
    var used = 0
    free.wait()
    func publish(last: Bool) {
      lengths[slot] = used
      ends[slot] = last
      filled.signal()
      slot = (slot + 1) % ReadAhead.buffers
      used = 0
    }
    while true {
      errno = 0
      guard let raw = readdir(directory) else {
        failure = errno
        publish(last: true)
        return
      }
      let type = UInt8(truncatingIfNeeded: raw.pointee.d_type)
      withUnsafeBytes(of: &raw.pointee.d_name) { buffer in
        let count = buffer.firstIndex(of: 0) ?? buffer.count
        if count <= 2 && buffer[..<count].allSatisfy({ $0 == 0x2E }) { return }
        if used + 3 + count > ReadAhead.capacity {
          publish(last: false)
          free.wait()
        }
        let at = storage + slot * ReadAhead.capacity + used
        at.storeBytes(of: type, as: UInt8.self)
        at.storeBytes(of: UInt8(count & 0xFF), toByteOffset: 1, as: UInt8.self)
        at.storeBytes(of: UInt8(count >> 8), toByteOffset: 2, as: UInt8.self)
        if count > 0 { (at + 3).copyMemory(from: buffer.baseAddress!, byteCount: count) }
        used += 3 + count
      }
    }
  }

  /// On the taking thread: `body` for every name, in order, until the last buffer.
  func drain(_ body: (UnsafeRawBufferPointer, Int32) -> Void) {
    var slot = 0
    while true {
      filled.wait()
      let start = UnsafeRawPointer(storage + slot * ReadAhead.capacity)
      var at = 0
      while at < lengths[slot] {
        let type = Int32(start.load(fromByteOffset: at, as: UInt8.self))
        let count =
          Int(start.load(fromByteOffset: at + 1, as: UInt8.self))
          | Int(start.load(fromByteOffset: at + 2, as: UInt8.self)) << 8
        body(UnsafeRawBufferPointer(start: start + at + 3, count: count), type)
        at += 3 + count
      }
      let last = ends[slot]
      free.signal()
      if last { return }
      slot = (slot + 1) % ReadAhead.buffers
    }
  }
}
