import CAVFilter

#if canImport(Glibc)
  import Glibc
#endif

/// The noise reduction (`--enhance`), through libavfilter's `afftdn` (spectral subtraction): a
/// steady background (wind, hum, hiss) is brought down by up to `reduction` dB, the voice over it
/// kept. `afftdn` is told where the noise is (`nf`) rather than left to find it (its own tracking
/// barely moved the background of a synthetic memo): the memo's noise floor, measured as it plays
/// as the RMS of the quietest recent 10 ms, plus `floorOffset` dB. Its noise floor goes no higher
/// than -20 dB, too low for a loud background, so the memo goes in 20 dB down and comes out 20 dB
/// up again (in floats, losslessly). Its FFT window delays it by 25 ms, taken off (`FilterBlend`),
/// so frame n out is frame n in; turned on or off, it fades.
///
/// Chosen by measuring espeak-ng speech with pink noise at -30 dBFS under it (NoiseReductionTests):
/// `nr=20` with `nf` 17 dB over the floor took the pauses' noise down by 7.0 dB and the speech by
/// 1.2 dB (energy); 3 dB more took 9.3 dB of the noise but 1.9 dB of the speech; `nr=30` changed
/// neither by more than 0.3 dB. After the voice boost, 7.5 dB and 1.8 dB.
final class NoiseReducer: FilterBlend {
  /// The most the background is brought down (dB).
  static let reduction = 20
  /// How far the memo is brought down before `afftdn` and up after (dB).
  static let headroom = 20.0
  /// `nf` is the measured floor (dB, RMS, brought down) plus this.
  static let floorOffset = 17.0
  /// The noise floor `afftdn` starts with, before any is measured.
  static let startFloor = -50.0
  static let down = "volume=\(pow(10, -headroom / 20))"
  static let up = "volume=\(pow(10, headroom / 20))"
  static let denoise = "nr=\(reduction):nf=\(startFloor)"
  static let names = ["volume", "afftdn", "volume"]
  static let options = [down, denoise, up]

  /// The noise floor (RMS of the quietest recent 10 ms), the block being measured, and the
  /// `nf` last given to `afftdn`.
  private(set) var floor = NoiseFloor(blockSeconds: 0.01, lowest: 1e-5)
  private var blockSquares: Float = 0
  private var blockFrames = 0
  private(set) var sentFloor = startFloor

  init?(rate: Int, channels: Int, on: Bool, fadingIn: Bool) {
    guard case .success(let library) = NoiseReductionLibrary.shared,
      let delay = Self.delay(library.calls, rate: rate, channels: channels, Self.names, Self.options)
    else { return nil }
    super.init(
      library.calls, rate: rate, channels: channels, Self.names, Self.options, delay: delay, on: on,
      fadingIn: fadingIn)
  }

  /// The `nf` for a floor of `level` (linear RMS): within what `afftdn` takes (-80 to -20 dB).
  static func noiseFloor(for level: Float) -> Double {
    let decibels = 20 * log10(Double(max(level, 1e-9))) - headroom + floorOffset
    return min(-20, max(-80, decibels))
  }

  /// Whether the floor is measured on what goes into the voice boost ahead of it (`measure`),
  /// rather than on what the reducer is given: the boost's dynamics leave dips in the pauses
  /// far below the background, which a floor measured after it follows down (to 10-18 dB under
  /// the noise, where `afftdn` takes little away).
  var measuredAhead = false

  override func follow(_ samples: UnsafeBufferPointer<Float>, frames: Int) {
    if !measuredAhead { measure(samples, frames: frames, gain: 1) }
  }

  /// Measures the noise floor of `samples` block by block, as it will be after `gain`, and moves
  /// `afftdn`'s `nf` to follow it (when it has moved by more than 1 dB).
  func measure(_ samples: UnsafeBufferPointer<Float>, frames: Int, gain: Float) {
    let blockLength = max(1, rate / 100)
    for frame in 0..<frames {
      for channel in 0..<channels {
        let sample = samples[frame * channels + channel]
        blockSquares += sample * sample
      }
      blockFrames += 1
      guard blockFrames == blockLength else { continue }
      floor.follow(sqrtf(blockSquares / Float(blockLength * channels)))
      blockSquares = 0
      blockFrames = 0
    }
    guard floor.value > 0 else { return }
    let wanted = Self.noiseFloor(for: floor.value * gain)
    guard abs(wanted - sentFloor) > 1 else { return }
    sentFloor = wanted
    command(1, "nf", String(wanted))
  }
}

/// libavfilter for the noise reduction, with its own refusal.
enum NoiseReductionLibrary {
  static let shared = load(soname: SpeedFilterLibrary.soname)

  /// Opens `soname` and resolves every call the noise reduction makes; the error says what failed.
  static func load(soname: String) -> Result<LazyLibrary<stash_avfilter>, PlaybackError> {
    LazyLibrary.load(soname: soname, { stash_avfilter_open($0, $1, $2) }) {
      PlaybackError(code: .unsupported, message: "cannot reduce the noise: \($0); playing on without it")
    }
  }
}

/// The listening filters in the order the audio goes through them: the voice boost, then the
/// noise reduction (which holds only 25 ms, so a boost change still reaches the device soon);
/// either may be absent, and each is started the first time it is turned on.
final class VoiceChain {
  private(set) var booster: VoiceBooster? = nil
  private(set) var reducer: NoiseReducer? = nil
  private var between: [Float] = []
  /// Frames still to be dropped from what comes out: those of a warm-up (`warm`).
  private var toDrop = 0
  private var dropped: [Float] = []

  /// Whether the frames pass through unchanged (no filter was ever turned on).
  var isEmpty: Bool { booster == nil && reducer == nil }

  /// Frames pushed into the reducer not yet out of it: a boost change is heard after them.
  var heldAfterBoost: Int { reducer?.held ?? 0 }

  /// Turns the boost on or off, starting it (fading in if `fadingIn`) when there was none; false
  /// if it could not be started.
  @discardableResult
  func setBoost(_ on: Bool, rate: Int, channels: Int, fadingIn: Bool) -> Bool {
    if let booster {
      booster.on = on
      return true
    }
    guard on else { return true }
    booster = VoiceBooster(rate: rate, channels: channels, on: true, fadingIn: fadingIn)
    return booster != nil
  }

  /// The same for the noise reduction.
  @discardableResult
  func setEnhance(_ on: Bool, rate: Int, channels: Int, fadingIn: Bool) -> Bool {
    if let reducer {
      reducer.on = on
      return true
    }
    guard on else { return true }
    reducer = NoiseReducer(rate: rate, channels: channels, on: true, fadingIn: fadingIn)
    return reducer != nil
  }

  /// The filters there are, in order.
  private var stages: [FilterBlend] { [booster, reducer].compactMap { $0 } }

  /// Hands `frames` frames in; false if a filter refused them. They go into the first filter;
  /// `pull` moves them on.
  func push(_ samples: UnsafeBufferPointer<Float>, frames: Int) -> Bool {
    if let booster, let reducer {
      // In the pauses the boost keeps a gain of one before its limiter's 3 dB (`level_in`).
      reducer.measuredAhead = true
      reducer.measure(samples, frames: frames, gain: 1 + (VoiceBooster.limitGain - 1) * booster.mix)
    }
    return stages.first?.push(samples, frames: frames) ?? true
  }

  /// Moves at most `limit` frames of what `from` has let out into `to`.
  private func pass(_ from: FilterBlend, _ to: FilterBlend, limit: Int) -> Bool {
    between.removeAll(keepingCapacity: true)
    let got = from.pull(into: &between, limit: limit)
    return between.withUnsafeBufferPointer { to.push($0, frames: got) }
  }

  /// Appends what has come out to `out`, at most `limit` frames: the rest stays in the filters,
  /// unmixed, so that turning either on or off reaches it. The frame count.
  @discardableResult
  func pull(into out: inout [Float], limit: Int = .max) -> Int {
    while toDrop > 0 {
      dropped.removeAll(keepingCapacity: true)
      let got = pullMixed(into: &dropped, limit: min(toDrop, 4096))
      guard got > 0 else { return 0 }
      toDrop -= got
    }
    return pullMixed(into: &out, limit: limit)
  }

  private func pullMixed(into out: inout [Float], limit: Int) -> Int {
    if let booster, let reducer, reducer.ready() < limit {
      _ = pass(booster, reducer, limit: limit)
    }
    return stages.last?.pull(into: &out, limit: limit) ?? 0
  }

  /// Runs `samples` (`frames` of them, the audio just before what comes next) through the filters
  /// and drops what they give for it: filters started in the middle of a memo then start from its
  /// level and its noise rather than from nothing (a fresh afftdn's first window, a fresh
  /// dynaudnorm's first gain), so what follows does not click.
  func warm(_ samples: UnsafeBufferPointer<Float>, frames: Int) -> Bool {
    guard frames > 0, !isEmpty else { return true }
    toDrop += frames
    return push(samples, frames: frames)
  }

  /// Says the input is over, so the filters let out what they hold.
  func finish() {
    let stages = self.stages
    for (index, stage) in stages.enumerated() {
      stage.finish()
      if index + 1 < stages.count { _ = pass(stage, stages[index + 1], limit: .max) }
    }
  }
}
