#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A regular file opened for reading only. Every read is a `pread`, so nothing is loaded that is
/// not asked for, and FIFOs, sockets and devices are refused before they can block a reader.
public final class ReadOnlyFile {
  /// The path as given.
  public let path: String
  /// Size in bytes when opened.
  public let size: Int
  /// Last modification, seconds since 1970 (UTC).
  public let modificationTime: Double
  private let descriptor: Int32

  /// Opens `path` (`open(2)` with `O_RDONLY|O_NONBLOCK|O_CLOEXEC`, then `fstat(2)`); a file that is
  /// not regular is refused with a message that names its kind.
  ///
  /// `listedAsRegularFile` says the folder's own listing (`d_type`) has just called the name a
  /// regular file, not a link: the `stat(2)` that otherwise refuses a device before it is opened
  /// is then skipped, and `O_NOFOLLOW` keeps a link put there since from being followed.
  public convenience init(path: String, listedAsRegularFile: Bool = false) throws(FormatError) {
    try self.init(FileLocation(path: path), listedAsRegularFile: listedAsRegularFile)
  }

  /// Opens the file at `location` as `init(path:listedAsRegularFile:)` does; a file in an open
  /// folder is opened by its name there (`openat(2)`), without walking the folder's path again.
  package init(_ location: FileLocation, listedAsRegularFile: Bool = false) throws(FormatError) {
    let path = location.path
    self.path = path
    if !listedAsRegularFile {
      // Refuse what is not a regular file before opening it: opening a device can itself act.
      var before = stat()
      guard location.withRelativePath({ fstatat($0, $1, &before, 0) }) == 0 else {
        throw Self.error(errno, path: path, doing: "open")
      }
      guard (before.st_mode & S_IFMT) == S_IFREG else {
        throw FormatError(
          code: .notAFile, message: "\(Self.kind(of: before.st_mode)), not a regular file: it is not read",
          path: path)
      }
    }
    // O_NONBLOCK keeps a FIFO from blocking the open; it is refused just below.
    let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (listedAsRegularFile ? O_NOFOLLOW : 0)
    let fd = location.withRelativePath { folder, name in Self.retrying { openat(folder, name, flags) } }
    guard fd >= 0 else { throw Self.error(errno, path: path, doing: "open") }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw Self.error(code, path: path, doing: "inspect")
    }
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      close(fd)
      throw FormatError(
        code: .notAFile, message: "\(Self.kind(of: info.st_mode)), not a regular file: it is not read",
        path: path)
    }
    descriptor = fd
    size = Int(info.st_size)
    modificationTime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
  }

  deinit { close(descriptor) }

  /// Up to `count` bytes at `offset` (`pread(2)`, retried on EINTR and short reads); fewer only at
  /// the end of the file.
  public func read(at offset: Int, count: Int) throws(FormatError) -> [UInt8] {
    guard offset >= 0, count > 0, offset < size else { return [] }
    let wanted = min(count, size - offset)
    var done = 0
    var failure: Int32 = 0
    // Read straight into the array's storage: zero-filling it first would touch every byte twice.
    let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
      while done < wanted {
        let n = Self.retrying {
          pread(descriptor, buffer.baseAddress! + done, wanted - done, off_t(offset + done))
        }
        if n < 0 {
          failure = errno
          break
        }
        if n == 0 { break }
        done += n
      }
      initialized = done
    }
    if failure != 0 {
      throw Self.error(failure, path: path, doing: "read", location: SourceLocation(offset: offset + done))
    }
    return bytes
  }

  /// The whole file, refusing one larger than `limit` bytes.
  public func readAll(limit: Int = 1 << 30) throws(FormatError) -> [UInt8] {
    guard size <= limit else {
      throw FormatError(
        code: .tooLarge, message: "the file is \(size) bytes, more than the \(limit) this reader accepts",
        path: path)
    }
    return try read(at: 0, count: size)
  }

  /// Reads a whole regular file in one call.
  public static func contents(of path: String, limit: Int = 1 << 30) throws(FormatError) -> [UInt8] {
    try ReadOnlyFile(path: path).readAll(limit: limit)
  }

  static func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
      let result = call()
      if result < 0 && errno == EINTR { continue }
      return result
    }
  }

  static func error(_ code: Int32, path: String, doing: String, location: SourceLocation = .init())
    -> FormatError
  {
    FormatError(
      code: .io, message: "cannot \(doing) the file: \(String(cString: strerror(code)))", path: path,
      location: location)
  }

  static func kind(of mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a folder"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFLNK: "a symbolic link"
    default: "not a regular file"
    }
  }
}
