/// What the interface knows of the player at one moment: it reads snapshots, never live state.
package struct PlayerSnapshot: Equatable, Sendable {
  /// The player's state.
  package enum State: Equatable, Sendable {
    case stopped
    case loading
    case playing
    case paused
    /// The memo played to its end (it shows as stopped; it is not remembered as left off).
    case ended
    /// Playback stopped because of a failure; the reason in plain words.
    case failed(String)

    /// Stopped or ended: nothing plays, nothing is loading and no failure is to be said.
    package var isQuiet: Bool { self == .stopped || self == .ended }
  }

  /// A stretch of the memo played over and over, in memo seconds.
  package struct Loop: Equatable, Sendable {
    package var start: Double
    package var end: Double

    /// A value with every field given.
    package init(start: Double, end: Double) {
      self.start = start
      self.end = end
    }
  }

  /// The speeds the speed keys step through.
  package static let speeds: [Double] = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3]
  /// The speeds the player takes.
  package static let speedRange: ClosedRange<Double> = 0.5...3
  /// The volumes the player takes, in percent.
  package static let volumeRange: ClosedRange<Int> = 0...150

  /// The state.
  package var state: State
  /// The memo it holds, by base.
  package var base: String?
  /// Seconds from the start, in memo time (whatever the speed).
  package var position: Double
  /// Length in seconds, or nil when unknown.
  package var duration: Double?
  /// While the length is unknown: the seconds the file's index counts (`PlaybackSnapshot`'s
  /// `countedDuration`), a scale for the scrubber and the waveform, shown as about that long.
  package var countedDuration: Double?
  /// How fast it plays: 1 is as recorded.
  package var speed: Double = 1
  /// The software gain, in percent (100 is as recorded).
  package var volume: Int = 100
  /// Whether the sound is muted (the volume is kept for when it is not).
  package var muted = false
  /// Whether voice boost is on.
  package var voiceBoost = false
  /// Whether the noise reduction (enhance) is on.
  package var enhance = false
  /// How hard long pauses are shortened, or nil when they play whole.
  package var skipSilence: SilenceSkip?
  /// Seconds of this memo's pauses left out so far.
  package var silenceSkipped: Double = 0

  /// The levels of skip silence, as the player has them (`SkipSilenceLevel`).
  package enum SilenceSkip: String, CaseIterable, Sendable {
    case mild, medium, strong

    /// Seconds a long pause is shortened to.
    package var keptSeconds: Double {
      switch self {
      case .mild: 0.5
      case .medium: 0.3
      case .strong: 0.15
      }
    }

    /// The next level the key turns to after `level`: mild, medium, strong, then off.
    package static func after(_ level: SilenceSkip?) -> SilenceSkip? {
      guard let level else { return .mild }
      let all = allCases
      let next = all.firstIndex(of: level)! + 1
      return next < all.count ? all[next] : nil
    }
  }
  /// The A-B loop, if one is set.
  package var loop: Loop?

  /// Nothing loaded.
  package static let idle = PlayerSnapshot(state: .stopped, base: nil, position: 0, duration: nil)

  /// The length the scrubber and the waveform span: the length when known, else the counted one.
  package var scaleDuration: Double? { duration ?? countedDuration }

  /// Whether it holds a memo it is playing or could resume.
  package var isActive: Bool { state == .playing || state == .paused || state == .loading }

  /// A value with every field given.
  package init(
    state: State, base: String? = nil, position: Double, duration: Double? = nil, speed: Double = 1,
    volume: Int = 100, muted: Bool = false, voiceBoost: Bool = false, skipSilence: SilenceSkip? = nil,
    silenceSkipped: Double = 0, loop: Loop? = nil, enhance: Bool = false, countedDuration: Double? = nil
  ) {
    self.countedDuration = countedDuration
    self.voiceBoost = voiceBoost
    self.enhance = enhance
    self.skipSilence = skipSilence
    self.silenceSkipped = silenceSkipped
    self.state = state
    self.base = base
    self.position = position
    self.duration = duration
    self.speed = speed
    self.volume = volume
    self.muted = muted
    self.loop = loop
  }

  /// The nearest speed the player takes.
  package static func clamped(speed: Double) -> Double {
    guard speed.isFinite else { return 1 }
    return min(speedRange.upperBound, max(speedRange.lowerBound, speed))
  }

  /// The nearest volume the player takes.
  package static func clamped(volume: Int) -> Int {
    min(volumeRange.upperBound, max(volumeRange.lowerBound, volume))
  }
}
