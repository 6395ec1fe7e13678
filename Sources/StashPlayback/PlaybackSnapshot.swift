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
  /// How fast the memo plays (0.5 to 3; 1 is as recorded), the pitch kept. Every time above is
  /// memo time, whatever the speed.
  public var speed: Double = 1
  /// The software gain in percent (0 to 150); above 100 the peaks are limited, never wrapped.
  public var volume: Int = 100
  /// Whether the output is silenced (the volume is kept for when it is not).
  public var muted: Bool = false
  /// The A-B loop being repeated, in memo seconds, if any.
  public var loop: PlaybackLoop? = nil
  /// Seconds from the last speed change to the first frame made at the new speed handed to the
  /// device (on the player's clock); nil until it got there.
  public var lastSpeedLatency: Double? = nil
  /// The same for the last volume or mute change.
  public var lastVolumeLatency: Double? = nil
  /// Whether the voice boost is on (a quiet voice brought up to a steady loudness).
  public var voiceBoost: Bool = false
  /// How hard skip silence shortens long pauses, or nil when it is off.
  public var skipSilence: SkipSilenceLevel? = nil
  /// Memo seconds skip silence has left out of this memo so far (every position above stays in
  /// memo time: a cut makes the position jump forward by what it left out).
  public var silenceSkipped: Double = 0
  /// Seconds from the last voice boost change to the first frame made with it handed to the
  /// device (on the player's clock); nil until it got there.
  public var lastVoiceBoostLatency: Double? = nil
  /// The same for the last skip silence change (on, off or another level).
  public var lastSkipSilenceLatency: Double? = nil
  /// Whether the noise reduction is on (a steady background brought down under the voice).
  public var enhance: Bool = false
  /// The same as `lastVoiceBoostLatency` for the last noise reduction change.
  public var lastEnhanceLatency: Double? = nil
  /// While `duration` is unknown (the file states no length): the seconds its index's access units
  /// decode to, each making the frames its configuration says. A count of what is there, not a
  /// length the file states: a scale to draw positions against. Nil when `duration` is known or
  /// nothing was counted.
  public var countedDuration: Double? = nil
}

/// An A-B loop: playing reaches `end` and carries on from `start`, with no gap.
public struct PlaybackLoop: Sendable, Equatable {
  /// Memo seconds where each pass starts (A).
  public var start: Double
  /// Memo seconds where each pass ends (B); later than `start`.
  public var end: Double

  /// A loop from `start` to `end` (memo seconds).
  public init(start: Double, end: Double) {
    self.start = start
    self.end = end
  }
}
