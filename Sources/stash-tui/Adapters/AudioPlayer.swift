import StashBrowser
import StashPlayback

/// The browser's player: StashPlayback's `Player` on the ALSA device (`STASH_ALSA_DEVICE`, else
/// `default`). Loading happens on play; everything else returns at once, and the loop reads
/// snapshots, woken by `onChange` whenever the player's state changes (it ended, it failed).
final class AudioPlayer: PlayerControl {
  private let player: Player
  /// The memo loaded, and its path.
  private var base: String?
  private var path: String?
  /// Why the last load failed, kept until the next play.
  private var loadFailure: String?

  /// A player on `device` (nil: `STASH_ALSA_DEVICE`, else `default`); `onChange` is called, on any
  /// thread, when its state changes.
  init(device: String? = nil, onChange: @escaping @Sendable () -> Void = {}) {
    player = Player(device: device, onChange: { _ in onChange() })
  }

  func play(path: String, base: String, from: Double, duration: Double?) {
    loadFailure = nil
    if path != self.path || base != self.base {
      do {
        try player.load(path: path)
      } catch {
        self.base = base
        self.path = nil
        loadFailure = error.message
        return
      }
      self.base = base
      self.path = path
    }
    player.play(from: from)
  }

  func togglePause() { player.togglePause() }

  func seek(to seconds: Double) { player.seek(to: seconds) }

  func stop() {
    player.stop()
    base = nil
    path = nil
    loadFailure = nil
  }

  func setSpeed(_ speed: Double) -> String? { player.setSpeed(speed).map { "\($0)" } }

  func setVolume(_ percent: Int) { player.setVolume(percent) }

  func setMuted(_ muted: Bool) { player.setMuted(muted) }

  func setVoiceBoost(_ on: Bool) -> String? { player.setVoiceBoost(on).map { "\($0)" } }

  func setEnhance(_ on: Bool) -> String? { player.setEnhance(on).map { "\($0)" } }

  func setSkipSilence(_ level: PlayerSnapshot.SilenceSkip?) {
    player.setSkipSilence(level.flatMap { SkipSilenceLevel(rawValue: $0.rawValue) })
  }

  func setLoop(from: Double, to: Double) { player.setLoop(from: from, to: to) }

  func clearLoop() { player.clearLoop() }

  func snapshot() -> PlayerSnapshot {
    let s = player.snapshot
    if let loadFailure {
      return PlayerSnapshot(
        state: .failed(loadFailure), base: base, position: 0, duration: nil, speed: s.speed, volume: s.volume,
        muted: s.muted, voiceBoost: s.voiceBoost, skipSilence: Self.level(s.skipSilence), enhance: s.enhance)
    }
    let state: PlayerSnapshot.State
    switch s.state {
    case .idle: state = .stopped
    case .playing: state = .playing
    case .paused: state = .paused
    case .ended: state = .ended
    case .failed(let error): state = .failed(error.message)
    }
    return PlayerSnapshot(
      state: state, base: base, position: s.position, duration: s.duration, speed: s.speed, volume: s.volume,
      muted: s.muted, voiceBoost: s.voiceBoost, skipSilence: Self.level(s.skipSilence),
      silenceSkipped: s.silenceSkipped,
      loop: s.loop.map { PlayerSnapshot.Loop(start: $0.start, end: $0.end) },
      enhance: s.enhance, countedDuration: s.countedDuration)
  }

  /// The browser's name for a level of the player's.
  private static func level(_ level: SkipSilenceLevel?) -> PlayerSnapshot.SilenceSkip? {
    level.flatMap { PlayerSnapshot.SilenceSkip(rawValue: $0.rawValue) }
  }
}
