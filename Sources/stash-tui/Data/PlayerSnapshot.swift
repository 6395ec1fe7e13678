/// What the interface knows of the player at one moment: it reads snapshots, never live state.
struct PlayerSnapshot: Equatable, Sendable {
  /// The player's state.
  enum State: Equatable, Sendable {
    case stopped
    case loading
    case playing
    case paused
    /// Playback stopped because of a failure; the reason in plain words.
    case failed(String)
  }

  /// The state.
  var state: State
  /// The memo it holds, by base.
  var base: String?
  /// Seconds from the start.
  var position: Double
  /// Length in seconds, or nil when unknown.
  var duration: Double?

  /// Nothing loaded.
  static let idle = PlayerSnapshot(state: .stopped, base: nil, position: 0, duration: nil)

  /// Whether it holds a memo it is playing or could resume.
  var isActive: Bool { state == .playing || state == .paused || state == .loading }
}
