import CAVFilter

#if canImport(Glibc)
  import Glibc
#endif

/// The voice boost, through libavfilter: `dynaudnorm` gives each 100 ms of the memo the gain that
/// brings its RMS to `targetRMS` (at most 60×, smoothed over three such frames), its peaks first
/// softly held within 2.5 standard deviations of the frame (which lowers the crest of a natural
/// voice far more than of one already compressed), except frames near the memo's own noise floor,
/// measured as it plays, which keep a gain of one, so that the background in a pause is not pumped
/// up; then `alimiter` adds 3 dB and holds the peaks under -2 dBFS, so the true peak stays under
/// -1 dBTP. `dynaudnorm` keeps its frames' timestamps (it holds about 200 ms inside and lets them
/// out in step); the limiter's look-ahead shifts its output by 2 ms, measured when the booster
/// opens and taken off, so frame n out is frame n in.
/// Turned on or off, it fades (`FilterBlend`).
final class VoiceBooster: FilterBlend {
  /// The RMS each 100 ms of speech is brought to before the limiter's 3 dB: chosen by measuring
  /// a quiet (-35 LUFS, natural) and a loud (-12 LUFS, compressed) memo of synthetic speech with
  /// pauses, which come out at -16.6 and -15.3 LUFS (VoiceBoostTests).
  static let targetRMS = 0.15
  static let level = "f=100:g=3:p=0.95:m=60:r=\(targetRMS):s=2.5:t=0:b=1"
  /// The limiter's gain in (3 dB), which the pauses get too.
  static let limitGain: Float = 1.4
  static let limit = "level_in=\(limitGain):limit=0.79:attack=2:release=50:level=false"

  /// The noise floor (peak of the quietest recent 10 ms), the block being measured, and the
  /// threshold last given to `dynaudnorm`.
  private(set) var floor = NoiseFloor(blockSeconds: 0.01, lowest: 1e-5)
  private var blockPeak: Float = 0
  private var blockFrames = 0
  private var sentThreshold: Float = 0

  init?(rate: Int, channels: Int, on: Bool, fadingIn: Bool) {
    guard case .success(let library) = VoiceBoostLibrary.shared,
      let delay = Self.delay(library.calls, rate: rate, channels: channels, ["alimiter"], [Self.limit])
    else { return nil }
    super.init(
      library.calls, rate: rate, channels: channels, ["dynaudnorm", "alimiter"], [Self.level, Self.limit],
      delay: delay, on: on, fadingIn: fadingIn)
  }

  /// How many frames `alimiter` with `limit` delays what it gives.
  static func limiterDelay(_ calls: UnsafePointer<stash_avfilter>, rate: Int, channels: Int) -> Int? {
    delay(calls, rate: rate, channels: channels, ["alimiter"], [limit])
  }

  /// Measures the noise floor block by block and moves `dynaudnorm`'s threshold to just above
  /// it (when it has moved by more than 1 dB).
  override func follow(_ samples: UnsafeBufferPointer<Float>, frames: Int) {
    let blockLength = max(1, rate / 100)
    for frame in 0..<frames {
      for channel in 0..<channels { blockPeak = max(blockPeak, abs(samples[frame * channels + channel])) }
      blockFrames += 1
      guard blockFrames == blockLength else { continue }
      floor.follow(blockPeak)
      blockPeak = 0
      blockFrames = 0
    }
    let threshold = min(0.5, floor.value * NoiseFloor.margin)
    guard sentThreshold == 0 || abs(log10f(threshold / sentThreshold)) > 0.05 else { return }
    sentThreshold = threshold
    command(0, "threshold", String(Double(threshold)))
  }
}

/// A chain of libavfilter filters whose output is mixed with its input: what comes out is moved
/// between the input and the filtered frames over `fadeSeconds`, so turning it on or off neither
/// clicks nor leaves a gap; fully off, the input passes unchanged, bit for bit. The chain's delay
/// (measured when it opens) is taken off, so frame n out is frame n in. The voice boost and the
/// noise reduction are each one.
class FilterBlend {
  /// The filters work in doubles: back to the float the device is given.
  static let float = "sample_fmts=flt"
  /// How long turning it on or off takes to be complete.
  static let fadeSeconds = 0.01

  private let handle: UnsafeMutablePointer<stash_tempo>
  let channels: Int
  let rate: Int
  /// Where the mix is (0: the input, 1: filtered) and where it goes.
  private(set) var mix: Float
  var on: Bool
  /// Frames the chain delays its output by: dropped at the start, made up with silence pushed in
  /// at the end.
  let delay: Int
  private var toDrop: Int
  /// Input frames not yet matched by a filtered frame.
  private var raw: [Float] = []
  private var rawOffset = 0
  /// Filtered frames not mixed yet.
  private var filtered: [Float] = []
  private var filteredOffset = 0
  private var block: [Float]
  private var flushed = false

  /// The chain `names` with `options` (an `aformat` back to float added), delaying by `delay`.
  init?(
    _ calls: UnsafePointer<stash_avfilter>, rate: Int, channels: Int, _ names: [String], _ options: [String],
    delay: Int, on: Bool, fadingIn: Bool
  ) {
    guard
      let handle = Self.open(
        calls, rate: rate, channels: channels, names + ["aformat"], options + [Self.float])
    else { return nil }
    self.handle = handle
    self.channels = channels
    self.rate = rate
    self.on = on
    self.delay = delay
    toDrop = delay
    mix = on && !fadingIn ? 1 : 0
    block = [Float](repeating: 0, count: 4096 * channels)
  }

  deinit { stash_tempo_close(handle) }

  static func open(
    _ calls: UnsafePointer<stash_avfilter>, rate: Int, channels: Int, _ names: [String], _ options: [String]
  ) -> UnsafeMutablePointer<stash_tempo>? {
    let cNames = names.map { strdup($0) }
    let cOptions = options.map { strdup($0) }
    defer {
      cNames.forEach { free($0) }
      cOptions.forEach { free($0) }
    }
    let names = cNames.map { UnsafePointer($0) }
    let options = cOptions.map { UnsafePointer($0) }
    return names.withUnsafeBufferPointer { names in
      options.withUnsafeBufferPointer { options in
        stash_chain_open(
          calls, Int32(rate), Int32(channels), Int32(names.count), names.baseAddress, options.baseAddress)
      }
    }
  }

  /// How many frames the chain `names` with `options` delays what it gives, found by passing a
  /// click through it: the frame the click comes out at.
  static func delay(
    _ calls: UnsafePointer<stash_avfilter>, rate: Int, channels: Int, _ names: [String], _ options: [String]
  ) -> Int? {
    guard
      let probe = open(calls, rate: rate, channels: channels, names + ["aformat"], options + [float])
    else { return nil }
    defer { stash_tempo_close(probe) }
    let frames = max(4096, rate / 10)
    var input = [Float](repeating: 0, count: frames * channels)
    for channel in 0..<channels { input[channel] = 0.5 }
    let pushed = input.withUnsafeBufferPointer { stash_tempo_push(probe, $0.baseAddress, Int32(frames)) }
    guard pushed >= 0, stash_tempo_push(probe, nil, 0) >= 0 else { return nil }
    var output = [Float](repeating: 0, count: frames * channels)
    var taken = 0
    while taken < frames {
      let got = output.withUnsafeMutableBufferPointer {
        stash_tempo_pull(probe, $0.baseAddress! + taken * channels, Int32(frames - taken))
      }
      guard got > 0 else { break }
      taken += Int(got)
    }
    guard let first = output[0..<(taken * channels)].firstIndex(where: { abs($0) > 1e-4 }) else { return nil }
    return first / channels
  }

  /// Frames pushed in not yet out.
  var held: Int { (raw.count - rawOffset) / max(1, channels) }

  /// Sends filter `index` of the chain a command (a setting changed while it runs).
  func command(_ index: Int, _ name: String, _ value: String) {
    _ = stash_chain_command(handle, Int32(index), name, value)
  }

  /// What a subclass measures of the input as it goes in (before the filters see it).
  func follow(_ samples: UnsafeBufferPointer<Float>, frames: Int) {}

  /// Hands `frames` frames in; false if the filter refused them.
  func push(_ samples: UnsafeBufferPointer<Float>, frames: Int) -> Bool {
    guard frames > 0, let base = samples.baseAddress else { return true }
    raw.append(contentsOf: samples[0..<(frames * channels)])
    follow(samples, frames: frames)
    return stash_tempo_push(handle, base, Int32(frames)) >= 0
  }

  /// Says the input is over, so the filters let out what they hold.
  func finish() {
    guard !flushed else { return }
    flushed = true
    if delay > 0 {
      let silence = [Float](repeating: 0, count: delay * channels)
      _ = silence.withUnsafeBufferPointer { stash_tempo_push(handle, $0.baseAddress, Int32(delay)) }
    }
    _ = stash_tempo_push(handle, nil, 0)
  }

  /// Takes what the filters let out.
  private func drain() {
    while true {
      let got = block.withUnsafeMutableBufferPointer { stash_tempo_pull(handle, $0.baseAddress, 4096) }
      guard got > 0 else { break }
      var from = 0
      if toDrop > 0 {
        from = min(toDrop, Int(got))
        toDrop -= from
      }
      filtered.append(contentsOf: block[(from * channels)..<(Int(got) * channels)])
    }
  }

  /// Frames that have come out and can be pulled.
  func ready() -> Int {
    drain()
    return min(filtered.count - filteredOffset, raw.count - rawOffset) / max(1, channels)
  }

  /// Appends what has come out, mixed, to `out`, at most `limit` frames (the rest stays unmixed,
  /// so that a change of `on` reaches it); the frame count.
  @discardableResult
  func pull(into out: inout [Float], limit: Int = .max) -> Int {
    let frames = min(ready(), limit)
    guard frames > 0 else { return 0 }
    let step = Float(1 / (Self.fadeSeconds * Double(max(1, rate))))
    let target: Float = on ? 1 : 0
    out.reserveCapacity(out.count + frames * channels)
    for frame in 0..<frames {
      if mix != target { mix = mix < target ? min(target, mix + step) : max(target, mix - step) }
      let base = frame * channels
      for channel in 0..<channels {
        let input = raw[rawOffset + base + channel]
        let done = filtered[filteredOffset + base + channel]
        if mix == 0 {
          out.append(input)
        } else if mix == 1 {
          out.append(done)
        } else {
          out.append(input + (done - input) * mix)
        }
      }
    }
    rawOffset += frames * channels
    filteredOffset += frames * channels
    if rawOffset > 65_536 {
      raw.removeFirst(rawOffset)
      rawOffset = 0
    }
    if filteredOffset > 65_536 || filteredOffset == filtered.count {
      filtered.removeFirst(filteredOffset)
      filteredOffset = 0
    }
    return frames
  }
}
