/// What the desktop's media controls (MPRIS: media keys, a panel's player widget, `playerctl`)
/// ask of the browser. The bus side turns each call into one of these, as an event, and the
/// update step decides what it means, as it does for a key.
package enum RemoteCommand: Equatable, Sendable {
  /// Play the current memo; resume it when paused.
  case play
  /// Pause when playing.
  case pause
  /// Pause when playing, play otherwise.
  case playPause
  /// Stop and let go of the memo.
  case stop
  /// The next or previous memo that can play, in the list's order.
  case next
  case previous
  /// Move by seconds from where it is (negative: back).
  case seek(by: Double)
  /// Move to seconds in the memo with that track id; ignored when it is not the memo playing.
  case setPosition(trackID: String, seconds: Double)
  /// Play the memo with that base (the bus side resolves a file URI to a memo of the folder).
  case open(base: String)
  /// The speed, 1 being normal.
  case setRate(Double)
  /// The volume, 1 being 100 %.
  case setVolume(Double)
  /// Leave, as `q` does.
  case quit
}
