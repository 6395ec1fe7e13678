import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// Local time as the browser shows it, through `RecordingDate`'s one conversion (`TZ` honoured,
/// no Foundation loaded for a list of thousands of dates, the year padded to four digits).
package enum LocalTime {
  /// `YYYY-MM-DD HH:MM` in the local zone, or `????-??-?? ??:??` for a year the C library cannot
  /// hold.
  package static func format(_ secondsSince1970: Double) -> String {
    guard let parts = RecordingDate.calendar(time_t(secondsSince1970.rounded(.down)), local: true) else {
      return "????-??-?? ??:??"
    }
    return RecordingDate.minute(parts)
  }
}
