/// The seam's calls for copying whole files in pieces, on top of `FileSystem`: what `stash import`
/// needs beyond the sweep (a file read piece by piece, modification times kept, a read-back that
/// comes from the disk rather than the page cache). A test's fake adds these to its `FileSystem`,
/// so an import's every call can fail with ENOSPC or EIO, or stop dead at step N, like a sweep's.
public protocol CopyingFileSystem: FileSystem {
  /// `open(2)` with `O_RDONLY|O_NOFOLLOW|O_NONBLOCK`, then `fstat(2)`: a regular file for reading,
  /// with what it is as opened (a name that is not a regular file is refused, code `not-a-file`).
  func openForReading(_ path: String) throws(RecoverError) -> (descriptor: Int32, status: FileStatus)
  /// `read(2)`: up to `buffer.count` bytes into `buffer`; 0 at the end of the file.
  func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(RecoverError) -> Int
  /// `write(2)` until every byte of `buffer` is written.
  func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) throws(RecoverError)
  /// `futimens(2)`: sets an open file's modification time (and its access time to the same).
  func setModificationTime(_ descriptor: Int32, _ seconds: Double) throws(RecoverError)
  /// `futimens(2)` to the nanosecond: the time exactly as another file's `FileStatus` gives it.
  func setModificationTime(_ descriptor: Int32, nanoseconds: Int64) throws(RecoverError)
  /// `posix_fadvise(2)` with `POSIX_FADV_DONTNEED`: drops an open file's clean pages from the cache,
  /// so that the next read of a file just fsynced comes from the disk. Advice only: never fails.
  func dropCachedPages(_ descriptor: Int32)
  /// `stat(2)` of `source`, then `mkdir(2)` of `path` with its read, write and search bits (the umask applies,
  /// as `cp` does): a folder made with the mode of the one it copies.
  func makeDirectory(_ path: String, modeOf source: String) throws(RecoverError)
}

extension CopyingFileSystem {
  /// A fake's default: the time as seconds.
  public func setModificationTime(_ descriptor: Int32, nanoseconds: Int64) throws(RecoverError) {
    try setModificationTime(descriptor, Double(nanoseconds) / 1e9)
  }

  /// A fake's default: the folder made as `makeDirectory(_:)` makes it.
  public func makeDirectory(_ path: String, modeOf source: String) throws(RecoverError) {
    try makeDirectory(path)
  }
}
