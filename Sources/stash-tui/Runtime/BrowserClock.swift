#if canImport(Glibc)
  import Glibc
#endif

/// The clocks the browser's I/O loop reads (`clock_gettime`); the browser's library reads none,
/// it is given times in its events.
enum BrowserClock {
  /// Seconds since 1970 UTC (`CLOCK_REALTIME`), for the recovery sweep's "recently written" rule.
  static func wallTime() -> Double { seconds(CLOCK_REALTIME) }

  /// Seconds on the monotonic clock (`CLOCK_MONOTONIC`), for the loop's waits.
  static func monotonic() -> Double { seconds(CLOCK_MONOTONIC) }

  private static func seconds(_ clock: clockid_t) -> Double {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}
