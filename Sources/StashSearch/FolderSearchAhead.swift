import Dispatch
import StashFormat
import Synchronization

/// A folder's files searched while its names are still being read: each is handed to the other
/// cores as the listing meets it (`see`), so the search does not wait for the whole folder to be
/// read, sorted and dated (at 2,000 memos that was a third of its time). What a file gave is kept
/// by its memo's base, and only when it is more than "no match": a hit, damage, a file that would
/// not read, or a transcript that is not a regular file. Memory stays bounded: past `hitBudget`
/// hits (a pattern most memos hold), nothing more is searched ahead and every memo is searched
/// when its turn comes (`hasOverflowed`); and when the other cores fall behind the listing, the
/// listing's thread searches what it met itself rather than queue more.
final class FolderSearchAhead: Sendable {
  private let files: MemoFileSearch
  private let kept = Mutex<[[UInt8]: MemoFileSearch.Files]>([:])
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

  init(_ files: MemoFileSearch) { self.files = files }

  /// A memo file's name as the listing reads it (`MemoNames.init(path:seeing:)`): a file searched
  /// that is a regular file is searched on another core; a transcript that is not is noted.
  func see(_ name: UnsafeRawBufferPointer, baseCount: Int, kind: MemoFileKind, entry: DirectoryEntry.Kind) {
    guard files.searches(kind) else { return }
    let text = String(decoding: name, as: UTF8.self)
    guard entry == .file else {
      if kind == .transcript {
        let error = files.notRegular(text)
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
  func results() -> [(base: String, files: MemoFileSearch.Files)] {
    kept.withLock { $0.map { (String(decoding: $0.key, as: UTF8.self), $0.value) } }
  }

  /// Whether more hits were found than are kept: the folder's memos are then all to be searched
  /// when their turn comes, as most of them hold the pattern.
  var hasOverflowed: Bool { overflowed.load(ordering: .relaxed) }

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
  private func keep(_ base: [UInt8], hits: Int, _ change: (inout MemoFileSearch.Files) -> Void) {
    guard keptHits.add(hits, ordering: .relaxed).newValue <= Self.hitBudget else {
      overflowed.store(true, ordering: .relaxed)
      kept.withLock { $0.removeAll() }
      return
    }
    keep(base, change)
  }

  private func keep(_ base: [UInt8], _ change: (inout MemoFileSearch.Files) -> Void) {
    kept.withLock { change(&$0[base, default: MemoFileSearch.Files()]) }
  }

  /// Reads and searches one file, keeping what it gave.
  private func search(_ name: String, baseCount: Int, kind: MemoFileKind) {
    guard !hasOverflowed, let found = files.file(name, kind) else { return }
    keep(Array(name.utf8.prefix(baseCount)), hits: found.hitCount) { $0.merge(found) }
  }
}
