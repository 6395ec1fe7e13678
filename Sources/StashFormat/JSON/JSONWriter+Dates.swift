#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension JSONWriter {
  /// `RecordingDate.isoUTC(seconds)` or `RecordingDate.isoLocal(seconds)` as a JSON string, the
  /// same bytes, written from the calendar fields with no String made: a listing writes two
  /// dates for every memo, and building their text piece by piece was most of its JSON's cost.
  package mutating func recordingDate(_ seconds: Double, local: Bool) {
    var parts = tm()
    var millis = 0
    if local {
      var time = time_t(seconds.rounded(.down))
      localtime_r(&time, &parts)
    } else {
      let whole = seconds.rounded(.down)
      var time = time_t(whole)
      gmtime_r(&time, &parts)
      millis = Int(((seconds - whole) * 1000).rounded())
    }
    unescapedString { out in
      Self.writeDate(parts, to: &out)
      if local {
        let offset = parts.tm_gmtoff
        out.append(UInt8(ascii: offset < 0 ? "-" : "+"))
        let minutes = Int32(abs(offset) / 60)
        Self.writeDigits(Int(minutes / 60), count: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        Self.writeDigits(Int(minutes % 60), count: 2, to: &out)
      } else {
        if millis > 0 && millis < 1000 {
          out.append(UInt8(ascii: "."))
          Self.writeDigits(millis, count: 3, to: &out)
        }
        out.append(UInt8(ascii: "Z"))
      }
    }
  }

  /// `YYYY-MM-DDTHH:MM:SS` as `RecordingDate.dateText` and `two` give it (a year below 1000 padded
  /// to four digits; one below 0, as there, after two zeros).
  private static func writeDate(_ parts: tm, to out: inout [UInt8]) {
    let year = Int(parts.tm_year) + 1900
    if year < 0 {
      out += "00".utf8
      writeInteger(Int64(year), to: &out)
    } else {
      writeDigits(year, count: 4, to: &out)
    }
    out.append(UInt8(ascii: "-"))
    writeDigits(Int(parts.tm_mon) + 1, count: 2, to: &out)
    out.append(UInt8(ascii: "-"))
    writeDigits(Int(parts.tm_mday), count: 2, to: &out)
    out.append(UInt8(ascii: "T"))
    writeDigits(Int(parts.tm_hour), count: 2, to: &out)
    out.append(UInt8(ascii: ":"))
    writeDigits(Int(parts.tm_min), count: 2, to: &out)
    out.append(UInt8(ascii: ":"))
    writeDigits(Int(parts.tm_sec), count: 2, to: &out)
  }

  /// A value of zero or more in decimal, padded with zeros to at least `count` digits.
  private static func writeDigits(_ value: Int, count: Int, to out: inout [UInt8]) {
    var padding = count - 1
    var rest = value / 10
    while padding > 0 && rest > 0 {
      padding -= 1
      rest /= 10
    }
    for _ in 0..<padding { out.append(UInt8(ascii: "0")) }
    writeInteger(Int64(value), to: &out)
  }
}
