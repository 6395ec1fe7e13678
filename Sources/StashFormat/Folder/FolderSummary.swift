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
  /// Names that are not part of a memo, hidden ones left out.
  public var otherFiles: Int
  /// Groups of bases that would collide on the phone.
  public var collisions: Int

  /// Counts the folder's memos and other names.
  public init(_ folder: MemoFolder) {
    self.init(others: folder.others, collisions: folder.collisions)
    for memo in folder.memos { add(Tally(memo)) }
  }

  /// The totals of a folder whose memos are still to be counted (`add`, one at a time in
  /// listing order, so the summed length is the same number `init(_:)` gives).
  public init(others: [FolderEntry], collisions: [NameCollision]) {
    (memoCount, captureCount, totalSeconds, unknownLengthCount) = (0, 0, 0, 0)
    needingRecovery = 0
    otherFiles = others.count { if case .hidden = $0.role { false } else { true } }
    self.collisions = collisions.count
  }

  /// What one memo adds to the totals, kept without the memo.
  public struct Tally: Sendable {
    var hasAudio: Bool
    var seconds: Double?
    var needsRecovery: Bool

    public init(_ memo: Memo) {
      (hasAudio, seconds, needsRecovery) = (memo.hasAudio, memo.durationSeconds, memo.needsRecovery)
    }
  }

  /// Counts one memo.
  public mutating func add(_ tally: Tally) {
    if tally.hasAudio {
      memoCount += 1
      if let seconds = tally.seconds {
        totalSeconds += seconds
      } else {
        unknownLengthCount += 1
      }
    } else {
      captureCount += 1
    }
    if tally.needsRecovery { needingRecovery += 1 }
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
