import Foundation
import StashFormat
import StashTestSupport
import Testing

@testable import StashLint

/// The findings cache, in-process (FORMAT.md §10): an entry is used only while every checked
/// file of its memo is as it was, and a cache that cannot be used leaves the run uncached with one
/// warning and the same answer.
@Suite struct FindingsCacheTests {
  static let audio: Data = try! TestTone.mp4(seconds: 2, frequency: 330, fragmented: false)
  /// Memo `a` has a cue past its audio's end (a finding on two files); `b` has none.
  static let a = "2025-01-01T10-00-00"
  static let b = "2025-01-02T10-00-00"
  static let pastTheEnd = "WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n\n00:04.000 --> 00:05.000\nlate\n"
  static let inside = "WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n"

  /// A memo folder with `a` and `b`, and a cache folder beside it (not made yet).
  struct Setup {
    let scratch: ScratchFolder
    var folder: String { scratch.path + "/memos" }
    var cacheFolder: String { scratch.path + "/cache/stash/findings" }

    init() throws {
      scratch = try ScratchFolder("stash-findings-cache")
      try FileManager.default.createDirectory(
        atPath: scratch.path + "/memos", withIntermediateDirectories: false)
      try write(a + "_audio.m4a", FindingsCacheTests.audio)
      try write(a + "_transcription.vtt", Data(FindingsCacheTests.pastTheEnd.utf8))
      try write(b + "_audio.m4a", FindingsCacheTests.audio)
      try write(b + "_transcription.vtt", Data(FindingsCacheTests.inside.utf8))
    }

    func write(_ name: String, _ data: Data) throws {
      try data.write(to: URL(fileURLWithPath: folder + "/" + name))
    }

    func path(_ name: String) -> String { folder + "/" + name }

    /// The cache of this folder for `version`, and what it warned.
    func cache(version: String = "1") -> (FindingsCache?, [String]) {
      var warnings: [String] = []
      let cache = FindingsCache.open(
        folder: folder, version: version, directory: cacheFolder, warn: { warnings.append($0) })
      return (cache, warnings)
    }

    /// Every memo's account, in the listing's order; `now` is past every file's change, so what
    /// is checked is kept.
    func accounts(_ cache: FindingsCache?, messages: Bool = true) throws -> [String: MemoAccount] {
      let order = try MemoFolderOrder<FolderGrouping>(path: folder)
      var out: [String: MemoAccount] = [:]
      for position in 0..<order.count {
        let candidate = order.candidate(at: position)
        out[candidate.base] = MemoAccount.read(
          candidate, folder: folder, now: order.now + 10, opened: order.opened, cache: cache,
          messages: messages)
      }
      cache?.save(whole: true, memoCount: order.count)
      return out
    }

    /// The key `base` has now.
    func key(_ base: String) throws -> FindingsCache.Key {
      let order = try MemoFolderOrder<FolderGrouping>(path: folder)
      let position = try #require(order.position(ofBase: base))
      return FindingsCache.key(order.candidate(at: position), opened: order.opened, now: order.now + 10).key
    }

    /// Stores under `base`'s present key an entry that says its transcript has a warning it does
    /// not have: a run that reports it answered from the cache; one that does not checked again.
    func plant(_ base: String, in cache: FindingsCache) throws {
      let order = try MemoFolderOrder<FolderGrouping>(path: folder)
      let memo = order.memo(at: try #require(order.position(ofBase: base)))
      let planted = FindingsCache.Finding(
        kind: .transcript, code: .linter(.cuePastAudio), severity: .warning,
        location: SourceLocation(line: 3),
        unlisted: 0)
      cache.store(try key(base), FindingsCache.Entry(memo, findings: [planted]))
    }

    /// Whether the `!` of `base` (b unless renamed) comes from the planted entry, read (marks
    /// only) with a cache loaded anew.
    func answersFromPlant(_ base: String = FindingsCacheTests.b) throws -> Bool {
      let (cache, warnings) = self.cache()
      #expect(warnings.isEmpty, "\(warnings)")
      return try #require(try accounts(cache, messages: false)[base]).hasProblem
    }
  }

  /// The two answers agree finding for finding; the cached one may lack messages only.
  static func same(_ x: [String: MemoAccount], _ y: [String: MemoAccount]) -> Bool {
    x.keys.sorted() == y.keys.sorted()
      && x.allSatisfy { base, account in
        account.findings.map(\.code) == y[base]!.findings.map(\.code)
          && account.findings.map(\.message) == y[base]!.findings.map(\.message)
          && account.findings.map(\.location) == y[base]!.findings.map(\.location)
          && account.hasProblem == y[base]!.hasProblem
      }
  }

  @Test func aWarmRunGivesTheColdAnswerAndKeepsNoWords() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let uncached = try setup.accounts(nil)
    #expect(uncached[Self.a]!.hasProblem && !uncached[Self.b]!.hasProblem)
    let (cold, warnings) = setup.cache()
    #expect(warnings.isEmpty && cold != nil)
    #expect(Self.same(try setup.accounts(cold), uncached))
    let (warm, _) = setup.cache()
    #expect(try warm?.entry(setup.key(Self.b))?.findings == [])
    #expect(try warm?.entry(setup.key(Self.a))?.findings.map(\.code) == [.linter(.cuePastAudio)])
    #expect(Self.same(try setup.accounts(warm), uncached))
    // Marks only: the same marks from the entries alone.
    let (marks, _) = setup.cache()
    #expect(
      try setup.accounts(marks, messages: false).mapValues(\.hasProblem) == uncached.mapValues(\.hasProblem))
    // No word of the memos: neither a base, nor a word of a transcript, nor a message.
    let files = try FileManager.default.contentsOfDirectory(atPath: setup.cacheFolder)
    #expect(files.count == 1)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: setup.cacheFolder + "/" + files[0]))
    let text = String(decoding: bytes, as: UTF8.self)
    for word in ["2025", "hello", "late", "transcription", "ends at", "m4a"] {
      #expect(!text.contains(word), "\(word)")
    }
  }

  @Test func thePlantIsAnsweredWhileNothingChanged() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let (cache, _) = setup.cache()
    try setup.plant(Self.b, in: try #require(cache))
    cache?.save(whole: false, memoCount: 2)
    #expect(try setup.answersFromPlant())
    #expect(try setup.answersFromPlant())
  }

  /// Each change that must be checked again: the plant is not answered after it.
  @Test(arguments: Change.allCases)
  func aChangedMemoIsCheckedAgain(_ change: Change) throws {
    #expect(!Change.allCases.isEmpty)
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let (cache, _) = setup.cache()
    try setup.plant(Self.b, in: try #require(cache))
    cache?.save(whole: false, memoCount: 2)
    #expect(try setup.answersFromPlant(), "the plant is answered before the change")
    let base = try change.apply(setup)
    // The answer is the uncached one (which has no cue past the end), not the plant.
    let (cache2, _) = setup.cache()
    let answered = try #require(try setup.accounts(cache2, messages: false)[base])
    let uncached = try #require(try setup.accounts(nil)[base])
    #expect(!uncached.findings.contains { $0.code == .linter(.cuePastAudio) })
    #expect(answered.findings.map(\.code) == uncached.findings.map(\.code), "\(change)")
    #expect(answered.hasProblem == uncached.hasProblem, "\(change)")
  }

  enum Change: CaseIterable {
    case oneByteSameSizeMtimeSetBack, replacedFile, deletedFile, newFile, renamedMemo

    /// Makes the change; returns the memo's base after it.
    func apply(_ setup: Setup) throws -> String {
      let transcript = setup.path(FindingsCacheTests.b + "_transcription.vtt")
      switch self {
      case .oneByteSameSizeMtimeSetBack:
        var before = stat()
        #expect(stat(transcript, &before) == 0)
        // A clock tick for the status-change time to move.
        usleep(50_000)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: transcript))
        try handle.seek(toOffset: UInt64(FindingsCacheTests.inside.utf8.count - 3))
        try handle.write(contentsOf: Data("j".utf8))
        try handle.close()
        let when = "@\(before.st_mtim.tv_sec).\(String(format: "%09d", before.st_mtim.tv_nsec))"
        let touched = try runProcess("touch", ["-d", when, transcript])
        #expect(touched.status == 0, "\(touched.standardError)")
        var after = stat()
        #expect(stat(transcript, &after) == 0)
        #expect(after.st_size == before.st_size)
        #expect(
          after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        #expect(
          after.st_ctim.tv_sec != before.st_ctim.tv_sec || after.st_ctim.tv_nsec != before.st_ctim.tv_nsec)
      case .replacedFile:
        let bytes = try Data(contentsOf: URL(fileURLWithPath: transcript))
        try bytes.write(to: URL(fileURLWithPath: transcript + ".new"))
        #expect(rename(transcript + ".new", transcript) == 0)
      case .deletedFile:
        #expect(unlink(transcript) == 0)
      case .newFile:
        try setup.write(
          FindingsCacheTests.b + "_bookmarks.vtt", Data("WEBVTT\n\n00:00.500 --> 00:00.500\nhere\n".utf8))
      case .renamedMemo:
        // The plant was under b's base; the same files under another base are checked again.
        let renamed = "2025-01-03T10-00-00"
        for suffix in ["_audio.m4a", "_transcription.vtt"] {
          #expect(rename(setup.path(FindingsCacheTests.b + suffix), setup.path(renamed + suffix)) == 0)
        }
        return renamed
      }
      return FindingsCacheTests.b
    }
  }

  /// A new version of stash (or another rule set) never uses the old cache: set aside, one
  /// warning, uncached, the same answer.
  @Test func anotherVersionsCacheIsSetAside() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let uncached = try setup.accounts(nil)
    let (old, _) = setup.cache(version: "1")
    _ = try setup.accounts(old)
    let (cache, warnings) = setup.cache(version: "2")
    #expect(cache == nil)
    #expect(warnings.count == 1 && warnings[0].contains("was written by stash 1+"), "\(warnings)")
    #expect(Self.same(try setup.accounts(cache), uncached))
    let files = try FileManager.default.contentsOfDirectory(atPath: setup.cacheFolder)
    #expect(files.count == 1 && files[0].hasSuffix(".findings.set-aside"), "\(files)")
    // The next run starts a cache of its own, without a warning.
    let (next, again) = setup.cache(version: "2")
    #expect(next != nil && again.isEmpty)
  }

  @Test func aTruncatedCacheIsSetAside() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let uncached = try setup.accounts(nil)
    let (first, _) = setup.cache()
    _ = try setup.accounts(first)
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: setup.cacheFolder).first)
    let file = setup.cacheFolder + "/" + name
    let whole = try Data(contentsOf: URL(fileURLWithPath: file))
    // Cuts all along the file: each is found damaged.
    for keep in stride(from: 0, to: whole.count, by: max(1, whole.count / 17)) + [whole.count - 1] {
      try whole.prefix(keep).write(to: URL(fileURLWithPath: file))
      let (cache, warnings) = setup.cache()
      #expect(cache == nil && warnings.count == 1, "\(keep): \(warnings)")
      #expect(Self.same(try setup.accounts(cache), uncached))
      #expect(FileManager.default.fileExists(atPath: file + FindingsCache.setAsideSuffix))
    }
  }

  @Test func aCacheFolderThatIsAFileLeavesTheRunUncached() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let uncached = try setup.accounts(nil)
    try FileManager.default.createDirectory(
      atPath: setup.scratch.path + "/cache/stash", withIntermediateDirectories: true)
    try Data("not a folder".utf8).write(to: URL(fileURLWithPath: setup.cacheFolder))
    let (cache, warnings) = setup.cache()
    #expect(cache == nil && warnings.count == 1 && warnings[0].contains("is not a folder"), "\(warnings)")
    #expect(Self.same(try setup.accounts(cache), uncached))
  }

  /// A cache that cannot be written: the run answers, and saving says why once.
  @Test func aCacheThatCannotBeWrittenSaysSo() throws {
    let setup = try Setup()
    defer { setup.scratch.remove() }
    let uncached = try setup.accounts(nil)
    var warnings: [String] = []
    // Nothing can be made under /proc, not even by root.
    let cache = FindingsCache.open(
      folder: setup.folder, version: "1", directory: "/proc/self/stash-findings",
      warn: { warnings.append($0) })
    #expect(warnings.isEmpty)
    let order = try MemoFolderOrder<FolderGrouping>(path: setup.folder)
    var answered: [String: MemoAccount] = [:]
    for position in 0..<order.count {
      let candidate = order.candidate(at: position)
      answered[candidate.base] = MemoAccount.read(
        candidate, folder: setup.folder, now: order.now + 10, opened: order.opened, cache: cache)
    }
    #expect(Self.same(answered, uncached))
    let why = cache?.save(whole: true, memoCount: order.count)
    #expect(why?.contains("cannot be written") == true, "\(why ?? "nil")")
  }

  /// The bound: past it, the folder written longest ago goes first.
  @Test func theOldestFolderGoesFirst() throws {
    let scratch = try ScratchFolder("stash-findings-bound")
    defer { scratch.remove() }
    let folder = scratch.path
    let big = [UInt8](repeating: 0, count: FindingsCache.bound / 2 - 1000)
    for (name, age) in [("old.findings", 3000.0), ("newer.findings", 2000.0)] {
      let path = folder + "/" + name
      try Data(big).write(to: URL(fileURLWithPath: path))
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: path)
    }
    try Data(repeating: 1, count: 4000).write(to: URL(fileURLWithPath: folder + "/new.findings"))
    FindingsCache.trim(folder, keeping: folder + "/new.findings", fileSystem: .init())
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
        "new.findings", "newer.findings",
      ])
  }
}
