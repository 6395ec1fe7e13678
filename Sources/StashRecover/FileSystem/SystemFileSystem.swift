import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// The real file system: each requirement is one thin wrapper around the C call its doc names,
/// retrying an interrupted call through StashFormat's `SystemCall` and nowhere else.
public struct SystemFileSystem: FileSystem, Sendable {
  /// Whether `sync` and `syncDirectory` call `fsync(2)`; off only to measure what fsync costs.
  public var synchronizes: Bool

  /// The real file system; `synchronizes: false` is for benchmarks, never for a user's folder.
  public init(synchronizes: Bool = true) {
    self.synchronizes = synchronizes
  }

  /// True: every call is a system call on its own arguments, with nothing shared between them.
  public var allowsConcurrentCalls: Bool { true }

  /// `lstat(2)`.
  public func status(_ path: String) throws(RecoverError) -> FileStatus? {
    var info = stat()
    if lstat(path, &info) != 0 {
      if errno == ENOENT || errno == ENOTDIR { return nil }
      throw RecoverError.io(errno, doing: "read the status of", path: path)
    }
    return Self.fileStatus(info)
  }

  /// What a `stat` says, as a `FileStatus`.
  static func fileStatus(_ info: stat) -> FileStatus {
    let kind: FileStatus.Kind
    switch info.st_mode & S_IFMT {
    case S_IFREG: kind = .regular
    case S_IFDIR: kind = .directory
    case S_IFLNK: kind = .symbolicLink
    default: kind = .other
    }
    return FileStatus(
      kind: kind, size: Int(info.st_size),
      modificationTime: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9,
      modificationNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
      device: UInt64(info.st_dev))
  }

  /// `opendir(3)` and `readdir(3)`.
  public func list(_ directory: String) throws(RecoverError) -> [String] {
    guard let stream = opendir(directory) else {
      throw RecoverError.io(errno, doing: "list the folder", path: directory)
    }
    defer { closedir(stream) }
    var names: [String] = []
    errno = 0
    while let entry = readdir(stream) {
      // A name that is not UTF-8 comes back escaped (`\xff`): it is only ever shown, never
      // operated on, since every name StashRecover acts on is ASCII and has no backslash.
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        PathText.decode(raw.prefix { $0 != 0 })
      }
      if name != "." && name != ".." { names.append(name) }
    }
    if errno != 0 { throw RecoverError.io(errno, doing: "list the folder", path: directory) }
    // Byte order, each name's bytes taken once rather than at every comparison.
    return names.map { (bytes: Array($0.utf8), name: $0) }
      .sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
      .map(\.name)
  }

  /// `open(2)` with `O_NOFOLLOW|O_NONBLOCK`, `fstat(2)`, `read(2)`.
  public func read(_ path: String, limit: Int) throws(RecoverError) -> [UInt8] {
    let fd = SystemCall.retrying { open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
    guard fd >= 0 else { throw RecoverError.io(errno, doing: "open the file", path: path) }
    defer { Glibc.close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw RecoverError.io(errno, doing: "read the status of", path: path) }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw RecoverError(code: .notAFile, message: "not a regular file: it is not read", path: path)
    }
    guard Int(info.st_size) <= limit else {
      throw RecoverError(
        code: .tooLarge, message: "the file is \(info.st_size) bytes, more than the \(limit) read here",
        path: path)
    }
    // Sized from fstat, plus one byte to see the end: a part is read in one or two calls, and a
    // file that grew since is still read to its end (up to the limit).
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
    var done = 0
    while true {
      if done == bytes.count {
        guard bytes.count <= limit else {
          throw RecoverError(code: .tooLarge, message: "the file grew past \(limit) bytes", path: path)
        }
        bytes += [UInt8](repeating: 0, count: max(4096, bytes.count))
      }
      let n = bytes.withUnsafeMutableBytes { raw in
        SystemCall.retrying { Glibc.read(fd, raw.baseAddress! + done, raw.count - done) }
      }
      if n < 0 { throw RecoverError.io(errno, doing: "read the file", path: path) }
      if n == 0 { break }
      done += n
      // Every byte fstat promised, and the one more asked for to see a file that grew did not
      // come: the end, without another read(2) to be told so.
      if done == Int(info.st_size) && done < bytes.count { break }
    }
    bytes.removeSubrange(done...)
    return bytes
  }

  /// `open(2)` with `O_CREAT|O_EXCL|O_NOFOLLOW`, mode 0644.
  public func createExclusive(_ path: String) throws(RecoverError) -> Int32 {
    let fd = SystemCall.retrying { open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
    guard fd >= 0 else { throw RecoverError.io(errno, doing: "create the file", path: path) }
    return fd
  }

  /// `write(2)`, looping over short writes.
  public func write(_ descriptor: Int32, _ bytes: [UInt8]) throws(RecoverError) {
    let failure = SystemCall.writeAll(descriptor, bytes)
    if failure != 0 { throw RecoverError.io(failure, doing: "write", path: "descriptor \(descriptor)") }
  }

  /// `fsync(2)`, unless `synchronizes` is off.
  public func sync(_ descriptor: Int32) throws(RecoverError) {
    guard synchronizes else { return }
    if SystemCall.retrying({ fsync(descriptor) }) != 0 {
      throw RecoverError.io(errno, doing: "flush to disk", path: "descriptor \(descriptor)")
    }
  }

  /// `close(2)`.
  public func close(_ descriptor: Int32) throws(RecoverError) {
    let failure = SystemCall.close(descriptor)
    if failure != 0 { throw RecoverError.io(failure, doing: "close", path: "descriptor \(descriptor)") }
  }

  /// `renameat2(2)` with `RENAME_NOREPLACE`, else `link(2)` and `unlink(2)`.
  public func renameNoReplace(_ source: String, _ destination: String) throws(RecoverError) {
    if let renameat2 = Self.renameat2 {
      if SystemCall.retrying({ renameat2(AT_FDCWD, source, AT_FDCWD, destination, 1) }) == 0 { return }
      let code = errno
      // EINVAL and ENOSYS mean the file system or kernel lacks RENAME_NOREPLACE: fall back to link.
      guard code == EINVAL || code == ENOSYS else {
        throw RecoverError.io(code, doing: "rename into place", path: destination)
      }
    }
    if SystemCall.retrying({ link(source, destination) }) != 0 {
      throw RecoverError.io(errno, doing: "link into place", path: destination)
    }
    if SystemCall.retrying({ Glibc.unlink(source) }) != 0 {
      throw RecoverError.io(errno, doing: "remove the temporary name", path: source)
    }
  }

  /// `rename(2)`.
  public func rename(_ source: String, _ destination: String) throws(RecoverError) {
    if SystemCall.retrying({ Glibc.rename(source, destination) }) != 0 {
      throw RecoverError.io(errno, doing: "rename into place", path: destination)
    }
  }

  /// `unlink(2)`.
  public func unlink(_ path: String) throws(RecoverError) {
    if SystemCall.retrying({ Glibc.unlink(path) }) != 0 {
      throw RecoverError.io(errno, doing: "remove", path: path)
    }
  }

  /// `rmdir(2)`.
  public func removeDirectory(_ path: String) throws(RecoverError) {
    if SystemCall.retrying({ rmdir(path) }) != 0 {
      throw RecoverError.io(errno, doing: "remove the folder", path: path)
    }
  }

  /// `mkdir(2)`, mode 0700.
  public func makeDirectory(_ path: String) throws(RecoverError) {
    if SystemCall.retrying({ mkdir(path, 0o700) }) != 0 {
      throw RecoverError.io(errno, doing: "make the folder", path: path)
    }
  }

  /// `open(2)` of the folder and `fsync(2)`, unless `synchronizes` is off.
  public func syncDirectory(_ path: String) throws(RecoverError) {
    guard synchronizes else { return }
    let fd = try openDirectory(path)
    defer { Glibc.close(fd) }
    if SystemCall.retrying({ fsync(fd) }) != 0 {
      throw RecoverError.io(errno, doing: "flush the folder to disk", path: path)
    }
  }

  /// `open(2)` with `O_RDONLY|O_DIRECTORY|O_NOFOLLOW`.
  public func openDirectory(_ path: String) throws(RecoverError) -> Int32 {
    let fd = SystemCall.retrying { open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
    guard fd >= 0 else { throw RecoverError.io(errno, doing: "open the folder", path: path) }
    return fd
  }

  /// `flock(2)` with `LOCK_EX`.
  public func lock(_ descriptor: Int32, wait: Bool) throws(RecoverError) -> Bool {
    if SystemCall.retrying({ flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) }) == 0 { return true }
    if errno == EWOULDBLOCK { return false }
    throw RecoverError.io(errno, doing: "lock the folder", path: "descriptor \(descriptor)")
  }

  /// glibc's `renameat2`, found at run time because Swift's Glibc module does not export it.
  private typealias Renameat2 =
    @convention(c) (
      Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
    ) -> Int32
  private static let renameat2: Renameat2? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
    return unsafeBitCast(symbol, to: Renameat2.self)
  }()
}
