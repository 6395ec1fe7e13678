#if canImport(Glibc)
  import Glibc
#endif

/// Every file-system call StashRecover makes to change a folder, and every read its decisions rest
/// on, goes through this seam, one requirement per call, so a test can fail any of them with
/// ENOSPC, EIO, EACCES or EINTR, or stop a sweep dead at step N. Two reads go around it: the audio
/// repairer's index of the file (StashFormat's MP4 reader, read-only) and memo deletion's
/// `realpath(3)` of the memo folder for a `.trashinfo`; neither changes anything, so neither
/// bears on crash safety.
/// Paths are absolute or relative to the working folder; no requirement follows a symbolic link
/// where it writes or deletes. Every requirement throws `RecoverError` (typed, so a caller can
/// match its code without a cast).
public protocol FileSystem {
  /// `lstat(2)`: what the name is, or nil when nothing has that name.
  func status(_ path: String) throws(RecoverError) -> FileStatus?
  /// `opendir(3)`/`readdir(3)`: the names in a folder, without `.` and `..`, sorted bytewise.
  func list(_ directory: String) throws(RecoverError) -> [String]
  /// `open(2)` with `O_NOFOLLOW|O_NONBLOCK`, then `read(2)`: a whole regular file, refused past `limit`.
  func read(_ path: String, limit: Int) throws(RecoverError) -> [UInt8]
  /// `open(2)` with `O_CREAT|O_EXCL|O_NOFOLLOW`: a new file for writing, never an existing one.
  func createExclusive(_ path: String) throws(RecoverError) -> Int32
  /// `write(2)` until every byte is written.
  func write(_ descriptor: Int32, _ bytes: [UInt8]) throws(RecoverError)
  /// `fsync(2)` of an open file.
  func sync(_ descriptor: Int32) throws(RecoverError)
  /// `close(2)`.
  func close(_ descriptor: Int32) throws(RecoverError)
  /// `renameat2(2)` with `RENAME_NOREPLACE` (or `link(2)` then `unlink(2)` where that is missing):
  /// fails with `EEXIST` rather than replace `destination`.
  func renameNoReplace(_ source: String, _ destination: String) throws(RecoverError)
  /// `rename(2)`, replacing `destination` (the name itself, never what a link points to).
  func rename(_ source: String, _ destination: String) throws(RecoverError)
  /// `unlink(2)`: removes the name; a symbolic link is removed as a link.
  func unlink(_ path: String) throws(RecoverError)
  /// `rmdir(2)`: removes an empty folder, never anything in it.
  func removeDirectory(_ path: String) throws(RecoverError)
  /// `mkdir(2)` with mode 0700.
  func makeDirectory(_ path: String) throws(RecoverError)
  /// `open(2)` of a folder, `fsync(2)`, `close(2)`: makes renames and removals in it durable.
  func syncDirectory(_ path: String) throws(RecoverError)
  /// `open(2)` with `O_RDONLY|O_DIRECTORY|O_NOFOLLOW`, for locking the folder itself.
  func openDirectory(_ path: String) throws(RecoverError) -> Int32
  /// `flock(2)` with `LOCK_EX`, plus `LOCK_NB` unless `wait`: false when another holder has it.
  func lock(_ descriptor: Int32, wait: Bool) throws(RecoverError) -> Bool
  /// Whether calls may come from several threads at once. False unless a file system says so, so
  /// a test's fake that counts its calls sees them one at a time, in a fixed order.
  var allowsConcurrentCalls: Bool { get }
}

extension FileSystem {
  /// One call at a time.
  public var allowsConcurrentCalls: Bool { false }

  /// Whether `path` names a regular file (not following links).
  func isRegularFile(_ path: String) throws(RecoverError) -> Bool {
    try status(path)?.kind == .regular
  }

  /// Makes the folder `path` and those above it that are missing, outermost first; one another
  /// process makes meanwhile is no failure.
  package func makeDirectories(_ path: String) throws(RecoverError) {
    var missing: [String] = []
    var probe = path
    while !probe.isEmpty, try status(probe) == nil {
      missing.append(probe)
      probe = String(probe[..<(probe.lastIndex(of: "/") ?? probe.startIndex)])
    }
    for made in missing.reversed() {
      do { try makeDirectory(made) } catch { if error.number != EEXIST { throw error } }
    }
  }
}
