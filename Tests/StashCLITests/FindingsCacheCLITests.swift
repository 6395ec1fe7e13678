import Foundation
import StashTestSupport
import Synchronization
import Testing

/// The findings cache through the command line (FORMAT.md §10): warm, cold and `--no-cache`
/// give the same bytes; a cache that cannot be used costs one warning and nothing else.
@Suite struct FindingsCacheCLITests {
  /// The commands whose output the cache must not change.
  static let commands: [[String]] = [
    ["ls", "--json", "."], ["ls", "--bases", "."], ["lint", "--format", "json", "."], ["lint", "."],
  ]

  /// `stash ARGS` in `folder` with the cache in `cache`.
  func run(_ arguments: [String], in folder: URL, cache: URL) throws -> ProcessResult {
    try runStash(arguments, in: folder, environment: ["XDG_CACHE_HOME": cache.path])
  }

  /// A memo folder's files changed more than a second ago, so a run keeps what it checks (what
  /// changed in the second before a run is checked again next time, FindingsCache.key).
  static func settle() { usleep(2_100_000) }

  /// A copy of the demo folder in `scratch`, settled.
  static func settledDemo(in scratch: ScratchFolder) throws -> URL {
    let folder = scratch.appendingPathComponent("demo")
    #expect(try runProcess("cp", ["-R", Fixtures.folder("demo").path, folder.path]).status == 0)
    settle()
    return folder
  }

  /// Every finding kind of the lint fixtures, and the demo folder: each command gives the same
  /// bytes and status uncached, with an empty cache and with the cache that run filled.
  @Test func warmColdAndUncachedAgreeByteForByte() throws {
    #expect(!Self.commands.isEmpty)
    let lint = try LintFixtureFolder()
    defer { lint.remove() }
    let scratch = try ScratchFolder("stash-cache-agree")
    defer { scratch.remove() }
    let demo = scratch.appendingPathComponent("demo")
    let copied = try runProcess(
      "cp", ["-R", "--preserve=timestamps", Fixtures.folder("demo").path, demo.path])
    #expect(copied.status == 0)
    Self.settle()
    var compared = 0
    for (index, folder) in [
      lint.root.appendingPathComponent("lint"), lint.root.appendingPathComponent("lint/cases"), demo,
    ].enumerated() {
      let cache = scratch.appendingPathComponent("cache-\(index)")
      for command in Self.commands {
        let uncached = try run(command + ["--no-cache"], in: folder, cache: cache)
        let cold = try run(command, in: folder, cache: cache)
        let warm = try run(command, in: folder, cache: cache)
        let again = try run(command, in: folder, cache: cache)
        for (label, result) in [("cold", cold), ("warm", warm), ("again", again)] {
          #expect(
            result.standardOutput == uncached.standardOutput,
            "\(folder.lastPathComponent) \(command) \(label)")
          #expect(result.status == uncached.status, "\(command) \(label)")
          #expect(result.standardError == uncached.standardError, "\(command) \(label)")
        }
        compared += 1
      }
      // The cold runs filled the cache; --no-cache wrote nothing of its own.
      let files = try FileManager.default.contentsOfDirectory(atPath: cache.path + "/stash/findings")
      #expect(files.count == 1 && files[0].hasSuffix(".findings"), "\(files)")
    }
    #expect(compared == 12)
  }

  @Test func noCacheWritesNothing() throws {
    let scratch = try ScratchFolder("stash-cache-none")
    defer { scratch.remove() }
    let cache = scratch.appendingPathComponent("cache")
    for command in Self.commands {
      let result = try run(command + ["--no-cache"], in: Fixtures.folder("demo"), cache: cache)
      #expect([0, 1].contains(result.status), "\(command): \(result.standardError)")
    }
    #expect(!FileManager.default.fileExists(atPath: cache.path))
  }

  /// Each cache that cannot be used: one line on standard error, and the uncached answer.
  @Test(arguments: Damage.allCases)
  func aCacheThatCannotBeUsedCostsOneWarning(_ damage: Damage) throws {
    let scratch = try ScratchFolder("stash-cache-damaged")
    defer { scratch.remove() }
    let folder = try Self.settledDemo(in: scratch)
    var cache = scratch.appendingPathComponent("cache")
    let findings = cache.appendingPathComponent("stash/findings")
    let uncached = try run(["ls", "--json", "."], in: folder, cache: cache)
    _ = try run(["ls", "--json", "."], in: folder, cache: cache)
    let file = try #require(try FileManager.default.contentsOfDirectory(atPath: findings.path).first)
    let path = findings.appendingPathComponent(file)
    switch damage {
    case .truncated:
      let bytes = try Data(contentsOf: path)
      try bytes.prefix(bytes.count / 2).write(to: path)
    case .notItsOwn:
      try Data("stash-findings\nsomething else altogether".utf8).write(to: path)
    case .folderIsAFile:
      try FileManager.default.removeItem(at: findings)
      try Data("a file".utf8).write(to: findings)
    case .cannotBeWritten:
      // Nothing can be made under /proc, not even by root.
      cache = URL(fileURLWithPath: "/proc/self/stash-cache")
    }
    let result = try run(["ls", "--json", "."], in: folder, cache: cache)
    #expect(result.status == 0)
    #expect(result.standardOutput == uncached.standardOutput)
    let lines = result.standardError.split(separator: "\n")
    #expect(lines.count == 1 && lines[0].hasPrefix("stash ls: the findings cache"), "\(result.standardError)")
    // Set aside, the next run starts afresh without a word.
    if damage == .truncated || damage == .notItsOwn {
      #expect(FileManager.default.fileExists(atPath: path.path + ".set-aside"))
      let next = try run(["ls", "--json", "."], in: folder, cache: cache)
      #expect(next.standardError.isEmpty && next.standardOutput == uncached.standardOutput)
    }
  }

  /// Two processes at once, again and again, on one cache, the folder changing between rounds:
  /// each answers as `--no-cache` does, and the cache is never left damaged (no warning after).
  @Test func twoProcessesAtOnceNeverAnswerWrongly() throws {
    let scratch = try ScratchFolder("stash-cache-two")
    defer { scratch.remove() }
    let folder = try Self.settledDemo(in: scratch)
    let cache = scratch.appendingPathComponent("cache")
    let transcripts = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix("_transcription.vtt")
    }.sorted()
    #expect(transcripts.count >= 4)
    for round in 0..<4 {
      // A cue past the end added to one more transcript each round: the findings change.
      let handle = try FileHandle(forWritingTo: folder.appendingPathComponent(transcripts[round]))
      try handle.seekToEnd()
      try handle.write(contentsOf: Data("\n99:00.000 --> 99:01.000\nlate\n".utf8))
      try handle.close()
      let uncached = try run(["lint", "--format", "json", "--no-cache", "."], in: folder, cache: cache)
      let results = Mutex<[ProcessResult]>([])
      DispatchQueue.concurrentPerform(iterations: 2) { _ in
        let result = try? run(["lint", "--format", "json", "."], in: folder, cache: cache)
        results.withLock { $0.append(contentsOf: result.map { [$0] } ?? []) }
      }
      let both = results.withLock { $0 }
      #expect(both.count == 2)
      for result in both {
        #expect(result.standardOutput == uncached.standardOutput, "round \(round)")
        #expect(result.standardError.isEmpty, "\(result.standardError)")
      }
    }
    let after = try run(["ls", "--json", "."], in: folder, cache: cache)
    #expect(after.standardError.isEmpty, "\(after.standardError)")
  }

  enum Damage: CaseIterable {
    case truncated, notItsOwn, folderIsAFile, cannotBeWritten
  }

  @Test func stashCacheSaysWhereAndHowBigAndClears() throws {
    let scratch = try ScratchFolder("stash-cache-command")
    defer { scratch.remove() }
    let cache = scratch.appendingPathComponent("cache")
    let folder = try Self.settledDemo(in: scratch)
    let empty = try run(["cache"], in: folder, cache: cache)
    #expect(empty.status == 0)
    #expect(empty.standardOutput.hasPrefix(cache.path + "/stash/findings: 0 folders cached, 0 bytes"))
    _ = try run(["ls", "."], in: folder, cache: cache)
    let filled = try run(["cache"], in: folder, cache: cache)
    #expect(filled.standardOutput.contains(": 1 folder cached, "), "\(filled.standardOutput)")
    let cleared = try run(["cache", "--clear"], in: folder, cache: cache)
    #expect(cleared.status == 0 && cleared.standardOutput.contains("emptied (1 file removed)"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path + "/stash/findings").isEmpty)
  }
}
