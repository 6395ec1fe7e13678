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
    let folder = try MemoFolderOrder<FolderGrouping>(path: path)
    return MemoFolder(
      path: path, memos: folder.memos(), others: folder.names.others, collisions: folder.names.collisions)
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

  /// `listsBefore` for a memo dated `date` whose base is `base` and one dated `other` whose base
  /// is `otherBase` (the bases are looked at only for a tie).
  @inlinable
  package static func listsBefore(
    _ date: Double, _ base: @autoclosure () -> String, _ other: Double, _ otherBase: @autoclosure () -> String
  ) -> Bool {
    listsBefore(date, other, basePrecedes: base().utf8.lexicographicallyPrecedes(otherBase().utf8))
  }

  /// `folder/name`, without doubling a trailing slash.
  static func join(_ folder: String, _ name: String) -> String {
    PathText.join(folder, name)
  }
}
