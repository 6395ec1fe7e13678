#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A cursor over the bytes of a base that reads a timestamp; every read advances only on success.
struct TimestampReader {
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
    guard
      var parts = Self.wallClock(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    else { return nil }
    if let offset {
      return Double(timegm(&parts)) - Double(offset) + fraction
    }
    return Double(RecordingDate.localSeconds(parts)) + fraction
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

  /// A date and a time of day as `tm` fields, the offset left to be worked out (`tm_isdst` -1), or
  /// nil when a field is out of range. A leap second (:60) reads as :59.
  static func wallClock(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> tm? {
    guard (1...12).contains(month), day >= 1, day <= ISO8601Time.daysIn(month: month, year: year), hour <= 23,
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
    return parts
  }
}
