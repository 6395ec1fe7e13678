import StashBrowser

/// A player on a virtual clock for the `--render-once` test hook: it moves only when the script
/// says `<wait N>`, so a golden screen of a memo playing is the same on every run. It plays no
/// sound; the real player is tested on ALSA by its own module and end to end in tmux.
final class VirtualPlayer: PlayerControl {
  private var state = PlayerSnapshot.idle

  func play(path: String, base: String, from: Double, duration: Double?) {
    state = PlayerSnapshot(state: .playing, base: base, position: from, duration: duration)
  }

  func togglePause() {
    if state.state == .playing {
      state.state = .paused
    } else if state.state == .paused {
      state.state = .playing
    }
  }

  func seek(to seconds: Double) {
    state.position = max(0, state.duration.map { min($0, seconds) } ?? seconds)
  }

  func stop() { state = .idle }

  func snapshot() -> PlayerSnapshot { state }

  /// Moves the clock on by `seconds` while playing; at the end the memo stops, as the real one does.
  func advance(_ seconds: Double) {
    guard state.state == .playing else { return }
    state.position += seconds
    if let d = state.duration, state.position >= d { state = .idle }
  }
}
