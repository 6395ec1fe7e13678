import Dispatch
import StashFormat
import StashSearch
import Synchronization

/// A folder's transcripts, titles and bookmarks searched while its names are still being read: each is
/// handed to the other cores as the listing meets it (`see`), so the search does not wait for
/// the whole folder to be read, sorted and dated (at 2,000 memos that was a third of its time).
/// What a file gave is kept by its memo's base, and only when it is more than "no match": a hit,
/// damage, a file that would not read, or a transcript that is not a regular file. Memory stays
/// bounded: past `hitBudget` hits (a pattern most memos hold), nothing more is searched ahead and
/// every memo is searched when its turn to be printed comes, as before; and when the other cores
/// fall behind the listing, the listing's thread searches what it met itself rather than queue
/// more.
final class SearchAhead: Sendable {
  /// What one memo's files gave, as far as they were worth keeping.
  struct Result: Sendable {
    /// The title read and its hits (kept only when it has some).
    var title: (Title, [SearchHit])?
    /// The bookmarks' hits (in their notes).
    var bookmarks: [SearchHit] = []
    /// The transcript's hits.
    var transcript: [SearchHit] = []
    /// The first error the transcript's reading met, worded (it still gives what it holds).
    var warning: String?
    /// Why the transcript could not be searched.
    var error: String?
  }

  private let folder: String
  private let opened: OpenFolder
  private let pattern: SearchPattern
  private let kept = Mutex<[[UInt8]: Result]>([:])
  private let group = DispatchGroup()
  /// Names met since the last hand-over, on the listing's thread alone.
  private let pending = Mutex<[(name: String, baseCount: Int, kind: MemoFileKind)]>([])
  /// How many names are handed over at a time: few enough to keep both cores busy from the
  /// start, enough that handing over costs nothing beside reading them.
  private static let batch = 32
  /// Batches handed over and not yet begun: past `deepest`, the listing's thread searches a batch
  /// itself.
  private let queued = Atomic<Int>(0)
  private static let deepest = 8
  /// Hits kept so far, and how many may be (a hit holds its cue's text: a few hundred bytes).
  private let keptHits = Atomic<Int>(0)
  private let overflowed = Atomic<Bool>(false)
  static let hitBudget = 20_000

  init(folder: String, pattern: SearchPattern) {
    self.folder = folder
    opened = OpenFolder(path: folder)
    self.pattern = pattern
  }

  /// A memo file's name as the listing reads it (`MemoNames.init(path:seeing:)`): a transcript or
  /// title that is a regular file is searched on another core; a transcript that is not is noted.
  func see(_ name: UnsafeRawBufferPointer, baseCount: Int, kind: MemoFileKind, entry: DirectoryEntry.Kind) {
    guard kind == .transcript || kind == .title || kind == .bookmarks else { return }
    let text = String(decoding: name, as: UTF8.self)
    guard entry == .file else {
      if kind == .transcript {
        let error = notRegular(text)
        keep(Array(name[..<baseCount])) { $0.error = error }
      }
      return
    }
    let full = pending.withLock { names -> [(name: String, baseCount: Int, kind: MemoFileKind)]? in
      names.append((text, baseCount, kind))
      guard names.count >= Self.batch else { return nil }
      defer { names.removeAll(keepingCapacity: true) }
      return names
    }
    if let full { handOver(full) }
  }

  /// Hands over what is left and waits until every file handed over has been searched.
  func finish() {
    let rest = pending.withLock { names in
      defer { names.removeAll() }
      return names
    }
    if !rest.isEmpty { handOver(rest) }
    group.wait()
  }

  /// What each memo gave, by its base, for the memos whose files gave anything (once `finish`
  /// has returned).
  func results() -> [(base: String, result: Result)] {
    kept.withLock { $0.map { (String(decoding: $0.key, as: UTF8.self), $0.value) } }
  }

  private func handOver(_ names: [(name: String, baseCount: Int, kind: MemoFileKind)]) {
    guard queued.load(ordering: .relaxed) < Self.deepest else {
      for (name, baseCount, kind) in names { search(name, baseCount: baseCount, kind: kind) }
      return
    }
    queued.add(1, ordering: .relaxed)
    DispatchQueue.global().async(group: group) {
      self.queued.subtract(1, ordering: .relaxed)
      for (name, baseCount, kind) in names { self.search(name, baseCount: baseCount, kind: kind) }
    }
  }

  /// Keeps `hits` by way of `change`; past the budget, keeps nothing more and forgets what it
  /// kept (`overflowed`).
  private func keep(_ base: [UInt8], hits: Int, _ change: (inout Result) -> Void) {
    guard keptHits.add(hits, ordering: .relaxed).newValue <= Self.hitBudget else {
      overflowed.store(true, ordering: .relaxed)
      kept.withLock { $0.removeAll() }
      return
    }
    keep(base, change)
  }

  private func keep(_ base: [UInt8], _ change: (inout Result) -> Void) {
    kept.withLock { change(&$0[base, default: Result()]) }
  }

  /// Whether more hits were found than are kept: the folder's memos are then all to be searched
  /// when their turn to be printed comes (`memo`), as most of them hold the pattern.
  var hasOverflowed: Bool { overflowed.load(ordering: .relaxed) }

  /// Reads and searches one file, keeping what it gave.
  private func search(_ name: String, baseCount: Int, kind: MemoFileKind) {
    guard !hasOverflowed, let found = file(name, kind) else { return }
    let hits = (found.title?.1.count ?? 0) + found.bookmarks.count + found.transcript.count
    keep(Array(name.utf8.prefix(baseCount)), hits: hits) { $0.merge(found) }
  }

  /// What the file `name` of `kind` (a regular file) gives, or nil for nothing worth keeping.
  private func file(_ name: String, _ kind: MemoFileKind) -> Result? {
    let location = opened.file(name)
    if kind == .title {
      let title = Title.read(location, listedAsRegularFile: true)
      guard let text = title.text else { return nil }
      let hits = MemoSearch.hits(pattern, title: text, document: nil)
      guard !hits.isEmpty else { return nil }
      // A hit in a damaged title (bytes that are not UTF-8, shown as �) says so, as lint does.
      return Result(
        title: (title, hits),
        warning: title.problems.first { $0.severity == .error }.map { warning(name, $0) })
    }
    if kind == .bookmarks {
      // A bookmarks file that cannot be read is lint's to report; its notes are searched for what it holds.
      guard
        let bytes = try? ReadOnlyFile.contents(
          of: location, usuallyUpTo: 1 << 14, listedAsRegularFile: true, limit: Bookmarks.maximumBytes)
      else { return nil }
      let bookmarks = Bookmarks.parse(bytes)
      let hits = MemoSearch.hits(pattern, bookmarks: bookmarks)
      guard !hits.isEmpty else { return nil }
      return Result(
        bookmarks: hits,
        warning: bookmarks.problems.first { $0.severity == .error }.map { warning(name, $0) })
    }
    do {
      // Most transcripts fit in one read, with no fstat(2); a longer one is read again whole.
      let bytes = try ReadOnlyFile.contents(of: location, usuallyUpTo: 1 << 16, listedAsRegularFile: true)
      let (hits, damage) = MemoSearch.hits(pattern, title: nil, transcript: bytes)
      guard !hits.isEmpty || damage != nil else { return nil }
      return Result(transcript: hits, warning: damage.map { warning(name, $0) })
    } catch let failure {
      return Result(error: "\(path(name)): \(failure.message)")
    }
  }

  /// What the memo `candidate`'s files give, searched now: for a memo of a folder that
  /// `hasOverflowed`.
  func memo(_ candidate: FolderGrouping.Candidate) -> Result {
    var result = Result()
    if let slot = candidate.title, slot.kind == .file, let found = file(slot.name, .title) {
      result.merge(found)
    }
    if let slot = candidate.bookmarks, slot.kind == .file, let found = file(slot.name, .bookmarks) {
      result.merge(found)
    }
    if let slot = candidate.transcript {
      if slot.kind == .file {
        if let found = file(slot.name, .transcript) { result.merge(found) }
      } else {
        result.error = notRegular(slot.name)
      }
    }
    return result
  }

  /// The warning for a file searched though damaged.
  private func warning(_ name: String, _ damage: Diagnostic) -> String {
    damage.warning(file: PathText.join(folder, name), done: "searched what it holds")
  }

  /// The file `name` of the folder as messages name it.
  private func path(_ name: String) -> String { PathText.escaped(PathText.join(folder, name)) }

  /// The words for a transcript that is not a regular file.
  private func notRegular(_ name: String) -> String { "\(path(name)): not a regular file; not searched" }
}

extension SearchAhead.Result {
  /// Takes what `other` (another file of the memo) gave.
  mutating func merge(_ other: Self) {
    title = other.title ?? title
    bookmarks += other.bookmarks
    transcript += other.transcript
    warning = other.warning ?? warning
    error = other.error ?? error
  }
}
