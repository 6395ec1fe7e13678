/// What the interface reads: a value taken at one moment, never the player's live state.
public struct PlaybackSnapshot: Sendable, Equatable {
  /// Where the player is.
  public var state: PlaybackState
  /// Seconds into the memo of what is being heard now (frames handed to the device minus those it
  /// still holds).
  public var position: Double
  /// The memo's length in seconds, or nil while it is unknown (it becomes known at the end).
  public var duration: Double?
  /// The audio file loaded, if any.
  public var path: String?
  /// The sound device's name.
  public var device: String
  /// Counts every change of state, seek and load, so a reader can tell that something happened.
  public var revision: UInt64
  /// Underruns recovered while playing (the machine fell behind the device).
  public var underruns: Int
  /// Seconds from the last seek call to the first frame of the new position handed to the device.
  public var lastSeekLatency: Double?
}
