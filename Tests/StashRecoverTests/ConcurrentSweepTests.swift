import Foundation
import StashTestSupport
import Synchronization
import Testing

@testable import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// Sweeping several captures at once: the same folder and the same report as one at a time, and
/// one at a time whenever the file system does not allow concurrent calls.
@Suite struct ConcurrentSweepTests {
  @Test(arguments: [(0, 4), (1, 4), (3, 1), (3, 8), (100, 4), (100, 1)])
  func workersTakeEveryIndexExactlyOnce(count: Int, workers: Int) {
    let seen = Mutex([Int](repeating: 0, count: count))
    SweepWorkers.forEach(count, workers: workers) { index in
      seen.withLock { $0[index] += 1 }
    }
    #expect(seen.withLock { $0 } == [Int](repeating: 1, count: count))
  }

  @Test func oneWorkerRunsInOrderOnTheCallingThread() {
    let caller = pthread_self()
    var order: [Int] = []
    var elsewhere = false
    SweepWorkers.forEach(5, workers: 1) { index in
      order.append(index)
      if pthread_equal(pthread_self(), caller) == 0 { elsewhere = true }
    }
    #expect(order == [0, 1, 2, 3, 4] && !elsewhere)
  }

  @Test func theCrashFixturesEndTheSameSweptAtOnceAsOneAtATime() throws {
    let serial = try CrashFolder()
    defer { serial.remove() }
    let parallel = try CrashFolder()
    defer { parallel.remove() }
    var one = try serial.sweep(workers: 1)
    var many = try parallel.sweep(workers: 8)
    #expect(try FolderTree(serial.root) == FolderTree(parallel.root))
    one.folder = ""
    many.folder = ""
    #expect(one == many)
    #expect(many.captures.map(\.base) == many.captures.map(\.base).sorted())
    #expect(many.captures.contains { $0.events.contains { $0.action == .published } })
  }

  @Test func manyCapturesAtOnceEachEndAssembledWithItsPartsGone() throws {
    let root = try ScratchFolder("stash-many")
    defer { root.remove() }
    let bases = (0..<64).map { String(format: "M%02d", $0) }
    for base in bases {
      for number in 1...5 {
        let digits = String(format: "%04d", number)
        try put("\(base) t\(number)", "\(base).parts/transcription.\(digits).vtt", in: root)
        try put("\(base) r\(number)", "\(base).parts/track.\(digits).gpx", in: root)
      }
    }
    var sweeper = Sweeper(fileSystem: SystemFileSystem(), assembler: LineAssembler())
    sweeper.workers = 8
    let now = Date().timeIntervalSince1970
    let report = try sweeper.run(root.path, options: SweepOptions(now: now, includeRecent: true))
    #expect(report.captures.map(\.base) == bases)
    var expected: [String: String] = [:]
    for base in bases {
      expected[base + "_transcription.vtt"] = (1...5).map { "\(base) t\($0)\n" }.joined()
      expected[base + "_track.gpx"] = (1...5).map { "\(base) r\($0)\n" }.joined()
    }
    #expect(try FolderTree(root).entries == expected)
    #expect(report.exitCode == 0)
  }

  /// A file system that says whether it allows concurrent calls, and notes when two calls were in
  /// it at once. When it allows them, its first `read` (of a part, while captures are swept) waits (up to ten seconds)
  /// for a second one to arrive, so a sweep that does run captures at once is seen doing it.
  final class OverlapWatcher: FileSystem, @unchecked Sendable {
    let base = SystemFileSystem()
    let allowsConcurrentCalls: Bool
    private let state = Mutex((inside: 0, most: 0, reads: 0))

    init(allowsConcurrentCalls: Bool) { self.allowsConcurrentCalls = allowsConcurrentCalls }

    var mostAtOnce: Int { state.withLock { $0.most } }

    private func watch<T>(_ body: () throws(RecoverError) -> T) throws(RecoverError) -> T {
      state.withLock {
        $0.inside += 1
        $0.most = max($0.most, $0.inside)
      }
      defer { state.withLock { $0.inside -= 1 } }
      return try body()
    }

    func status(_ p: String) throws(RecoverError) -> FileStatus? {
      try watch { () throws(RecoverError) in try base.status(p) }
    }
    func list(_ d: String) throws(RecoverError) -> [String] {
      try watch { () throws(RecoverError) in try base.list(d) }
    }
    func read(_ p: String, limit: Int) throws(RecoverError) -> [UInt8] {
      try watch { () throws(RecoverError) in
        if allowsConcurrentCalls {
          let first = state.withLock {
            $0.reads += 1
            return $0.reads == 1
          }
          var waited = 0
          while first && mostAtOnce < 2 && waited < 10_000 {
            usleep(1000)
            waited += 1
          }
        }
        return try base.read(p, limit: limit)
      }
    }
    func createExclusive(_ p: String) throws(RecoverError) -> Int32 {
      try watch { () throws(RecoverError) in try base.createExclusive(p) }
    }
    func write(_ d: Int32, _ b: [UInt8]) throws(RecoverError) {
      try watch { () throws(RecoverError) in try base.write(d, b) }
    }
    func sync(_ d: Int32) throws(RecoverError) { try watch { () throws(RecoverError) in try base.sync(d) } }
    func close(_ d: Int32) throws(RecoverError) { try watch { () throws(RecoverError) in try base.close(d) } }
    func renameNoReplace(_ s: String, _ d: String) throws(RecoverError) {
      try watch { () throws(RecoverError) in try base.renameNoReplace(s, d) }
    }
    func rename(_ s: String, _ d: String) throws(RecoverError) {
      try watch { () throws(RecoverError) in try base.rename(s, d) }
    }
    func unlink(_ p: String) throws(RecoverError) {
      try watch { () throws(RecoverError) in try base.unlink(p) }
    }
    func removeDirectory(_ p: String) throws(RecoverError) {
      try watch { () throws(RecoverError) in try base.removeDirectory(p) }
    }
    func makeDirectory(_ p: String) throws(RecoverError) {
      try watch { () throws(RecoverError) in try base.makeDirectory(p) }
    }
    func syncDirectory(_ p: String) throws(RecoverError) {
      try watch { () throws(RecoverError) in try base.syncDirectory(p) }
    }
    func openDirectory(_ p: String) throws(RecoverError) -> Int32 {
      try watch { () throws(RecoverError) in try base.openDirectory(p) }
    }
    func lock(_ d: Int32, wait: Bool) throws(RecoverError) -> Bool {
      try watch { () throws(RecoverError) in try base.lock(d, wait: wait) }
    }
  }

  @Test(arguments: [false, true])
  func capturesRunAtOnceOnlyWhenTheFileSystemAllows(allows: Bool) throws {
    let folder = try CrashFolder()
    defer { folder.remove() }
    let watcher = OverlapWatcher(allowsConcurrentCalls: allows)
    _ = try folder.sweep(fileSystem: watcher, workers: 4)
    if allows {
      #expect(watcher.mostAtOnce >= 2)
    } else {
      #expect(watcher.mostAtOnce == 1)
    }
  }
}
