/// How an import behaves; `stash import`'s flags map onto these.
public struct ImportOptions: Sendable {
  /// The time now, seconds since 1970 (a parameter so tests control "recent").
  public var now: Double
  /// A memo whose files changed less than this many seconds ago is looked at twice before it is
  /// copied, since it may still be recording.
  public var recentWindow: Double
  /// Seconds between the two looks at a recent memo. The phone flushes its audio every few seconds
  /// and rewrites the open route part every ten, so a recording still running changes in between.
  public var settle: Double
  /// Remove from the source what was copied, verified and made durable in the target.
  public var move: Bool
  /// Say what would be done; write nothing, remove nothing.
  public var dryRun: Bool

  /// Bring again the memos (and files) deleted from the target since an import brought them.
  public var again = false
  /// Bring also the Voice Memos recordings their database puts in Recently Deleted.
  public var includeDeleted = false
  /// Where the target's import record is kept, or nil for none (every memo judged by what the
  /// target holds alone).
  public var record: RecordLocation?

  /// The file an import record is kept in, and the identity of the folder it is for.
  public struct RecordLocation: Sendable, Equatable {
    /// The record's path (`ImportRecord.path(forTarget:stateHome:)`).
    public var path: String
    /// The target folder's identity (`<device>:<inode>`): a record written for another folder once
    /// at the same path is not used.
    public var folder: String

    /// A record at `path` for the folder `folder` identifies.
    public init(path: String, folder: String) {
      self.path = path
      self.folder = folder
    }
  }

  /// Options; by default a memo changed in the last two minutes is looked at again after 3 s.
  public init(
    now: Double, recentWindow: Double = 120, settle: Double = 3, move: Bool = false, dryRun: Bool = false
  ) {
    self.now = now
    self.recentWindow = recentWindow
    self.settle = settle
    self.move = move
    self.dryRun = dryRun
  }
}
