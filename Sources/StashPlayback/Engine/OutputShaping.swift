import CAVFilter

#if canImport(Glibc)
  import Glibc
#endif

/// The software volume on the output thread: each frame handed to the device is multiplied by a
/// gain that moves to a new setting over a few milliseconds (a step would click), and above unity
/// the peaks are limited softly instead of clipping or wrapping.
struct OutputGain {
  /// The gain of the next frame.
  private(set) var current: Float = 1
  /// The gain asked for.
  var target: Float = 1

  /// How long a change from silence to full takes; shorter ones take as much less.
  static let rampSeconds = 0.005
  /// Above unity, samples up to this level pass unchanged; above it they bend smoothly towards 1.
  static let knee: Float = 0.9

  /// Whether frames pass through unchanged (bit for bit).
  var isUnity: Bool { current == 1 && target == 1 }

  /// `frames` frames of `channels` from `source`, with the gain applied, into `out` (resized); the
  /// ramp starts at `current` but is not advanced (`advance` does, by the frames the device took).
  func apply(
    _ source: UnsafeBufferPointer<Float>, frames: Int, channels: Int, rate: Int, into out: inout [Float]
  ) {
    let count = frames * channels
    if out.count < count { out = [Float](repeating: 0, count: count) }
    let step = Self.step(rate: rate)
    var gain = current
    out.withUnsafeMutableBufferPointer { out in
      for frame in 0..<frames {
        gain = Self.toward(gain, target, by: step)
        let base = frame * channels
        for channel in 0..<channels {
          let value = source[base + channel] * gain
          out[base + channel] = gain > 1 ? Self.limited(value) : value
        }
      }
    }
  }

  /// Goes to the target at once (nothing is playing, so there is nothing to ramp from).
  mutating func settle() { current = target }

  /// Moves the ramp on by `frames` frames.
  mutating func advance(frames: Int, rate: Int) {
    guard frames > 0, current != target else { return }
    current = Self.toward(current, target, by: Self.step(rate: rate) * Float(frames))
  }

  /// A peak limiter without memory: linear up to the knee, then a tanh curve whose slope matches
  /// at the knee and which never reaches 1, so a loud passage at 150 % is rounded off, not cut.
  static func limited(_ value: Float) -> Float {
    let magnitude = abs(value)
    guard magnitude > knee else { return value }
    let room = 1 - knee
    let bent = knee + room * tanhf((magnitude - knee) / room)
    return value < 0 ? -bent : bent
  }

  private static func step(rate: Int) -> Float { Float(1 / (rampSeconds * Double(max(1, rate)))) }

  private static func toward(_ value: Float, _ target: Float, by step: Float) -> Float {
    value < target ? min(target, value + step) : max(target, value - step)
  }
}

/// A piecewise-linear map of frame counts, for the output's frame arithmetic: which memo frame a
/// device frame carries (the speed is the slope; a loop's wrap is a jump).
struct FrameMap {
  struct Point {
    var x: Double
    var y: Double
    var slope: Double
  }

  private(set) var points: [Point]

  /// Starts at `y` for x = 0 with `slope`.
  init(y: Double = 0, slope: Double = 1) { points = [Point(x: 0, y: y, slope: slope)] }

  /// The value at `x`, from the last point at or before it.
  func value(_ x: Double) -> Double {
    let point = self.point(at: x)
    return point.y + (x - point.x) * point.slope
  }

  /// The slope at `x`.
  func slope(_ x: Double) -> Double { point(at: x).slope }

  /// Where the next point after `x` is, if any.
  func next(after x: Double) -> Double? { points.first { $0.x > x }?.x }

  /// From `x` on, the map is `y` there with `slope`.
  mutating func mark(x: Double, y: Double, slope: Double) {
    while let last = points.last, last.x >= x, points.count > 1 { points.removeLast() }
    if let last = points.last, last.x >= x {
      points[points.count - 1] = Point(x: x, y: y, slope: slope)
    } else {
      points.append(Point(x: x, y: y, slope: slope))
    }
  }

  /// Forgets the points no value at or after `x` needs.
  mutating func forget(before x: Double) {
    guard let keep = points.lastIndex(where: { $0.x <= x }), keep > 0 else { return }
    points.removeFirst(keep)
  }

  private func point(at x: Double) -> Point { points.last { $0.x <= x } ?? points[0] }
}

/// libavfilter, opened on the first speed other than 1× rather than linked (why: CAVFilter/shim.h).
enum SpeedFilterLibrary {
  /// The soname of the libavfilter the headers are from (LIBAVFILTER_VERSION_MAJOR).
  static let soname = String(cString: stash_avfilter_soname())
  /// That libavfilter, opened once, on first use.
  static let shared = load(soname: soname)

  /// Opens `soname` and resolves every call the speed filter makes; the error says what failed
  /// (LazyLibrary.load).
  static func load(soname: String) -> Result<LazyLibrary<stash_avfilter>, PlaybackError> {
    LazyLibrary.load(soname: soname, { stash_avfilter_open($0, $1, $2) }) {
      PlaybackError(code: .unsupported, message: "cannot play at another speed: \($0); playing on at 1×")
    }
  }
}

/// The same libavfilter, for the voice boost, with its own refusal.
enum VoiceBoostLibrary {
  static let shared = load(soname: SpeedFilterLibrary.soname)

  /// Opens `soname` and resolves every call the boost makes; the error says what failed.
  static func load(soname: String) -> Result<LazyLibrary<stash_avfilter>, PlaybackError> {
    LazyLibrary.load(soname: soname, { stash_avfilter_open($0, $1, $2) }) {
      PlaybackError(code: .unsupported, message: "cannot boost the voice: \($0); playing on without it")
    }
  }
}

/// libavfilter's `atempo` (WSOLA: the pitch is kept) on interleaved float: memo frames in, frames
/// at the device's pace out, about 1/tempo as many. It starts on its first input exactly (no
/// fade), and a tempo changed while it runs carries on from its state, so neither clicks.
final class TempoStretcher {
  private let handle: UnsafeMutablePointer<stash_tempo>
  let channels: Int
  private(set) var tempo: Double
  private var flushed = false
  private var block: [Float]

  init?(rate: Int, channels: Int, tempo: Double) {
    guard case .success(let library) = SpeedFilterLibrary.shared,
      let handle = stash_tempo_open(library.calls, Int32(rate), Int32(channels), tempo)
    else { return nil }
    self.handle = handle
    block = [Float](repeating: 0, count: 4096 * channels)
    self.channels = channels
    self.tempo = tempo
  }

  deinit { stash_tempo_close(handle) }

  /// Changes the tempo of what comes out from now on.
  func setTempo(_ tempo: Double) {
    guard tempo != self.tempo else { return }
    if stash_tempo_set(handle, tempo) >= 0 { self.tempo = tempo }
  }

  /// Hands `frames` frames in; false if the filter refused them.
  func push(_ samples: UnsafeBufferPointer<Float>, frames: Int) -> Bool {
    guard frames > 0, let base = samples.baseAddress else { return true }
    return stash_tempo_push(handle, base, Int32(frames)) >= 0
  }

  /// Appends whatever has come out to `out`; after `finish`, nil once everything has.
  func pull(into out: inout [Float]) -> Int? {
    var total = 0
    while true {
      let got = block.withUnsafeMutableBufferPointer { stash_tempo_pull(handle, $0.baseAddress, 4096) }
      if got > 0 {
        out.append(contentsOf: block[0..<Int(got) * channels])
        total += Int(got)
        continue
      }
      if got < 0 && flushed && total == 0 { return nil }
      return total
    }
  }

  /// Says the input is over, so the filter lets out what it holds.
  func finish() {
    guard !flushed else { return }
    flushed = true
    _ = stash_tempo_push(handle, nil, 0)
  }
}
