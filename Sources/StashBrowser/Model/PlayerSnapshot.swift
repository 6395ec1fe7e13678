/// What the interface knows of the player at one moment: it reads snapshots, never live state.
package struct PlayerSnapshot: Equatable, Sendable {
  /// The player's state.
  package enum State: Equatable, Sendable {
    case stopped
    case loading
    case playing
    case paused
    /// Playback stopped because of a failure; the reason in plain words.
    case failed(String)
  }

  /// The state.
  package var state: State
  /// The memo it holds, by base.
  package var base: String?
  /// Seconds from the start.
  package var position: Double
  /// Length in seconds, or nil when unknown.
  package var duration: Double?

  /// Nothing loaded.
  package static let idle = PlayerSnapshot(state: .stopped, base: nil, position: 0, duration: nil)

  /// Whether it holds a memo it is playing or could resume.
  package var isActive: Bool { state == .playing || state == .paused || state == .loading }

  /// A value with every field given.
  package init(state: State, base: String? = nil, position: Double, duration: Double? = nil) {
    self.state = state
    self.base = base
    self.position = position
    self.duration = duration
  }
}
