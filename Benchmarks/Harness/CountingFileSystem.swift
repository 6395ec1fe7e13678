import StashRecover
import Synchronization

/// The system's file calls, counting the fsyncs a sweep asks for; as concurrent as the system's.
final class CountingFileSystem: FileSystem, Sendable {
  let base: SystemFileSystem
  private let files = Atomic<Int>(0)
  private let folders = Atomic<Int>(0)
  var fileSyncs: Int { files.load(ordering: .relaxed) }
  var folderSyncs: Int { folders.load(ordering: .relaxed) }
  var allowsConcurrentCalls: Bool { base.allowsConcurrentCalls }

  init(_ base: SystemFileSystem) { self.base = base }

  func status(_ p: String) throws(RecoverError) -> FileStatus? { try base.status(p) }
  func list(_ d: String) throws(RecoverError) -> [String] { try base.list(d) }
  func read(_ p: String, limit: Int) throws(RecoverError) -> [UInt8] { try base.read(p, limit: limit) }
  func createExclusive(_ p: String) throws(RecoverError) -> Int32 { try base.createExclusive(p) }
  func write(_ d: Int32, _ b: [UInt8]) throws(RecoverError) { try base.write(d, b) }
  func sync(_ d: Int32) throws(RecoverError) {
    files.add(1, ordering: .relaxed)
    try base.sync(d)
  }
  func close(_ d: Int32) throws(RecoverError) { try base.close(d) }
  func renameNoReplace(_ s: String, _ d: String) throws(RecoverError) { try base.renameNoReplace(s, d) }
  func rename(_ s: String, _ d: String) throws(RecoverError) { try base.rename(s, d) }
  func unlink(_ p: String) throws(RecoverError) { try base.unlink(p) }
  func removeDirectory(_ p: String) throws(RecoverError) { try base.removeDirectory(p) }
  func makeDirectory(_ p: String) throws(RecoverError) { try base.makeDirectory(p) }
  func syncDirectory(_ p: String) throws(RecoverError) {
    folders.add(1, ordering: .relaxed)
    try base.syncDirectory(p)
  }
  func openDirectory(_ p: String) throws(RecoverError) -> Int32 { try base.openDirectory(p) }
  func lock(_ d: Int32, wait: Bool) throws(RecoverError) -> Bool { try base.lock(d, wait: wait) }
}
