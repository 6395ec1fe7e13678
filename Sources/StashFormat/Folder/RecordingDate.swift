#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where a memo's recording date came from, in the order they are tried.
public enum DateSource: String, Sendable, Equatable {
  /// The base read as a timestamp.
  case base
  /// The creation time recorded in the audio file.
  case audio
  /// The audio file's (or, for a capture without audio, the parts folder's) modification time.
  case mtime
}

/// Reading a recording date out of a base, and writing dates out, with Glibc's calendar functions.
public enum RecordingDate {
  /// Seconds since 1970 (UTC) that a base names, or nil when it is not one of the timestamp patterns
  /// (FORMAT.md §1.3): `YYYY-MM-DD` + `T`/space/`_` + `HH:MM[:SS]` with `:`, `-` or `.` between the
  /// time fields, or `YYYYMMDD` + space/`_`/`-`/`T` + `HHMMSS`; then an optional fraction (`.` or `,`),
  /// an optional zone (`Z`, `±hh`, `±hhmm`, `±hh:mm`, `±hh-mm`), and optionally a blank, `_` or `-`
  /// followed by any text. Without a zone the time is local (the process's `TZ`).
  public static func parse(base: String) -> Double? {
    var reader = Reader(Array(base.utf8))
    return reader.timestamp()
  }

  /// Whether a creation time read from audio can be believed: after 2001 and at most a day ahead of now.
  public static func isPlausible(_ seconds: Double, now: Double = currentTime()) -> Bool {
    seconds >= 978_307_200 && seconds <= now + 86_400
  }

  /// The current time, seconds since 1970 (`clock_gettime(CLOCK_REALTIME)`).
  public static func currentTime() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// ISO 8601 in UTC, `2026-03-14T08:05:12Z`, with milliseconds only when the time has them.
  public static func isoUTC(_ seconds: Double) -> String {
    let whole = seconds.rounded(.down)
    var time = time_t(whole)
    var parts = tm()
    gmtime_r(&time, &parts)
    var text = dateText(parts, separator: "T") + ":" + two(parts.tm_sec)
    let millis = Int(((seconds - whole) * 1000).rounded())
    if millis > 0 && millis < 1000 { text += "." + three(millis) }
    return text + "Z"
  }

  /// ISO 8601 in local time with its offset, `2026-03-14T09:05:12+01:00`.
  public static func isoLocal(_ seconds: Double) -> String {
    var time = time_t(seconds.rounded(.down))
    var parts = tm()
    localtime_r(&time, &parts)
    let offset = parts.tm_gmtoff
    let sign = offset < 0 ? "-" : "+"
    let minutes = Int32(abs(offset) / 60)
    return dateText(parts, separator: "T") + ":" + two(parts.tm_sec) + sign + two(minutes / 60) + ":"
      + two(minutes % 60)
  }

  /// The date as a memo with no title shows it: local time to the minute, `2026-03-14 08:05`.
  public static func localMinute(_ seconds: Double) -> String {
    var time = time_t(seconds.rounded(.down))
    var parts = tm()
    localtime_r(&time, &parts)
    return dateText(parts, separator: " ")
  }

  static func dateText(_ parts: tm, separator: String) -> String {
    let year = Int(parts.tm_year) + 1900
    let yearText =
      year >= 0 && year < 10 ? "000\(year)" : year < 100 ? "00\(year)" : year < 1000 ? "0\(year)" : "\(year)"
    return yearText + "-" + two(parts.tm_mon + 1) + "-" + two(parts.tm_mday) + separator + two(parts.tm_hour)
      + ":" + two(parts.tm_min)
  }

  static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
  static func three(_ value: Int) -> String {
    value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
  }
}

/// A cursor over the bytes of a base that reads a timestamp; every read advances only on success.
private struct Reader {
  let bytes: [UInt8]
  var index = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func take(_ allowed: [UInt8]) -> UInt8? {
    guard let c = current, allowed.contains(c) else { return nil }
    index += 1
    return c
  }

  mutating func digits(_ count: Int) -> Int? {
    guard index + count <= bytes.count else { return nil }
    var value = 0
    for offset in 0..<count {
      let c = bytes[index + offset]
      guard c >= 0x30, c <= 0x39 else { return nil }
      value = value * 10 + Int(c - 0x30)
    }
    index += count
    return value
  }

  mutating func timestamp() -> Double? {
    guard let year = digits(4) else { return nil }
    var month = 0
    var day = 0
    var hour = 0
    var minute = 0
    var second = 0
    if take([UInt8(ascii: "-")]) != nil {
      guard let m = digits(2), take([UInt8(ascii: "-")]) != nil, let d = digits(2),
        take(Array("T _t".utf8)) != nil, let h = digits(2)
      else { return nil }
      (month, day, hour) = (m, d, h)
      let fieldSeparators = Array(":-.".utf8)
      if let separator = take(fieldSeparators) {
        guard let mi = digits(2) else { return nil }
        minute = mi
        let mark = index
        if take([separator]) != nil, let s = digits(2) {
          second = s
        } else {
          index = mark
        }
      } else {
        guard let mi = digits(2) else { return nil }
        minute = mi
        let mark = index
        if let s = digits(2) { second = s } else { index = mark }
      }
    } else {
      guard let m = digits(2), let d = digits(2), take(Array(" _-Tt".utf8)) != nil, let h = digits(2),
        let mi = digits(2), let s = digits(2)
      else { return nil }
      (month, day, hour, minute, second) = (m, d, h, mi, s)
    }
    var fraction = 0.0
    let beforeFraction = index
    if take(Array(".,".utf8)) != nil {
      var scale = 0.1
      var any = false
      while let c = current, c >= 0x30, c <= 0x39 {
        fraction += Double(c - 0x30) * scale
        scale /= 10
        index += 1
        any = true
      }
      if !any { index = beforeFraction }
    }
    let offset = zone()
    // What follows must be the end of the base or a separator before free text.
    if let c = current, !" _-".utf8.contains(c) { return nil }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour <= 23,
      minute <= 59, second <= 60
    else { return nil }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(min(second, 59))
    parts.tm_isdst = -1
    if let offset {
      return Double(timegm(&parts)) - Double(offset) + fraction
    }
    let local = mktime(&parts)
    return local == -1 && year != 1969 ? nil : Double(local) + fraction
  }

  /// The zone's offset east of UTC in seconds, or nil when none is given.
  mutating func zone() -> Int? {
    let mark = index
    if take(Array("Zz".utf8)) != nil { return 0 }
    guard let sign = take(Array("+-".utf8)), let hours = digits(2), hours <= 14 else {
      index = mark
      return nil
    }
    var minutes = 0
    let afterHours = index
    if take(Array(":-.".utf8)) != nil, let m = digits(2), m <= 59 {
      minutes = m
    } else {
      index = afterHours
      if let m = digits(2), m <= 59 { minutes = m } else { index = afterHours }
    }
    let seconds = (hours * 60 + minutes) * 60
    return sign == UInt8(ascii: "-") ? -seconds : seconds
  }

  func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
