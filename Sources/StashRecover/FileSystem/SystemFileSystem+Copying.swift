import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

extension SystemFileSystem: CopyingFileSystem {
  /// `open(2)` with `O_RDONLY|O_NOFOLLOW|O_NONBLOCK`, then `fstat(2)`.
  public func openForReading(_ path: String) throws(RecoverError) -> (descriptor: Int32, status: FileStatus) {
    let fd = SystemCall.retrying { open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
    guard fd >= 0 else { throw RecoverError.io(errno, doing: "open the file", path: path) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      Glibc.close(fd)
      throw RecoverError.io(code, doing: "read the status of", path: path)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      Glibc.close(fd)
      throw RecoverError(code: .notAFile, message: "not a regular file: it is not read", path: path)
    }
    return (fd, Self.fileStatus(info))
  }

  /// `read(2)`.
  public func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(RecoverError)
    -> Int
  {
    let n = SystemCall.retrying { Glibc.read(descriptor, buffer.baseAddress!, buffer.count) }
    if n < 0 { throw RecoverError.io(errno, doing: "read the file", path: "descriptor \(descriptor)") }
    return n
  }

  /// `write(2)`, looping over short writes.
  public func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) throws(RecoverError) {
    let failure = SystemCall.writeAll(descriptor, buffer)
    if failure != 0 { throw RecoverError.io(failure, doing: "write", path: "descriptor \(descriptor)") }
  }

  /// `futimens(2)`.
  public func setModificationTime(_ descriptor: Int32, _ seconds: Double) throws(RecoverError) {
    try setModificationTime(descriptor, nanoseconds: Int64((seconds * 1e9).rounded()))
  }

  /// `futimens(2)` to the nanosecond.
  public func setModificationTime(_ descriptor: Int32, nanoseconds: Int64) throws(RecoverError) {
    let (whole, fraction) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
    let time =
      fraction < 0
      ? timespec(tv_sec: Int(whole) - 1, tv_nsec: Int(fraction) + 1_000_000_000)
      : timespec(tv_sec: Int(whole), tv_nsec: Int(fraction))
    var times = (time, time)
    let result = withUnsafePointer(to: &times) {
      $0.withMemoryRebound(to: timespec.self, capacity: 2) { futimens(descriptor, $0) }
    }
    if result != 0 {
      throw RecoverError.io(errno, doing: "set the modification time of", path: "descriptor \(descriptor)")
    }
  }

  /// `posix_fadvise(2)` with `POSIX_FADV_DONTNEED`.
  public func makeDirectory(_ path: String, modeOf source: String) throws(RecoverError) {
    var info = stat()
    guard SystemCall.retrying({ stat(source, &info) }) == 0 else {
      throw RecoverError.io(errno, doing: "read the status of", path: source)
    }
    if SystemCall.retrying({ mkdir(path, info.st_mode & 0o777) }) != 0 {
      throw RecoverError.io(errno, doing: "make the folder", path: path)
    }
  }

  public func dropCachedPages(_ descriptor: Int32) {
    _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
  }
}
