/// The totals a listing shows under its memos, counted once here so the CLI and the browser agree.
public struct FolderSummary: Sendable, Equatable {
  /// Memos with audio.
  public var memoCount: Int
  /// Captures whose audio is missing.
  public var captureCount: Int
  /// The summed length of the memos whose length is known, in seconds.
  public var totalSeconds: Double
  /// Memos whose length is unknown.
  public var unknownLengthCount: Int
  /// Memos and captures the recovery sweep has work on.
  public var needingRecovery: Int
  /// Memos with a problem (a warning or an error).
  public var withProblems: Int
  /// Names that are not part of a memo, hidden ones left out.
  public var otherFiles: Int
  /// Groups of bases that would collide on the phone.
  public var collisions: Int

  /// Counts the folder's memos and other names.
  public init(_ folder: MemoFolder) {
    let memos = folder.memos.filter(\.hasAudio)
    memoCount = memos.count
    captureCount = folder.memos.count - memos.count
    totalSeconds = memos.compactMap(\.durationSeconds).reduce(0, +)
    unknownLengthCount = memos.count { $0.durationSeconds == nil }
    needingRecovery = folder.memos.count(where: \.needsRecovery)
    withProblems = folder.memos.count(where: \.hasProblem)
    otherFiles = folder.others.count { if case .hidden = $0.role { false } else { true } }
    collisions = folder.collisions.count
  }

}

extension MemoFolder {
  /// The totals of this reading.
  public var summary: FolderSummary { FolderSummary(self) }

  /// Every finding of the reading in one list, each naming its file: memo problems (newest memo
  /// first), then other names (in byte order), then collisions (no single file). Hidden names have none.
  public var findings: [MemoProblem] {
    memos.flatMap(\.problems)
      + others.compactMap { entry in entry.diagnostic.map { MemoProblem(file: entry.name, $0) } }
      + collisions.map { MemoProblem(file: nil, $0.diagnostic) }
  }
}
