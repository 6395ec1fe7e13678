/// `xsd:dateTime` as GPX writes it (`2026-05-01T09:30:12.345Z`, or with a `±hh:mm` offset), read
/// from bytes into seconds since 1970 UTC and printed back in UTC with its fraction.
public enum ISO8601Time {
  /// A parsed time: absolute seconds, and whether the text named a zone (a time with no zone is
  /// read as if it were UTC).
  struct Parsed: Equatable {
    var seconds: Double
    var hadZone: Bool
  }

  /// The time in `bytes` (surrounding whitespace allowed), or nil when it is not a valid
  /// `xsd:dateTime`. Fractions are kept to the nanosecond as written, then held in a Double
  /// (about a quarter of a microsecond at today's dates).
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Parsed? {
    var i = 0
    var end = bytes.count
    while i < end, DecimalText.isSpace(bytes[i]) { i += 1 }
    while end > i, DecimalText.isSpace(bytes[end - 1]) { end -= 1 }

    func number(_ count: Int) -> Int? {
      guard end - i >= count else { return nil }
      var value = 0
      let stop = i + count
      while i < stop {
        let digit = bytes[i] &- 48
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
        i += 1
      }
      return value
    }
    func expect(_ character: UInt8) -> Bool {
      guard i < end, bytes[i] == character else { return false }
      i += 1
      return true
    }

    var yearNegative = false
    if i < end, bytes[i] == UInt8(ascii: "-") {
      yearNegative = true
      i += 1
    }
    guard var year = number(4) else { return nil }
    while i < end, bytes[i] &- 48 < 10, year < 100_000_000 {
      year = year * 10 + Int(bytes[i] &- 48)
      i += 1
    }
    if yearNegative { year = -year }
    guard expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
      let day = number(2), i < end, bytes[i] | 0x20 == UInt8(ascii: "t")
    else { return nil }
    i += 1
    guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2),
      expect(UInt8(ascii: ":")), let second = number(2)
    else { return nil }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour <= 24, minute <= 59, second <= 60
    else { return nil }
    var fraction = 0.0
    var fractionIsZero = true
    if i < end, bytes[i] == UInt8(ascii: ".") {
      i += 1
      var value = 0
      var scale = 1
      var count = 0
      while i < end, bytes[i] &- 48 < 10 {
        if count < 9 {
          value = value * 10 + Int(bytes[i] &- 48)
          scale *= 10
        }
        count += 1
        i += 1
      }
      guard count > 0 else { return nil }
      fraction = Double(value) / Double(scale)
      fractionIsZero = value == 0
    }
    if hour == 24 { guard minute == 0, second == 0, fractionIsZero else { return nil } }
    var offsetMinutes = 0
    var hadZone = false
    if i < end {
      if bytes[i] | 0x20 == UInt8(ascii: "z") {
        i += 1
        hadZone = true
      } else if bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
        let sign = bytes[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        guard let offsetHours = number(2) else { return nil }
        var offsetMinute = 0
        if i < end {
          _ = expect(UInt8(ascii: ":"))
          guard let m = number(2) else { return nil }
          offsetMinute = m
        }
        guard offsetHours <= 14, offsetMinute <= 59 else { return nil }
        offsetMinutes = sign * (offsetHours * 60 + offsetMinute)
        hadZone = true
      }
    }
    guard i == end else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let whole = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetMinutes * 60
    return Parsed(seconds: Double(whole) + fraction, hadZone: hadZone)
  }

  /// The time in `text`, for callers holding a String.
  static func parse(_ text: String) -> Parsed? {
    var copy = text
    return copy.withUTF8 { parse($0) }
  }

  /// `seconds` (since 1970 UTC) as `YYYY-MM-DDThh:mm:ss[.ffffff]Z`: the fraction to the
  /// microsecond with trailing zeros dropped, none when whole. `zone: false` leaves out the `Z`
  /// (for a time that was written without a zone, so it is not passed off as UTC).
  public static func format(_ seconds: Double, zone: Bool = true) -> String {
    let (year, month, day, rest, micros) = fields(seconds)
    var out = year < 0 ? "-" + pad(-year, 4) : pad(year, 4)
    out += "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(rest / 3600, 2) + ":"
    out += pad(rest / 60 % 60, 2) + ":" + pad(rest % 60, 2)
    if micros > 0 {
      var digits = pad(micros, 6)
      while digits.hasSuffix("0") { digits.removeLast() }
      out += "." + digits
    }
    return zone ? out + "Z" : out
  }

  private static func pad(_ value: Int, _ width: Int) -> String { Text.zeroPadded(value, width: width) }

  /// The days in `month` of `year`, in the proleptic Gregorian calendar.
  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The calendar fields of `seconds` (since 1970 UTC): the date, the seconds into that day and the
  /// microseconds, rounded, with a rounding up to a whole second carried into the seconds.
  static func fields(_ seconds: Double) -> (year: Int, month: Int, day: Int, secondOfDay: Int, micros: Int) {
    var whole = Int(seconds.rounded(.down))
    var micros = Int(((seconds - Double(whole)) * 1_000_000).rounded())
    if micros >= 1_000_000 {
      whole += 1
      micros -= 1_000_000
    }
    var days = whole / 86_400
    var rest = whole % 86_400
    if rest < 0 {
      rest += 86_400
      days -= 1
    }
    let (year, month, day) = civilFromDays(days)
    return (year, month, day, rest, micros)
  }

  /// The date of a day count since 1970-01-01 (Hinnant's `civil_from_days`).
  static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
