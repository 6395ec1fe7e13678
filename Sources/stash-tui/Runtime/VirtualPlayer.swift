import StashBrowser

/// A player on a virtual clock for the `--render-once` test hook: it moves only when the script
/// says `<wait N>`, so a golden screen of a memo playing is the same on every run. It plays no
/// sound; the real player is tested on ALSA by its own module and end to end in tmux. Its speed,
/// volume and loop act on the clock as the real one's do on the sound.
final class VirtualPlayer: PlayerControl {
  private var state = PlayerSnapshot.idle

  func play(path: String, base: String, from: Double, duration: Double?) {
    let keep = state
    state = PlayerSnapshot(
      state: .playing, base: base, position: from, duration: duration, speed: keep.speed, volume: keep.volume,
      muted: keep.muted, voiceBoost: keep.voiceBoost, skipSilence: keep.skipSilence, enhance: keep.enhance)
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

  func stop() { state = settings(of: .idle) }

  func setSpeed(_ speed: Double) -> String? {
    state.speed = PlayerSnapshot.clamped(speed: speed)
    return nil
  }

  func setVolume(_ percent: Int) { state.volume = PlayerSnapshot.clamped(volume: percent) }

  func setMuted(_ muted: Bool) { state.muted = muted }

  func setVoiceBoost(_ on: Bool) -> String? {
    state.voiceBoost = on
    return nil
  }

  func setEnhance(_ on: Bool) -> String? {
    state.enhance = on
    return nil
  }

  func setSkipSilence(_ level: PlayerSnapshot.SilenceSkip?) { state.skipSilence = level }

  func setLoop(from: Double, to: Double) {
    guard state.isActive else { return }
    state.loop = PlayerSnapshot.Loop(start: from, end: to)
  }

  func clearLoop() { state.loop = nil }

  func snapshot() -> PlayerSnapshot { state }

  /// `snapshot` with this player's speed and volume, which outlast a memo.
  private func settings(of snapshot: PlayerSnapshot) -> PlayerSnapshot {
    var s = snapshot
    s.speed = state.speed
    s.volume = state.volume
    s.muted = state.muted
    s.voiceBoost = state.voiceBoost
    s.enhance = state.enhance
    s.skipSilence = state.skipSilence
    return s
  }

  /// Moves the clock on by `seconds` of real time while playing (memo time moves `speed` times
  /// as fast); a loop wraps back to its start; at the end the memo ends, as the real one does.
  func advance(_ seconds: Double) {
    guard state.state == .playing else { return }
    state.position += seconds * state.speed
    if let loop = state.loop, state.position >= loop.end, loop.end > loop.start {
      state.position =
        loop.start + (state.position - loop.start).truncatingRemainder(dividingBy: loop.end - loop.start)
    }
    if let d = state.duration, state.position >= d {
      state = settings(
        of: PlayerSnapshot(state: .ended, base: state.base, position: d, duration: d))
    }
  }
}
