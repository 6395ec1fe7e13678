#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reading a folder's names in one pass (`opendir(3)`/`readdir(3)`), never recursing.
package enum DirectoryReader {
  /// Every name in the folder at `path` except `.` and `..`, in the order the file system gives.
  /// Only symlinks and names whose kind the file system does not report are `stat`ed.
  package static func entries(of path: String) throws(FormatError) -> [DirectoryEntry] {
    var entries: [DirectoryEntry] = []
    let prefix = path.hasSuffix("/") ? path : path + "/"
    try forEachName(of: path) { name, type in
      entries.append(DirectoryEntry(bytes: name, kind: Self.kind(type: type, prefix: prefix, name: name)))
    }
    return entries
  }

  /// Calls `body` with every name in the folder at `path` except `.` and `..` (its bytes, valid
  /// only during the call) and its `d_type`, in the order the file system gives.
  package static func forEachName(
    of path: String, _ body: (UnsafeRawBufferPointer, Int32) -> Void
  ) throws(FormatError) {
    guard let directory = opendir(path) else {
      throw FormatError(
        code: .folderUnreadable,
        message: "cannot read the folder: \(String(cString: strerror(errno)))", path: path)
    }
    defer { closedir(directory) }
    while true {
      errno = 0
      guard let raw = readdir(directory) else {
        if errno != 0 {
          throw FormatError(
            code: .folderUnreadable,
            message: "cannot read the folder: \(String(cString: strerror(errno)))", path: path)
        }
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
      guard stat(cPath, &target) == 0 else { return .brokenSymlink }
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
