/// Runs a sweep of one memo folder: locks it, reads a snapshot, plans, and performs the plan
/// through the file-system seam, step by step, so that a kill at any point leaves a folder the next
/// sweep finishes into the same state.
public struct Sweeper {
  /// Every file-system call goes through here.
  public var fileSystem: any FileSystem
  /// Turns parts into finished files.
  public var assembler: any PartsAssembler
  /// Rewrites torn audio; nil when this build cannot repair audio.
  public var audioRepairer: (any AudioRepairer)?
  /// The largest part or finished file read, in bytes; a bigger one is treated as unreadable.
  public var readLimit = 256 << 20
  /// How many captures are swept at once when the file system allows concurrent calls (see
  /// `FileSystem.allowsConcurrentCalls`; otherwise one at a time). Each capture's own calls keep
  /// their order whatever this is, so a kill leaves every capture where a serial sweep could have
  /// left it, and the report lists captures in the same order.
  public var workers = Sweeper.defaultWorkers

  /// Four: two cores' work, and the unlinks of two more captures waiting on the disk meanwhile
  /// (measured in `make bench`, docs/BENCHMARKS.md).
  public static let defaultWorkers = 4

  /// A sweeper over `fileSystem`, assembling with `assembler`.
  public init(
    fileSystem: any FileSystem, assembler: any PartsAssembler, audioRepairer: (any AudioRepairer)? = nil
  ) {
    self.fileSystem = fileSystem
    self.assembler = assembler
    self.audioRepairer = audioRepairer
  }

  /// Sweeps `folder`. `routeConsent` is asked again in the instant before each route is written
  /// (from several threads at once when captures are swept at once); a no drops the route and
  /// removes its parts. With `dryRun`, reads and assembles in memory and
  /// reports what would happen, writing nothing. Holds the folder's lock throughout: with `wait`
  /// a second sweep waits (after calling `onWait`), without it fails with code `busy`.
  public func run(
    _ folder: String, options: SweepOptions, dryRun: Bool = false,
    routeConsent: @escaping @Sendable () -> Bool = { true },
    wait: Bool = true, onWait: () -> Void = {}
  ) throws -> SweepReport {
    let lock = try FolderLock.acquire(folder, wait: wait, fileSystem: fileSystem, onWait: onWait)
    defer { lock.release() }
    var snapshot = try FolderSnapshot.read(
      folder, includeAllAudio: options.repairAudio, fileSystem: fileSystem)
    if let only = options.only {
      snapshot.captures.removeAll { !only.contains($0.base) }
      snapshot.temporaries = []
    }
    // Only a capture with recent parts needs its date and length, to tell a copy from a recording.
    for index in snapshot.captures.indices
    where snapshot.captures[index].partsFolder != nil
      && options.now - snapshot.captures[index].newestChange < options.recentWindow
    {
      snapshot.captures[index].readRecordingTimes(in: folder)
    }
    let plan = SweepPlanner.plan(snapshot, options: options)
    var performer = SweepPerformer(
      sweeper: self, folder: folder, dryRun: dryRun, routeConsent: routeConsent)
    performer.acceptLoss = options.acceptLoss
    return performer.perform(plan)
  }
}
