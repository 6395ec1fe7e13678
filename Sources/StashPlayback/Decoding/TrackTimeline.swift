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
    endTime = track.samples.last.map { $0.decodeTime + $0.duration } ?? 0
    let scale = (rate: Int64(outputRate), timescale: Int64(max(1, track.timescale)))
    func frames(_ t: Int64) -> Int { Int(t * scale.rate / scale.timescale) }
    primingFrames = min(frames(max(0, track.primingSamples)), frames(endTime))
    endFrame = max(primingFrames, frames(endTime - max(0, track.endTrimSamples)))
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
    guard index < decodeTimes.count else { return Int(endTime * Int64(rate) / Int64(timescale)) }
    return Int(decodeTimes[index] * Int64(rate) / Int64(timescale))
  }

  /// The index of the sample whose output holds absolute frame `frame` (the last sample when the
  /// frame is past the end; 0 when there are no samples).
  func sample(containing frame: Int) -> Int {
    let time = Int64(frame) * Int64(timescale) / Int64(rate)
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
    return min(heardFrames, Int((seconds * Double(rate)).rounded(.down)))
  }
}
