#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A regular file opened for reading only. Every read is a `pread`, so nothing is loaded that is
/// not asked for, and FIFOs, sockets and devices are refused before they can block a reader.
public final class ReadOnlyFile {
  /// The path as given.
  public var path: String { location.path }
  private let location: FileLocation
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
    self.location = location
    let fd = try Self.open(location, listedAsRegularFile: listedAsRegularFile)
    let info: stat
    do {
      info = try Self.regularFileInfo(fd, path: location.path)
    } catch {
      close(fd)
      throw error
    }
    descriptor = fd
    size = Int(info.st_size)
    modificationTime = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
  }

  /// The descriptor of the file at `location`, opened as `init` opens it, before its `fstat(2)`.
  private static func open(_ location: FileLocation, listedAsRegularFile: Bool) throws(FormatError) -> Int32 {
    if !listedAsRegularFile {
      // Refuse what is not a regular file before opening it: opening a device can itself act.
      var before = stat()
      guard location.withRelativePath({ fstatat($0, $1, &before, 0) }) == 0 else {
        throw error(errno, path: location.path, doing: "open")
      }
      guard (before.st_mode & S_IFMT) == S_IFREG else {
        throw notRegular(before.st_mode, path: location.path)
      }
    }
    // O_NONBLOCK keeps a FIFO from blocking the open; it is refused just below.
    let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (listedAsRegularFile ? O_NOFOLLOW : 0)
    let fd = location.withRelativePath { folder, name in SystemCall.retrying { openat(folder, name, flags) } }
    guard fd >= 0 else { throw error(errno, path: location.path, doing: "open") }
    return fd
  }

  /// What `fstat(2)` says of the open `fd`, refusing a file that is not regular; `fd` stays open.
  private static func regularFileInfo(_ fd: Int32, path: @autoclosure () -> String) throws(FormatError)
    -> stat
  {
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw error(errno, path: path(), doing: "inspect") }
    guard (info.st_mode & S_IFMT) == S_IFREG else { throw notRegular(info.st_mode, path: path()) }
    return info
  }

  private static func notRegular(_ mode: mode_t, path: String) -> FormatError {
    FormatError(code: .notAFile, message: "\(kind(of: mode)), not a regular file: it is not read", path: path)
  }

  /// The first `count` bytes of the file at `location` (fewer only at its end), opened as `init`
  /// opens it, for a reader that needs no more than a file's start: a transcript's signature.
  package static func start(_ location: FileLocation, count: Int, listedAsRegularFile: Bool)
    throws(FormatError)
    -> [UInt8]
  {
    try readStart(location, count: count, listedAsRegularFile: listedAsRegularFile, sized: false).bytes
  }

  /// The first `count` bytes of the file at `location` and its size in bytes, for a file that is
  /// usually smaller than `count`: a title.
  package static func start(
    sizedUpTo count: Int, of location: FileLocation, listedAsRegularFile: Bool
  ) throws(FormatError) -> (bytes: [UInt8], size: Int) {
    try readStart(location, count: count, listedAsRegularFile: listedAsRegularFile, sized: true)
  }

  /// The whole file at `location`, for a file seldom longer than `count` bytes (a transcript):
  /// read as `start(sizedUpTo:of:listedAsRegularFile:)` reads it, and a longer one read again
  /// whole through the same descriptor, to the size `fstat(2)` gave; refused past `limit` bytes
  /// as `readAll` refuses it. A longer one is not opened a second time (an open, an `fstat` and
  /// a close more for each of the 460 transcripts past 64 kB in 10,000 memos).
  package static func contents(
    of location: FileLocation, usuallyUpTo count: Int, listedAsRegularFile: Bool, limit: Int = 1 << 30
  ) throws(FormatError) -> [UInt8] {
    guard listedAsRegularFile else { return try ReadOnlyFile(location).readAll(limit: limit) }
    let read = try readStart(location, count: count, listedAsRegularFile: true, sized: true, wholeUpTo: limit)
    try refuse(read.size, over: limit, path: location.path)
    return read.bytes
  }

  /// `start`: with `listedAsRegularFile`, the file is opened, read with one `pread(2)` (of one
  /// byte more than `count` when its size is asked for) and closed, with no `fstat(2)` when that
  /// read brings bytes and, for a size, ends the file: a read of a regular file stops short only
  /// at its end, so the bytes read are its size. A read that brings nothing, fails (a FIFO or a
  /// socket cannot be read at an offset, a folder cannot be read at all), or fills a buffer meant
  /// to hold the whole file is followed by the `fstat`, so that what is put under the name since
  /// the listing is refused as `init` refuses it, and a larger file is given its size. Without
  /// the flag, as `init`, then `read(at:count:)`. With `wholeUpTo` (and a size asked for), a
  /// larger file is read whole, as `readAll(limit:)` reads it, without opening it again.
  private static func readStart(
    _ location: FileLocation, count: Int, listedAsRegularFile: Bool, sized: Bool, wholeUpTo limit: Int? = nil
  ) throws(FormatError) -> (bytes: [UInt8], size: Int) {
    guard listedAsRegularFile else {
      let file = try ReadOnlyFile(location)
      return (try file.read(at: 0, count: count), file.size)
    }
    let fd = try open(location, listedAsRegularFile: true)
    defer { close(fd) }
    let asked = sized ? count + 1 : count
    var got = 0
    var failure: Int32 = 0
    var bytes = [UInt8](unsafeUninitializedCapacity: asked) { buffer, initialized in
      got = SystemCall.retrying { pread(fd, buffer.baseAddress!, asked, 0) }
      if got < 0 { failure = errno }
      initialized = max(got, 0)
    }
    if got > 0 && (got < asked || !sized) { return (bytes, got) }
    // Nothing, a failure or a full buffer: only fstat says whether this is a regular file, and how large.
    let info = try regularFileInfo(fd, path: location.path)
    if failure != 0 {
      throw error(failure, path: location.path, doing: "read", location: SourceLocation(offset: 0))
    }
    if got == 0 { return ([], 0) }
    if let limit {
      // As `readAll(limit:)` of the file opened anew: the size `fstat` gave, read from the start.
      let size = Int(info.st_size)
      try refuse(size, over: limit, path: location.path)
      guard size > got else {
        bytes.removeLast(got - size)
        return (bytes, size)
      }
      // Read again from the start, into memory the first read's (given back first) can be:
      // keeping what it read and copying it into new memory was slower.
      bytes = []
      var (done, failure) = (0, Int32(0))
      let whole = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
        (done, failure) = readFully(fd, into: buffer.baseAddress!, count: size, at: 0)
        initialized = done
      }
      if failure != 0 {
        throw error(failure, path: location.path, doing: "read", location: SourceLocation(offset: done))
      }
      return (whole, whole.count)
    }
    bytes.removeLast()
    return (bytes, max(Int(info.st_size), got))
  }

  deinit { close(descriptor) }

  /// Up to `count` bytes at `offset` (`pread(2)`, retried when interrupted and on short reads); fewer only at
  /// the end of the file.
  public func read(at offset: Int, count: Int) throws(FormatError) -> [UInt8] {
    guard offset >= 0, count > 0, offset < size else { return [] }
    let wanted = min(count, size - offset)
    var done = 0
    var failure: Int32 = 0
    // Read straight into the array's storage: zero-filling it first would touch every byte twice.
    let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
      (done, failure) = Self.readFully(descriptor, into: buffer.baseAddress!, count: wanted, at: offset)
      initialized = done
    }
    if failure != 0 {
      throw Self.error(failure, path: path, doing: "read", location: SourceLocation(offset: offset + done))
    }
    return bytes
  }

  /// Reads up to `count` bytes of `fd` at `offset` into `buffer` (`pread(2)`, retried when interrupted
  /// and on short reads; fewer only at the end of the file or on a failure): how many, and the failure's
  /// errno (0 for none).
  private static func readFully(
    _ fd: Int32, into buffer: UnsafeMutablePointer<UInt8>, count: Int, at offset: Int
  )
    -> (done: Int, failure: Int32)
  {
    var done = 0
    while done < count {
      let n = SystemCall.retrying { pread(fd, buffer + done, count - done, off_t(offset + done)) }
      if n < 0 { return (done, errno) }
      if n == 0 { break }
      done += n
    }
    return (done, 0)
  }

  /// The whole file, refusing one larger than `limit` bytes.
  public func readAll(limit: Int = 1 << 30) throws(FormatError) -> [UInt8] {
    try Self.refuse(size, over: limit, path: path)
    return try read(at: 0, count: size)
  }

  /// Refuses a file of `size` bytes when that is more than `limit`.
  private static func refuse(_ size: Int, over limit: Int, path: @autoclosure () -> String)
    throws(FormatError)
  {
    guard size <= limit else {
      throw FormatError(
        code: .tooLarge, message: "the file is \(size) bytes, more than the \(limit) this reader accepts",
        path: path())
    }
  }

  /// Reads a whole regular file in one call.
  public static func contents(of path: String, limit: Int = 1 << 30) throws(FormatError) -> [UInt8] {
    try ReadOnlyFile(path: path).readAll(limit: limit)
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
