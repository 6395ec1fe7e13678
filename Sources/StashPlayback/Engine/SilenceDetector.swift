#if canImport(Glibc)
  import Glibc
#endif

/// Tells the pauses of a memo from its speech, 10 ms at a time, by the memo's own noise floor
/// measured as it plays. The floor is the quietest RMS over 100 ms of the last 3 s (`spanWindows`):
/// down at once to anything quieter, and up only once the quieter stretch is 3 s old, so speech,
/// which leaves a gap between words within that, does not lift it: in a sentence as in a pause it
/// is the background's own level give or take a decibel, not the deepest dip of its 10 ms windows.
/// Each window is judged by the RMS over the last 30 ms: silent within 4 dB of the floor and below
/// -20 dBFS, loud (two such end a pause) 8 dB above it or above -20 dBFS. So a steady hum, wind or
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
  /// Windows the floor's levels are measured over (100 ms): within a decibel of a steady background.
  static let floorWindows = 10
  /// Windows the floor is the quietest 100 ms level of (3 s). A floor that rose while nothing
  /// quieter came (3 dB/s, as the voice boost's `NoiseFloor` does) stood 2-4 dB over a -30 dBFS
  /// background by the end of a sentence, so soft word tails 5 dB over the background were
  /// silent and strong cut 1.8 s (5.7 %) more of the bench's speech than its rules. Over 1 s the
  /// quietest level is at times still a word's (4.3 % short), over 2 s 2.9 %; from 2.5 s on it is
  /// the background's (2.4 % at 3 s, 2.0 % at 5 s). A background that grows louder is followed
  /// 3 s after, where the rising floor took 5 s for 15 dB; a longer span holds a quieter past
  /// longer.
  static let spanWindows = 300
  /// Windows measured before any is judged: the quietest level of them is the first floor. 0.3 s
  /// holds a gap between words even when the memo opens with speech.
  static let learningWindows = 30
  /// A window is silent within this factor of the floor (4 dB: the quietest 100 ms of a steady
  /// background is about a decibel under its level, and a voice at that level adds 3), loud
  /// beyond `loudMargin` (8 dB: a steady background's 30 ms windows stay within 7.8 dB of that
  /// floor, 30 s of pink noise at 8, 16 and 48 kHz, so it does not end its own pause; at 7 dB a
  /// pair of its windows did once in the 30 s).
  static let silentMargin: Float = 1.58
  static let loudMargin: Float = 2.51
  /// No window louder than this (RMS, -20 dBFS) is silent, whatever the floor has risen to: speech
  /// that long and that loud without a dip would otherwise be taken for background.
  static let ceiling: Float = 0.1
  /// The lowest the floor goes (-70 dBFS): below it the coder's own smear around a sound (AAC's
  /// pre-echo, far below hearing) would count as speech.
  static let lowest: Float = 0.000_316

  /// Frames in a window.
  let windowFrames: Int
  /// The floor: the quietest 100 ms level of the last `spanWindows` windows, never below `lowest`.
  private(set) var floor: Float = 0
  private var measured = 0
  /// The mean squares of the last `floorWindows` windows, newest at `newest`.
  private var squares = [Float](repeating: 0, count: floorWindows)
  private var newest = 0
  /// The 100 ms levels of the last `spanWindows` windows, newest at `newestLevel`.
  private var levels = [Float](repeating: .infinity, count: spanWindows)
  private var newestLevel = 0

  init(rate: Int) { windowFrames = max(1, Int((Double(rate) * Self.windowSeconds).rounded())) }

  /// Whether the floor is still being learnt.
  var learning: Bool { measured < Self.learningWindows }

  /// The level below which a window is silent now: a pause starts at such a window.
  var threshold: Float { min(floor * Self.silentMargin, Self.ceiling) }
  /// The level above which a window is loud now: two in a row end a pause.
  var onsetThreshold: Float { min(floor * Self.loudMargin, Self.ceiling) }

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
    newestLevel = (newestLevel + 1) % Self.spanWindows
    levels[newestLevel] = (all / Float(count)).squareRoot()
    floor = max(levels.min() ?? 0, Self.lowest)
    return (recent / Float(min(count, Self.judgedWindows))).squareRoot()
  }
}
