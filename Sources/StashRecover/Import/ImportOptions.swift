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
