/// Where the player is.
public enum PlaybackState: Sendable, Equatable {
  /// Nothing playing: no memo loaded, or stopped.
  case idle
  /// Audio is being heard (or about to be: the device is filling).
  case playing
  /// Stopped at `position`; resume carries on from the very next frame.
  case paused
  /// Played to the end of the memo (or of the range asked for).
  case ended
  /// Cannot play, and why. Play or seek tries again.
  case failed(PlaybackError)
}
