import StashFormat
import StashRecover
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// What each memo's file checks found last time, kept outside the memo folder (FORMAT.md §10) so
/// that a run re-checks only the memos whose files changed: one file per folder under
/// `$XDG_CACHE_HOME/stash/findings/`. An entry is found by a key made from the stats of the files
/// the checks read (`key(_:opened:now:)`), so a changed file is never answered from an old entry;
/// it holds codes, severities, positions and numbers, never a message or a name. Loaded once
/// per run, used from both cores, written once at the end (`save`), atomically; a lost write
/// (another process's rename after ours) costs a re-check, never a wrong answer.
package final class FindingsCache: Sendable {
  /// One memo's entry: what its file checks found, and the facts of the memo they depended on.
  package struct Entry: Sendable, Equatable {
    /// The memo's recording date, its source and its length as read with the entry: the checks
    /// compare times with them (a route's span, a cue past the end), so a memo read otherwise
    /// now (a date that became plausible) is re-checked.
    package var recordedAt: Double
    package var dateSource: DateSource
    package var durationSeconds: Double?
    package var cutShort: Bool
    /// The findings of its audio, transcript, route and bookmarks, as found (no `.stashlint`).
    package var findings: [Finding]
  }

  /// A finding without its words: which of the memo's files, the code, the severity, where, and
  /// how many it stands for. Its message is made again from the file when it is shown.
  package struct Finding: Sendable, Equatable {
    package var kind: MemoFileKind
    package var code: RuleCode
    package var severity: Severity
    package var location: SourceLocation
    package var unlisted: Int
  }

  /// An entry's key: 128 bits of hash over the memo's base, its files' names and kinds, and each
  /// checked file's device, inode, size, mode, and modification and status-change times.
  package struct Key: Hashable, Sendable {
    package var high: UInt64
    package var low: UInt64
  }

  /// The most the cache folder holds, in bytes: 32 MiB. A memo with nothing found takes 37
  /// bytes, so a folder of 100,000 memos takes about 3.7 MB, and the bound holds several such
  /// folders; past it, the folders least recently checked are forgotten first (README).
  package static let bound = 32 << 20
  /// A file's name: the hash of the folder's resolved path, then this.
  static let suffix = ".findings"
  /// A damaged or foreign cache file is renamed so, and kept until the bound or `clear` takes it.
  static let setAsideSuffix = ".set-aside"

  /// The cache file of this folder.
  let path: String
  /// The folder of cache files.
  let directory: String
  /// stash's version, and the rule set's hash: an entry written by another is never used.
  let version: String
  private struct State {
    var loaded: [Key: Entry]
    var used: Set<Key> = []
    var added: [Key: Entry] = [:]
  }
  private let state: Mutex<State>

  private init(path: String, directory: String, version: String, entries: [Key: Entry]) {
    self.path = path
    self.directory = directory
    self.version = version
    state = Mutex(State(loaded: entries))
  }

  /// The cache folder for this environment: `$XDG_CACHE_HOME/stash/findings` when that is an
  /// absolute path (as the XDG specification asks), else `$HOME/.cache/stash/findings`; nil
  /// without either.
  package static func directory(
    environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }
  ) -> String? {
    if let cache = environment("XDG_CACHE_HOME"), cache.hasPrefix("/") { return cache + "/stash/findings" }
    guard let home = environment("HOME"), home.hasPrefix("/") else { return nil }
    return (home == "/" ? "" : home) + "/.cache/stash/findings"
  }

  /// The cache of the folder at `folder` for this `version` of stash, loaded; an empty one when
  /// there is none yet. Nil, after one line to `warn`, when the cache folder cannot be used or the
  /// file is damaged or another version's (it is set aside then): the run goes on uncached.
  package static func open(
    folder: String, version: String, directory: String?, warn: (String) -> Void
  ) -> FindingsCache? {
    guard let directory else { return nil }
    let fs = SystemFileSystem()
    guard let resolved = realpath(folder, nil) else { return nil }
    defer { free(resolved) }
    var hash = ContentHash()
    hash.update(Array(String(cString: resolved).utf8))
    let path = directory + "/" + hash.hex + suffix
    let version = version + "+" + LintCatalogue.ruleSetHash
    // Each folder up to the cache's must be a folder (or not there yet: it is made on save).
    var probe = directory
    while probe.count > 1 {
      if let status = try? fs.status(probe), status.kind != .directory,
        !(status.kind == .symbolicLink && isDirectory(probe))
      {
        warn(
          "the findings cache cannot be used: \(PathText.escaped(probe)) is not a folder; this run is uncached"
        )
        return nil
      }
      probe = String(probe[..<(probe.lastIndex(of: "/") ?? probe.startIndex)])
    }
    let bytes: [UInt8]
    do {
      guard try fs.status(path) != nil else {
        return FindingsCache(path: path, directory: directory, version: version, entries: [:])
      }
      bytes = try fs.read(path, limit: bound)
    } catch {
      warn("the findings cache cannot be read (\(error)); this run is uncached")
      return nil
    }
    switch FindingsCacheFile.decode(bytes, version: version) {
    case .success(let entries):
      return FindingsCache(path: path, directory: directory, version: version, entries: entries)
    case .failure(let why):
      let aside = path + setAsideSuffix
      let kept = (try? fs.rename(path, aside)) != nil
      warn(
        "the findings cache \(PathText.escaped(path)) \(why)"
          + (kept ? "; set aside as \(PathText.escaped(aside))" : "") + "; this run is uncached")
      return nil
    }
  }

  private static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// The entry of `key`, or nil; noted as used, so a whole run's `save` keeps it.
  package func entry(_ key: Key) -> Entry? {
    state.withLock { state in
      guard let entry = state.added[key] ?? state.loaded[key] else { return nil }
      state.used.insert(key)
      return entry
    }
  }

  /// How many entries were added since the last `save`, and how many memos were looked up.
  package var unsaved: Int { state.withLock { $0.added.count } }
  package var looked: Int { state.withLock { $0.used.count } }

  /// Keeps `entry` for `key`, to be written by `save`.
  package func store(_ key: Key, _ entry: Entry) {
    state.withLock { state in
      state.used.insert(key)
      if state.loaded[key] != entry { state.added[key] = entry }
    }
  }

  /// Writes the entries back when they changed: with `whole` (every memo of the folder was
  /// looked up this run), only those used, so a deleted or changed memo's entry goes; otherwise
  /// the old ones too, up to twice `memoCount`. Then trims the cache folder to `bound`, oldest
  /// first. Returns why it could not be written, or nil.
  @discardableResult
  package func save(whole: Bool, memoCount: Int) -> String? {
    let entries: [Key: Entry]? = state.withLock { state in
      var kept: [Key: Entry]
      if whole {
        guard !state.added.isEmpty || state.used.count != state.loaded.count else { return nil }
        kept = state.loaded.filter { state.used.contains($0.key) }
      } else {
        guard !state.added.isEmpty else { return nil }
        kept = state.loaded
        if kept.count + state.added.count > 2 * memoCount + 64 {
          kept = kept.filter { state.used.contains($0.key) }
        }
      }
      kept.merge(state.added) { $1 }
      // What is written is what is loaded now: a later save writes only if more is added.
      state.loaded = kept
      state.added = [:]
      return kept
    }
    guard let entries else { return nil }
    let fs = SystemFileSystem()
    let bytes = FindingsCacheFile.encode(entries, version: version)
    do {
      try fs.makeDirectories(directory)
      guard bytes.count <= Self.bound else {
        return "the findings of this folder are more than the cache holds"
      }
      let name = String(path[path.index(after: path.lastIndex(of: "/")!)...])
      try AtomicFile.write(bytes, named: name, in: directory, mode: .replace, fileSystem: fs)
    } catch {
      return "the findings cache cannot be written (\(error)); the next run checks every memo again"
    }
    Self.trim(directory, keeping: path, fileSystem: fs)
    return nil
  }

  /// Removes the least recently written files of the cache folder until it holds at most
  /// `bound` bytes; `keeping` (the file just written) goes last.
  static func trim(_ directory: String, keeping: String, fileSystem fs: SystemFileSystem) {
    guard let files = try? usage(directory, fileSystem: fs), files.reduce(0, { $0 + $1.size }) > bound else {
      return
    }
    var total = files.reduce(0) { $0 + $1.size }
    for file in files.sorted(by: {
      ($0.path == keeping ? 1 : 0, $0.time) < ($1.path == keeping ? 1 : 0, $1.time)
    })
    where total > bound {
      if (try? fs.unlink(file.path)) != nil { total -= file.size }
    }
  }

  /// The cache folder's files: each one's path, size and modification time; none when there is
  /// no folder.
  static func usage(_ directory: String, fileSystem fs: SystemFileSystem) throws(RecoverError) -> [(
    path: String, size: Int, time: Double
  )] {
    guard try fs.status(directory) != nil else { return [] }
    return try fs.list(directory).compactMap { name in
      let path = directory + "/" + name
      guard let status = try? fs.status(path), status.kind == .regular else { return nil }
      return (path, status.size, status.modificationTime)
    }
  }

  /// How many files the cache folder `directory` holds and their bytes.
  package static func size(of directory: String) throws(RecoverError) -> (files: Int, bytes: Int) {
    let files = try usage(directory, fileSystem: SystemFileSystem())
    return (files.count, files.reduce(0) { $0 + $1.size })
  }

  /// Empties the cache folder `directory`: removes the files it holds (only regular files; the
  /// folder itself stays). Returns how many were removed.
  package static func clear(_ directory: String) throws(RecoverError) -> Int {
    let fs = SystemFileSystem()
    var removed = 0
    for file in try usage(directory, fileSystem: fs) {
      try fs.unlink(file.path)
      removed += 1
    }
    return removed
  }
}

extension LintCatalogue {
  /// A hash of every rule's code and default severity: part of what a cache entry was written
  /// under, so a build with other rules never uses it.
  package static let ruleSetHash: String = {
    var hash = ContentHash()
    for rule in rules { hash.update(Array("\(rule.code.rawValue):\(rule.severity.rawValue)\n".utf8)) }
    return hash.hex
  }()
}
