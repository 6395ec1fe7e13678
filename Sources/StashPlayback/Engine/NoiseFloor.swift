#if canImport(Glibc)
  import Glibc
#endif

/// A memo's noise floor, measured as it plays: the level of the quietest recent block (10 ms),
/// which drops at once to any quieter block and otherwise rises slowly, so that it follows a
/// background that grows louder. The voice boost and the noise reduction each follow one; each
/// passes its own measure of a block (peak or RMS). Skip silence does not: it has no way to tell
/// a rise under speech from a louder background (`SilenceDetector.spanWindows`).
struct NoiseFloor {
  /// How fast the estimate rises while nothing quieter comes (per second, as a factor: 3 dB/s).
  static let risePerSecond = 1.41
  /// Where a block is background: within this factor (10 dB) of the floor.
  static let margin: Float = 3.16

  /// The floor (linear); 0 until the first block when started without one.
  private(set) var value: Float
  /// The lowest the floor goes (a digital silence has no level to follow).
  let lowest: Float
  private let risePerBlock: Float

  /// A floor over blocks of `blockSeconds`, starting at `start` (0: at the first block's level),
  /// never below `lowest`.
  init(blockSeconds: Double, start: Float = 0, lowest: Float) {
    value = start
    self.lowest = lowest
    risePerBlock = powf(Float(Self.risePerSecond), Float(blockSeconds))
  }

  /// Takes one block's level into the estimate.
  mutating func follow(_ level: Float) {
    if value == 0 || level < value {
      value = max(level, lowest)
    } else {
      value *= risePerBlock
    }
  }
}
