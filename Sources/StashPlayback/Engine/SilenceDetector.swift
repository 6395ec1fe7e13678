#if canImport(Glibc)
  import Glibc
#endif

/// Tells the pauses of a memo from its speech, 10 ms at a time, by the memo's own noise floor
/// measured as it plays. The floor follows the RMS over the last 100 ms (`NoiseFloor`, as the voice
/// boost follows it: down at once to anything quieter, else up 3 dB/s), which in a pause is the
/// background's own level give or take a decibel, not the deepest dip of its 10 ms windows. Each
/// window is judged by the RMS over the last 30 ms: silent within 4 dB of the floor and below
/// -20 dBFS, loud (two such end a pause) 7 dB above it or above -20 dBFS. So a steady hum, wind or
/// traffic between the sentences is a pause, and a voice that stands clear of its background is
/// not, however quiet. The first 0.3 s only teach it the floor (`learning`): the skipper holds them
/// back and asks about them once it knows it.
struct SilenceDetector {
  /// The window: long enough for an RMS that does not follow each cycle of a low voice, short
  /// enough that a cut lands within 10 ms of where the pause starts.
  static let windowSeconds = 0.01
  /// Windows the level is judged over (30 ms): a background's 10 ms windows spread over 15 dB
  /// (pink noise at 8 kHz), its 30 ms ones over 11, and a voice's onset is still heard within it.
  static let judgedWindows = 3
  /// Windows the floor follows the level over (100 ms): within a decibel of a steady background.
  static let floorWindows = 10
  /// Windows measured before any is judged: the quietest level of them is the first floor. 0.3 s
  /// holds a gap between words even when the memo opens with speech.
  static let learningWindows = 30
  /// A window is silent within this factor of the floor (4 dB: a voice at the background's own
  /// level adds 3), loud beyond `loudMargin` (7 dB: a steady background's 30 ms windows stay
  /// within 5 dB of its 100 ms floor, so it does not end its own pause).
  static let silentMargin: Float = 1.58
  static let loudMargin: Float = 2.24
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
  /// The mean squares of the last `floorWindows` windows, newest at `newest`.
  private var squares = [Float](repeating: 0, count: floorWindows)
  private var newest = 0

  init(rate: Int) { windowFrames = max(1, Int((Double(rate) * Self.windowSeconds).rounded())) }

  /// Whether the floor is still being learnt.
  var learning: Bool { measured < Self.learningWindows }

  /// The level below which a window is silent now: a pause starts at such a window.
  var threshold: Float { min(floor.value * Self.silentMargin, Self.ceiling) }
  /// The level above which a window is loud now: two in a row end a pause.
  var onsetThreshold: Float { min(floor.value * Self.loudMargin, Self.ceiling) }

  /// Takes a window of interleaved samples (or the last part of one; every channel counts) into
  /// the floor; the level it is judged by.
  mutating func measure(_ samples: ArraySlice<Float>) -> Float {
    guard !samples.isEmpty else { return 0 }
    var sum: Float = 0
    for sample in samples { sum += sample * sample }
    newest = (newest + 1) % Self.floorWindows
    squares[newest] = sum / Float(samples.count)
    measured += 1
    let count = min(measured, Self.floorWindows)
    var recent: Float = 0
    var all: Float = 0
    for back in 0..<count {
      let square = squares[(newest - back + Self.floorWindows) % Self.floorWindows]
      if back < Self.judgedWindows { recent += square }
      all += square
    }
    floor.follow((all / Float(count)).squareRoot())
    return (recent / Float(min(count, Self.judgedWindows))).squareRoot()
  }
}
