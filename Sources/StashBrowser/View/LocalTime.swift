#if canImport(Glibc)
  import Glibc
#endif

/// Local time formatting through the C library (`localtime_r`), so TZ is honoured and no
/// Foundation is loaded for a list of thousands of dates.
package enum LocalTime {
  /// `YYYY-MM-DD HH:MM` in the local zone.
  package static func format(_ secondsSince1970: Double) -> String {
    var t = time_t(secondsSince1970.rounded(.down))
    var parts = tm()
    guard localtime_r(&t, &parts) != nil else { return "????-??-?? ??:??" }
    func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
      + "\(two(parts.tm_hour)):\(two(parts.tm_min))"
  }
}
