/// The arithmetic between a track's samples and heard frames at the decoder's output rate.
///
/// "Absolute" frames count from the first decoded frame (priming included); "heard" frames count
/// from the first frame after the priming. Heard frame 0 is absolute frame `primingFrames`.
struct TrackTimeline: Sendable, Equatable {
  /// Output frames per second.
  let rate: Int
  /// Sample times per second.
  let timescale: Int
  /// Sample decode times, in timescale units.
  let decodeTimes: [Int64]
  /// Where the last sample ends, in timescale units.
  let endTime: Int64
  /// Absolute frames of priming.
  let primingFrames: Int
  /// Absolute frame one past the last heard frame.
  let endFrame: Int

  init(track: AudioTrack, outputRate: Int) {
    rate = outputRate
    timescale = max(1, track.timescale)
    decodeTimes = track.samples.map(\.decodeTime)
    let last = track.samples.last.map { $0.decodeTime.addingReportingOverflow(max(0, $0.duration)) }
    endTime = last.map { $0.overflow ? Int64.max : $0.partialValue } ?? 0
    let (rate, timescale) = (Int64(outputRate), Int64(max(1, track.timescale)))
    func frames(_ t: Int64) -> Int { Self.frames(t, rate: rate, timescale: timescale) }
    primingFrames = min(frames(max(0, track.primingSamples)), frames(endTime))
    endFrame = max(primingFrames, frames(endTime - max(0, track.endTrimSamples)))
  }

  /// The most frames the timeline counts (about 3,000 years at 48 kHz). A damaged index can hold
  /// decode times near the largest 64-bit value; held here, no later sum of frames can overflow.
  static let frameLimit: Int64 = 1 << 52

  /// `units` timescale units as output frames (`units × rate / timescale`), held within ±frameLimit.
  private static func frames(_ units: Int64, rate: Int64, timescale: Int64) -> Int {
    let (product, overflow) = units.multipliedReportingOverflow(by: rate)
    let value = overflow ? (units < 0 ? -frameLimit : frameLimit) : product / timescale
    return Int(min(frameLimit, max(-frameLimit, value)))
  }

  /// The most output frames one AAC access unit decodes to (2048 with SBR), with room to spare.
  static let longestAccessUnit = 8192

  /// Output frames in `duration` timescale units, as one access unit: at most `longestAccessUnit`.
  func frames(lasting duration: Int64) -> Int {
    let (product, overflow) = max(0, duration).multipliedReportingOverflow(by: Int64(rate))
    return overflow ? Self.longestAccessUnit : min(Self.longestAccessUnit, Int(product / Int64(timescale)))
  }

  /// Heard frames in the whole track.
  var heardFrames: Int { endFrame - primingFrames }

  /// Seconds of audio heard.
  var duration: Double { Double(heardFrames) / Double(rate) }

  /// The absolute frame where sample `index` starts.
  func absoluteStart(ofSample index: Int) -> Int {
    let units = index < decodeTimes.count ? decodeTimes[index] : endTime
    return Self.frames(units, rate: Int64(rate), timescale: Int64(timescale))
  }

  /// The index of the sample whose output holds absolute frame `frame` (the last sample when the
  /// frame is past the end; 0 when there are no samples).
  func sample(containing frame: Int) -> Int {
    let (product, overflow) = Int64(frame).multipliedReportingOverflow(by: Int64(timescale))
    let time = overflow ? (frame < 0 ? Int64.min : Int64.max) : product / Int64(rate)
    var low = 0
    var high = decodeTimes.count
    // The last sample whose decode time is at or before `time`.
    while high - low > 1 {
      let middle = (low + high) / 2
      if decodeTimes[middle] <= time { low = middle } else { high = middle }
    }
    return low
  }

  /// The heard frame at `seconds`, clamped to the track.
  func heardFrame(atSeconds seconds: Double) -> Int {
    guard seconds.isFinite, seconds > 0 else { return 0 }
    return Int(min(Double(heardFrames), (seconds * Double(rate)).rounded(.down)))
  }
}
