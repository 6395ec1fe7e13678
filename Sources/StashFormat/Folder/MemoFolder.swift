/// A memo folder as it is right now: one reading of the directory, with no cache and no index, so
/// reading it again sees whatever changed outside. Reading never writes.
public struct MemoFolder: Sendable {
  /// The folder's path as given.
  public var path: String
  /// Memos and captures, newest first (ties by base in byte order). A capture (parts with no audio)
  /// is here with `hasAudio == false`, because a user needs to see it to recover it.
  public var memos: [Memo]
  /// Every other name, in byte order: orphans, near misses, strangers and hidden names.
  public var others: [FolderEntry]
  /// Groups of bases that the phone's file system would merge.
  public var collisions: [NameCollision]

  /// Creates a folder reading from its parts.
  public init(path: String, memos: [Memo], others: [FolderEntry], collisions: [NameCollision]) {
    self.path = path
    self.memos = memos
    self.others = others
    self.collisions = collisions
  }

  /// The full path of a memo's file of `kind`, or nil when it has none.
  public func path(of memo: Memo, _ kind: MemoFileKind) -> String? {
    memo.files[kind].map { MemoFolder.join(path, $0) }
  }

  /// Reads the folder at `path`: one pass over its names, then each memo's audio summary, title and
  /// parts folder (in parallel, the result in a fixed order). A file that cannot be read becomes a
  /// problem of its memo; only a folder that cannot be read at all throws (`folder-unreadable`).
  public static func read(path: String) throws(FormatError) -> MemoFolder {
    let grouping = try group(path: path)
    let candidates = grouping.candidates
    let now = RecordingDate.currentTime()
    let opened = OpenFolder(path: path)
    var memos = Parallel.map(candidates.count, chunk: 64) { index in
      Memo.read(candidates[index], folder: path, now: now, opened: opened)
    }
    // Sort positions, not memos: a memo is a large value and moving it is the cost of a sort.
    let keys = memos.map { ($0.recordedAt, $0.base) }
    var order = Array(memos.indices)
    order.sort { i, j in
      listsBefore(
        keys[i].0, keys[j].0, basePrecedes: keys[i].1.utf8.lexicographicallyPrecedes(keys[j].1.utf8))
    }
    // Then put each memo in place by swaps along the permutation's cycles (memos[j] becomes the
    // memo at order[j]): moved, never copied, so no memo's strings are retained and released.
    var placed = [Bool](repeating: false, count: order.count)
    for start in order.indices where !placed[start] {
      var j = start
      while true {
        placed[j] = true
        let k = order[j]
        if k == start { break }
        memos.swapAt(j, k)
        j = k
      }
    }
    return MemoFolder(path: path, memos: memos, others: grouping.others, collisions: grouping.collisions)
  }

  /// The folder's names sorted into memos and the rest, nothing opened: one pass over the
  /// directory, read ahead on a second thread. Throws only when the folder cannot be read
  /// (`folder-unreadable`).
  package static func group(path: String) throws(FormatError) -> FolderGrouping {
    try FolderGrouping(path: path)
  }

  /// The listing's order, the one place that says it: whether a memo dated `date` comes before one
  /// dated `other`. Newest first; a tie by base in byte order, which `basePrecedes` tells (asked
  /// only for a tie). `read`, the browser's listing and its list of rows all sort with it.
  @inlinable
  public static func listsBefore(_ date: Double, _ other: Double, basePrecedes: @autoclosure () -> Bool)
    -> Bool
  {
    date != other ? date > other : basePrecedes()
  }

  /// `folder/name`, without doubling a trailing slash.
  static func join(_ folder: String, _ name: String) -> String {
    PathText.join(folder, name)
  }
}
