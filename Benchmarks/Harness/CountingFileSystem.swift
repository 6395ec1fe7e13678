import StashRecover

/// The system's file calls, counting the fsyncs a sweep asks for.
final class CountingFileSystem: FileSystem {
  let base: SystemFileSystem
  var fileSyncs = 0
  var folderSyncs = 0

  init(_ base: SystemFileSystem) { self.base = base }

  func status(_ p: String) throws -> FileStatus? { try base.status(p) }
  func list(_ d: String) throws -> [String] { try base.list(d) }
  func read(_ p: String, limit: Int) throws -> [UInt8] { try base.read(p, limit: limit) }
  func createExclusive(_ p: String) throws -> Int32 { try base.createExclusive(p) }
  func write(_ d: Int32, _ b: [UInt8]) throws { try base.write(d, b) }
  func sync(_ d: Int32) throws {
    fileSyncs += 1
    try base.sync(d)
  }
  func close(_ d: Int32) throws { try base.close(d) }
  func renameNoReplace(_ s: String, _ d: String) throws { try base.renameNoReplace(s, d) }
  func rename(_ s: String, _ d: String) throws { try base.rename(s, d) }
  func unlink(_ p: String) throws { try base.unlink(p) }
  func removeDirectory(_ p: String) throws { try base.removeDirectory(p) }
  func makeDirectory(_ p: String) throws { try base.makeDirectory(p) }
  func syncDirectory(_ p: String) throws {
    folderSyncs += 1
    try base.syncDirectory(p)
  }
  func openDirectory(_ p: String) throws -> Int32 { try base.openDirectory(p) }
  func lock(_ d: Int32, wait: Bool) throws -> Bool { try base.lock(d, wait: wait) }
}
