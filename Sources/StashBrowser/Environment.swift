#if canImport(Glibc)
  import Glibc
#endif

/// Reads environment variables through `getenv`.
package enum Environment {
  /// The variable's value, or nil when unset.
  package static func value(_ name: String) -> String? {
    guard let p = getenv(name) else { return nil }
    return String(cString: p)
  }
}

/// Wall-clock time, for the recovery sweep's "recently written" rule.
package enum BrowserClock {
  /// Seconds since 1970 UTC (`clock_gettime(CLOCK_REALTIME)`).
  package static func wallTime() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}
