#if canImport(Glibc)
  import Glibc
#endif

/// What is being heard, from what the output thread last learnt: frames handed to the device minus
/// the frames the device still holds (its delay), advanced by the time since, at the device's rate,
/// but never past what was handed over. Time is passed in, so tests run it on a virtual clock.
public struct PlaybackClock: Sendable, Equatable {
  /// The generation this reading is for.
  var generation: UInt64 = 0
  /// Heard frame where the generation's audio starts.
  var startFrame = 0
  /// Frames handed to the device in this generation.
  var written = 0
  /// Frames the device still held when last asked.
  var delay = 0
  /// When the device was last asked (monotonic nanoseconds).
  var stamp: UInt64 = 0
  /// Whether the device was playing then (a device that has not started stands still).
  var running = false
  /// Frames per second.
  var rate = 48_000

  /// The heard frame at `now` (monotonic nanoseconds).
  func heardFrame(at now: UInt64) -> Int {
    var heard = written - delay
    if running && now > stamp {
      let elapsed = Int((now - stamp) / 1000) * rate / 1_000_000
      heard = min(written, heard + elapsed)
    }
    return startFrame + max(0, heard)
  }

  /// Monotonic nanoseconds now (`clock_gettime(CLOCK_MONOTONIC)`).
  public static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }
}
