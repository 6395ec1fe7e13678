#if canImport(Glibc)
  import Glibc
#endif

/// Tells the pauses of a memo from its speech, 10 ms at a time, by the memo's own noise floor
/// measured as it plays: a window is silent when its RMS is within 10 dB of the floor (the RMS
/// of the quietest recent window, rising 3 dB/s while nothing quieter comes: `NoiseFloor`, as the
/// voice boost follows it) and below -20 dBFS whatever the floor; it is loud, ending a pause, 13 dB
/// above the floor or above -20 dBFS (between the two, it carries on what was). So a steady hum, wind or traffic
/// between the sentences is a pause, and a quiet speaker, well above their own background, is not.
/// The first 0.3 s only teach it the floor (`learning`): the skipper holds them back and asks
/// about them once it knows it.
struct SilenceDetector {
  /// The window: long enough for an RMS that does not follow each cycle of a low voice, short
  /// enough that a cut lands within 10 ms of where the pause starts.
  static let windowSeconds = 0.01
  /// Windows measured before any is judged: the quietest of them is the first floor. 0.3 s holds
  /// a gap between words even when the memo opens with speech.
  static let learningWindows = 30
  /// No window louder than this (RMS, -20 dBFS) is silent, whatever the floor has risen to: speech
  /// that long and that loud without a dip would otherwise be taken for background.
  static let ceiling: Float = 0.1
  /// The lowest the floor goes (-70 dBFS): below it the coder's own smear around a sound (AAC's
  /// pre-echo, far below hearing) would count as speech.
  static let lowest: Float = 0.000_316

  /// Frames in a window.
  let windowFrames: Int
  private(set) var floor = NoiseFloor(blockSeconds: windowSeconds, lowest: lowest)
  private var measured = 0

  init(rate: Int) { windowFrames = max(1, Int((Double(rate) * Self.windowSeconds).rounded())) }

  /// Whether the floor is still being learnt.
  var learning: Bool { measured < Self.learningWindows }

  /// The level below which a window is silent now: a pause starts at such a window.
  var threshold: Float { min(floor.value * NoiseFloor.margin, Self.ceiling) }
  /// The level above which a window is loud now: two in a row end a pause. Higher than
  /// `threshold` by 3 dB, so that a background's own ups and downs (its 10 ms windows spread
  /// over 15 dB at 8 kHz, pink noise) do not break a pause into short ones.
  var onsetThreshold: Float { min(floor.value * Self.onsetMargin, Self.ceiling) }
  /// 13 dB.
  static let onsetMargin: Float = 4.47

  /// The RMS of a window of interleaved samples (or the last part of one; every channel counts),
  /// taken into the floor.
  mutating func measure(_ samples: ArraySlice<Float>) -> Float {
    guard !samples.isEmpty else { return 0 }
    var sum: Float = 0
    for sample in samples { sum += sample * sample }
    let level = (sum / Float(samples.count)).squareRoot()
    floor.follow(level)
    measured += 1
    return level
  }
}
