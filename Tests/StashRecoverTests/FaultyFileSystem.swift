import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// The real file system with a fault planted at one step: every call is a step, counted from 1.
/// `stopAt` models a kill: that call and every later one fails without touching the disk, so no
/// clean-up runs either. `failAt` makes that one call fail with `errno` and lets the rest through.
final class FaultyFileSystem: CopyingFileSystem {
  let base: any FileSystem
  var stopAt: Int?
  var failAt: Int?
  var failure: Int32 = EIO
  /// Calls named `operation` on a path ending with `path` fail with `number`, every time (a
  /// folder without permission, a failing sector).
  var failing: [(operation: String, path: String, number: Int32)] = []
  /// Steps done so far.
  private(set) var steps = 0
  /// Every call made, with its path or descriptor, for tests that look at the order of operations.
  private(set) var calls: [String] = []
  /// The path each descriptor opened by `openForReading` or `createExclusive` names, so that the
  /// copying calls are described (and can fail) by path: `read <path>`, `writePiece <path>`.
  private var paths: [Int32: String] = [:]
  /// Runs before a file is opened for reading, with its path: a test appends to it there, as a
  /// recorder does while it is being copied.
  var beforeOpen: (String) -> Void = { _ in }

  init(
    base: any FileSystem = SystemFileSystem(), stopAt: Int? = nil, failAt: Int? = nil, failure: Int32 = EIO
  ) {
    self.base = base
    self.stopAt = stopAt
    self.failAt = failAt
    self.failure = failure
  }

  private func step(_ what: String) throws(RecoverError) {
    steps += 1
    calls.append(what)
    // A kill is an I/O error to the seam's typed throws: every call from here on fails, so
    // nothing more is written, whatever catches it.
    if let stopAt, steps >= stopAt {
      throw RecoverError(
        code: .io, message: "stopped at step \(stopAt) (a simulated kill)", number: EIO)
    }
    if steps == failAt { throw RecoverError.io(failure, doing: "(injected) \(what)", path: what) }
    for (operation, path, number) in failing where what.hasPrefix(operation + " ") && what.hasSuffix(path) {
      throw RecoverError.io(
        number, doing: "(injected) \(operation)", path: String(what.dropFirst(operation.count + 1)))
    }
  }

  func status(_ path: String) throws(RecoverError) -> FileStatus? {
    try step("status \(path)")
    return try base.status(path)
  }
  func list(_ directory: String) throws(RecoverError) -> [String] {
    try step("list \(directory)")
    return try base.list(directory)
  }
  func read(_ path: String, limit: Int) throws(RecoverError) -> [UInt8] {
    try step("read \(path)")
    return try base.read(path, limit: limit)
  }
  func createExclusive(_ path: String) throws(RecoverError) -> Int32 {
    try step("create \(path)")
    let descriptor = try base.createExclusive(path)
    paths[descriptor] = path
    return descriptor
  }
  func write(_ descriptor: Int32, _ bytes: [UInt8]) throws(RecoverError) {
    try step("write \(descriptor)")
    try base.write(descriptor, bytes)
  }
  func sync(_ descriptor: Int32) throws(RecoverError) {
    try step("sync \(descriptor)")
    try base.sync(descriptor)
  }
  func close(_ descriptor: Int32) throws(RecoverError) {
    // A killed process's descriptors are closed by the kernel: close for real, then count it.
    defer { _ = try? base.close(descriptor) }
    try step("close \(descriptor)")
  }
  func renameNoReplace(_ source: String, _ destination: String) throws(RecoverError) {
    try step("renameNoReplace \(source) \(destination)")
    try base.renameNoReplace(source, destination)
  }
  func rename(_ source: String, _ destination: String) throws(RecoverError) {
    try step("rename \(source) \(destination)")
    try base.rename(source, destination)
  }
  func unlink(_ path: String) throws(RecoverError) {
    try step("unlink \(path)")
    try base.unlink(path)
  }
  func removeDirectory(_ path: String) throws(RecoverError) {
    try step("rmdir \(path)")
    try base.removeDirectory(path)
  }
  func makeDirectory(_ path: String) throws(RecoverError) {
    try step("mkdir \(path)")
    try base.makeDirectory(path)
  }
  func syncDirectory(_ path: String) throws(RecoverError) {
    try step("syncDirectory \(path)")
    try base.syncDirectory(path)
  }
  func openDirectory(_ path: String) throws(RecoverError) -> Int32 {
    try step("openDirectory \(path)")
    return try base.openDirectory(path)
  }
  func lock(_ descriptor: Int32, wait: Bool) throws(RecoverError) -> Bool {
    try step("lock \(descriptor)")
    return try base.lock(descriptor, wait: wait)
  }

  private var copying: any CopyingFileSystem {
    base as? any CopyingFileSystem ?? SystemFileSystem()
  }
  private func path(_ descriptor: Int32) -> String { paths[descriptor] ?? "descriptor \(descriptor)" }

  func openForReading(_ path: String) throws(RecoverError) -> (descriptor: Int32, status: FileStatus) {
    try step("open \(path)")
    beforeOpen(path)
    let opened = try copying.openForReading(path)
    paths[opened.descriptor] = path
    return opened
  }
  func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(RecoverError) -> Int {
    try step("read \(path(descriptor))")
    return try copying.read(descriptor, into: buffer)
  }
  func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) throws(RecoverError) {
    try step("writePiece \(path(descriptor))")
    try copying.write(descriptor, from: buffer)
  }
  func setModificationTime(_ descriptor: Int32, _ seconds: Double) throws(RecoverError) {
    try step("setModificationTime \(path(descriptor))")
    try copying.setModificationTime(descriptor, seconds)
  }
  func setModificationTime(_ descriptor: Int32, nanoseconds: Int64) throws(RecoverError) {
    try step("setModificationTime \(path(descriptor))")
    try copying.setModificationTime(descriptor, nanoseconds: nanoseconds)
  }
  func dropCachedPages(_ descriptor: Int32) {
    copying.dropCachedPages(descriptor)
  }
}
