#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One name in a folder as `readdir(3)` gave it, with its kind; the file itself is not opened.
public struct DirectoryEntry: Sendable, Equatable {
  /// What kind of thing a name points at.
  public enum Kind: String, Sendable, Equatable {
    case file, folder, symlinkToFile, symlinkToFolder, brokenSymlink, fifo, socket, device, other

    /// Whether reading it as a regular file is safe (a symlink is followed, but only to a file).
    public var isReadableFile: Bool { self == .file || self == .symlinkToFile }
    /// Whether it is a folder, directly or through a symlink.
    public var isFolder: Bool { self == .folder || self == .symlinkToFolder }

    /// Plain words for messages.
    public var words: String {
      switch self {
      case .file: "a file"
      case .folder: "a folder"
      case .symlinkToFile: "a symbolic link to a file"
      case .symlinkToFolder: "a symbolic link to a folder"
      case .brokenSymlink: "a symbolic link that leads nowhere"
      case .fifo: "a FIFO"
      case .socket: "a socket"
      case .device: "a device"
      case .other: "not a regular file"
      }
    }
  }

  /// The name's bytes exactly as stored; a name need not be UTF-8.
  public var bytes: [UInt8]
  /// The name as text when it is valid UTF-8, else nil.
  public var name: String?
  /// The kind, from `d_type` where the file system gives it, else from `stat(2)`.
  public var kind: Kind

  /// The name made safe to print: invalid UTF-8 bytes as `\xNN`, control characters escaped.
  public var printableName: String {
    if let name { return PathText.escaped(name) }
    // Escape each valid run, and write each invalid byte as `\xNN` (not escaped a second time).
    var out = ""
    var run: [UInt8] = []
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
      if length > 0, index + length <= bytes.count,
        String(validating: bytes[index..<index + length], as: UTF8.self) != nil
      {
        run.append(contentsOf: bytes[index..<index + length])
        index += length
      } else {
        out += PathText.escaped(String(decoding: run, as: UTF8.self)) + PathText.decode([lead])
        run.removeAll()
        index += 1
      }
    }
    return out + PathText.escaped(String(decoding: run, as: UTF8.self))
  }

  /// Creates an entry; `name` is decoded from `bytes` when they are valid UTF-8.
  public init(bytes: [UInt8], kind: Kind) {
    self.bytes = bytes
    self.name = String(validating: bytes, as: UTF8.self)
    self.kind = kind
  }
}

/// Reading a folder's names in one pass (`opendir(3)`/`readdir(3)`), never recursing.
public enum DirectoryReader {
  /// Every name in the folder at `path` except `.` and `..`, in the order the file system gives.
  /// Only symlinks and names whose kind the file system does not report are `stat`ed.
  public static func entries(of path: String) throws(FormatError) -> [DirectoryEntry] {
    guard let directory = opendir(path) else {
      throw FormatError(
        code: "folder-unreadable",
        message: "cannot read the folder: \(String(cString: strerror(errno)))", path: path)
    }
    defer { closedir(directory) }
    var entries: [DirectoryEntry] = []
    let prefix = path.hasSuffix("/") ? path : path + "/"
    while true {
      errno = 0
      guard let raw = readdir(directory) else {
        if errno != 0 {
          throw FormatError(
            code: "folder-unreadable",
            message: "cannot read the folder: \(String(cString: strerror(errno)))", path: path)
        }
        break
      }
      let bytes = withUnsafeBytes(of: &raw.pointee.d_name) { buffer -> [UInt8] in
        let length = buffer.firstIndex(of: 0) ?? buffer.count
        return Array(buffer[..<length])
      }
      if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
      let kind: DirectoryEntry.Kind
      switch Int32(raw.pointee.d_type) {
      case Int32(DT_REG): kind = .file
      case Int32(DT_DIR): kind = .folder
      case Int32(DT_FIFO): kind = .fifo
      case Int32(DT_SOCK): kind = .socket
      case Int32(DT_CHR), Int32(DT_BLK): kind = .device
      default: kind = Self.kindByStat(prefix, bytes)
      }
      entries.append(DirectoryEntry(bytes: bytes, kind: kind))
    }
    return entries
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
