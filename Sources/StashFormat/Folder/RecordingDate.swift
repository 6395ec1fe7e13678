#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reading a recording date out of a base, and writing dates out, with Glibc's calendar functions.
public enum RecordingDate {
  /// Seconds since 1970 (UTC) that a base names, or nil when it is not one of the timestamp patterns
  /// (FORMAT.md §1.3): `YYYY-MM-DD` + `T`/space/`_` + `HH:MM[:SS]` with `:`, `-` or `.` between the
  /// time fields, or `YYYYMMDD` + space/`_`/`-`/`T` + `HHMMSS`; then an optional fraction (`.` or `,`),
  /// an optional zone (`Z`, `±hh`, `±hhmm`, `±hh:mm`, `±hh-mm`), and optionally a blank, `_` or `-`
  /// followed by any text. Without a zone the time is local (the process's `TZ`).
  public static func parse(base: String) -> Double? {
    var reader = TimestampReader(Array(base.utf8))
    return reader.timestamp()
  }

  /// The words a person put in the base after its timestamp (`2026-03-14_08-05-12 walk` gives
  /// `walk`), the whole base when it is not a timestamp, or nil for a bare timestamp.
  public static func words(inBase base: String) -> String? {
    var reader = TimestampReader(Array(base.utf8))
    guard reader.timestamp() != nil else { return base.isEmpty ? nil : base }
    let rest = reader.bytes[reader.index...].drop { " _-".utf8.contains($0) }
    return rest.isEmpty ? nil : String(decoding: rest, as: UTF8.self)
  }

  /// Whether a creation time read from audio can be believed: after 2001 and at most a day ahead of now.
  public static func isPlausible(_ seconds: Double, now: Double = currentTime()) -> Bool {
    seconds >= 978_307_200 && seconds <= now + 86_400
  }

  /// Seconds since 1970 of a local wall-clock time (FORMAT.md §1.3). A time a change of offset
  /// made happen twice is the earlier of the two; a time it skipped is read with the offset before
  /// the change (so 02:30 on a spring-forward night is 03:30 summer time). Glibc's `mktime`
  /// answers these by what it was last asked, so it is not used; nor would it be quick: it runs
  /// `tzset`, which with `TZ` unset looks at the zone file again on every call, one `stat(2)` per
  /// memo in a listing. `localtime_r` (through `calendar`) does neither.
  ///
  /// It cannot fail, so every result is an instant: -1 is 1969-12-31T23:59:59Z (as a local
  /// 1970-01-01 00:59:59 in Berlin is), not an error as `mktime`'s -1 may be. With a 64-bit
  /// `time_t`, `timegm` and `localtime_r` cover every `Int32` year, and a base's has four digits.
  static func localSeconds(_ wall: tm) -> time_t {
    var fields = wall
    let asUTC = timegm(&fields)
    func offset(at instant: time_t) -> time_t { time_t((calendar(instant, local: true) ?? tm()).tm_gmtoff) }
    // The instant is within 15 hours of the wall time read as UTC (no zone is further out), and
    // no zone has changed its offset twice in a day: the offsets at either end are the only ones.
    let before = offset(at: asUTC - 15 * 3600)
    let after = offset(at: asUTC + 15 * 3600)
    // One offset all day (nearly every time): that is the answer, whether or not it checks out.
    if before == after { return asUTC - before }
    let (early, late) = (asUTC - max(before, after), asUTC - min(before, after))
    if asUTC - offset(at: early) == early { return early }
    if asUTC - offset(at: late) == late { return late }
    return asUTC - before
  }

  /// The current time, seconds since 1970 (`clock_gettime(CLOCK_REALTIME)`).
  public static func currentTime() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }

  /// ISO 8601 in UTC, `2026-03-14T08:05:12Z`, with milliseconds only when the time has them.
  public static func isoUTC(_ seconds: Double) -> String {
    text { appendISO(seconds, local: false, to: &$0) }
  }

  /// ISO 8601 in local time with its offset, `2026-03-14T09:05:12+01:00`.
  public static func isoLocal(_ seconds: Double) -> String {
    text { appendISO(seconds, local: true, to: &$0) }
  }

  /// The date as a memo with no title shows it: local time to the minute, `2026-03-14 08:05`.
  public static func localMinute(_ seconds: Double) -> String {
    minute(calendar(time_t(seconds.rounded(.down)), local: true) ?? tm())
  }

  /// `parts` to the minute, `2026-03-14 08:05`, the year padded to four digits.
  package static func minute(_ parts: tm) -> String {
    text { appendMinute(parts, separator: UInt8(ascii: " "), to: &$0) }
  }

  /// Local time to the second with no zone, `2026-03-14T08:05:12`, as a `.trashinfo`'s
  /// `DeletionDate` is written.
  package static func localSecond(_ seconds: Double) -> String {
    let parts = calendar(time_t(seconds.rounded(.down)), local: true) ?? tm()
    return text { out in
      appendMinute(parts, separator: UInt8(ascii: "T"), to: &out)
      out.append(UInt8(ascii: ":"))
      Text.appendZeroPadded(Int(parts.tm_sec), width: 2, to: &out)
    }
  }

  /// The UTC time of day of `time`, `08:05:12`, as a route's times are told.
  package static func utcClock(_ time: time_t) -> String {
    let parts = calendar(time, local: false) ?? tm()
    return text { out in
      Text.appendZeroPadded(Int(parts.tm_hour), width: 2, to: &out)
      out.append(UInt8(ascii: ":"))
      Text.appendZeroPadded(Int(parts.tm_min), width: 2, to: &out)
      out.append(UInt8(ascii: ":"))
      Text.appendZeroPadded(Int(parts.tm_sec), width: 2, to: &out)
    }
  }

  /// The calendar fields of `time` in the local zone (`localtime_r(3)`, honouring `TZ`) or in UTC
  /// (`gmtime_r(3)`): the one place either is called. Nil when the year does not fit an `Int32`.
  package static func calendar(_ time: time_t, local: Bool) -> tm? {
    var time = time
    var parts = tm()
    let done = local ? localtime_r(&time, &parts) : gmtime_r(&time, &parts)
    return done == nil ? nil : parts
  }

  /// Appends `isoLocal(seconds)` (`local`) or `isoUTC(seconds)` to `out`, written from the
  /// calendar fields with no String made: a JSON listing writes two dates for every memo, and
  /// building their text piece by piece was most of its JSON's cost. The one writer of these dates.
  package static func appendISO(_ seconds: Double, local: Bool, to out: inout [UInt8]) {
    let whole = seconds.rounded(.down)
    let parts = calendar(time_t(whole), local: local) ?? tm()
    let millis = local ? 0 : Int(((seconds - whole) * 1000).rounded())
    appendMinute(parts, separator: UInt8(ascii: "T"), to: &out)
    out.append(UInt8(ascii: ":"))
    Text.appendZeroPadded(Int(parts.tm_sec), width: 2, to: &out)
    if local {
      let offset = parts.tm_gmtoff
      out.append(UInt8(ascii: offset < 0 ? "-" : "+"))
      let minutes = Int(abs(offset) / 60)
      Text.appendZeroPadded(minutes / 60, width: 2, to: &out)
      out.append(UInt8(ascii: ":"))
      Text.appendZeroPadded(minutes % 60, width: 2, to: &out)
    } else {
      if millis > 0 && millis < 1000 {
        out.append(UInt8(ascii: "."))
        Text.appendZeroPadded(millis, width: 3, to: &out)
      }
      out.append(UInt8(ascii: "Z"))
    }
  }

  /// The base the phone writes for an instant, in UTC with its zone (FORMAT.md §1.3 allows `Z`):
  /// `2026-03-14T08-05-12Z`, to the second (rounded down).
  package static func base(utc seconds: Double) -> String {
    let parts = calendar(time_t(seconds.rounded(.down)), local: false) ?? tm()
    return text { out in
      appendMinute(parts, separator: UInt8(ascii: "T"), to: &out)
      out[out.count - 3] = UInt8(ascii: "-")
      out.append(UInt8(ascii: "-"))
      Text.appendZeroPadded(Int(parts.tm_sec), width: 2, to: &out)
      out.append(UInt8(ascii: "Z"))
    }
  }

  /// The text `body` appends.
  private static func text(_ body: (inout [UInt8]) -> Void) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(32)
    body(&bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `YYYY-MM-DD` + `separator` + `HH:MM`: a year below 1000 padded to four digits, one below 0
  /// written after two zeros (`00-5`).
  private static func appendMinute(_ parts: tm, separator: UInt8, to out: inout [UInt8]) {
    let year = Int(parts.tm_year) + 1900
    if year < 0 {
      out += "00".utf8
      JSONWriter.writeInteger(Int64(year), to: &out)
    } else {
      Text.appendZeroPadded(year, width: 4, to: &out)
    }
    out.append(UInt8(ascii: "-"))
    Text.appendZeroPadded(Int(parts.tm_mon) + 1, width: 2, to: &out)
    out.append(UInt8(ascii: "-"))
    Text.appendZeroPadded(Int(parts.tm_mday), width: 2, to: &out)
    out.append(separator)
    Text.appendZeroPadded(Int(parts.tm_hour), width: 2, to: &out)
    out.append(UInt8(ascii: ":"))
    Text.appendZeroPadded(Int(parts.tm_min), width: 2, to: &out)
  }

}
