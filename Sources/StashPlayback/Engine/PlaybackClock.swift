#if canImport(Glibc)
  import Glibc
#endif

/// What is being heard, from what the output thread last learnt: the memo frame the device was
/// playing then (frames handed over minus those it still held, mapped back to memo time), advanced
/// by the time since at the memo's pace (the device's rate times the speed), but never past what
/// was handed over nor across a loop's wrap. Time is passed in, so tests run it on a virtual clock.
public struct PlaybackClock: Sendable, Equatable {
  /// The generation this reading is for.
  var generation: UInt64 = 0
  /// The memo frame being heard when the device was last asked.
  var heard = 0
  /// Memo frames that can still be heard from there before what was handed over ends (or a loop
  /// wraps).
  var ahead = 0
  /// When the device was last asked (monotonic nanoseconds).
  var stamp: UInt64 = 0
  /// Whether the device was playing then (a device that has not started stands still).
  var running = false
  /// Device frames per second.
  var rate = 48_000
  /// Memo frames per device frame.
  var speed = 1.0

  /// The heard frame at `now` (monotonic nanoseconds).
  func heardFrame(at now: UInt64) -> Int {
    var moved = 0
    if running && now > stamp {
      let elapsed = Int((now - stamp) / 1000) * rate / 1_000_000
      moved = speed == 1 ? elapsed : Int(Double(elapsed) * speed)
    }
    return max(0, heard + min(ahead, moved))
  }

  /// Monotonic nanoseconds now (`clock_gettime(CLOCK_MONOTONIC)`).
  public static func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
  }
}
