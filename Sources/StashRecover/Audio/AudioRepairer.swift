/// What repairing one audio file did.
public struct AudioRepair: Sendable, Equatable {
  /// Whether the file was rewritten (false when it already ended at a whole sample).
  public var rewritten: Bool
  /// Bytes cut from the tail.
  public var bytesRemoved: Int
  /// Seconds of audio the repaired file holds.
  public var duration: Double
  /// What was done, in plain words.
  public var detail: String

  /// Makes a repair outcome.
  public init(rewritten: Bool, bytesRemoved: Int, duration: Double, detail: String) {
    self.rewritten = rewritten
    self.bytesRemoved = bytesRemoved
    self.duration = duration
    self.detail = detail
  }
}

/// Rewrites audio with a torn tail so that it ends at its last whole sample.
public protocol AudioRepairer {
  /// Repairs `name` in `folder` (atomically); `dryRun` only says what would be done.
  func repair(_ name: String, in folder: String, dryRun: Bool, fileSystem: any FileSystem) throws
    -> AudioRepair
}
