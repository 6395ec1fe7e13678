#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A base that is only the phone's own timestamp, `YYYY-MM-DDTHH-MM-SS` (a `T`, blank, `_` or `t`
/// after the day; `-`, `:` or `.` twice in the time, the same both times), in local time or
/// followed by `Z` or `z` (UTC), held as one integer whose order is the bases' byte order: the
/// fourteen digits, the two separators and the zone as one number in mixed radix, most
/// significant first. Nearly every base a phone writes has this form, so the names pass keeps
/// these as integers (sorted, not hashed) and decodes one only to show it.
package enum PlainBase {
  /// How many bytes such a base has without its zone.
  static let length = 19
  /// How many bits a key takes (the largest is under 3.6 × 10¹⁵).
  package static let bits = 52

  /// The key of `base`, or nil when it is not of this form. Any digits are taken (an impossible
  /// date is still a base of this form: it is the date that is refused, by `date`).
  package static func key(_ base: UnsafeRawBufferPointer) -> UInt64? {
    guard base.count == length || base.count == length + 1, base[4] == UInt8(ascii: "-"),
      base[7] == UInt8(ascii: "-"),
      base[16] == base[13], let day = separatorCode(base[10]), let time = fieldCode(base[13])
    else { return nil }
    var value: UInt64 = 0
    var valid = true
    func digit(_ at: Int) {
      let c = base[at] &- 0x30
      valid = valid && c <= 9
      value = value &* 10 &+ UInt64(c)
    }
    for at in 0..<4 { digit(at) }
    digit(5)
    digit(6)
    digit(8)
    digit(9)
    value = value &* 4 &+ day
    digit(11)
    digit(12)
    value = value &* 3 &+ time
    digit(14)
    digit(15)
    digit(17)
    digit(18)
    guard valid else { return nil }
    // No zone sorts first (the shorter base), then `Z`, then `z`.
    guard base.count > length else { return value &* 3 }
    switch base[length] {
    case UInt8(ascii: "Z"): return value &* 3 &+ 1
    case UInt8(ascii: "z"): return value &* 3 &+ 2
    default: return nil
    }
  }

  /// The byte after the day, in byte order: blank, `T`, `_`, `t`.
  private static func separatorCode(_ byte: UInt8) -> UInt64? {
    switch byte {
    case UInt8(ascii: " "): 0
    case UInt8(ascii: "T"): 1
    case UInt8(ascii: "_"): 2
    case UInt8(ascii: "t"): 3
    default: nil
    }
  }

  /// The separator in the time, in byte order: `-`, `.`, `:`.
  private static func fieldCode(_ byte: UInt8) -> UInt64? {
    switch byte {
    case UInt8(ascii: "-"): 0
    case UInt8(ascii: "."): 1
    case UInt8(ascii: ":"): 2
    default: nil
    }
  }

  /// What a key holds.
  struct Fields {
    var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// The byte after the day, and the separator in the time.
    var afterDay: UInt8, inTime: UInt8
    /// The zone's letter (`Z` or `z`: UTC), or nil for local time.
    var zone: UInt8?
  }

  /// The fields of `key`.
  static func fields(_ key: UInt64) -> Fields {
    let zone: UInt8? = key % 3 == 0 ? nil : key % 3 == 1 ? UInt8(ascii: "Z") : UInt8(ascii: "z")
    var rest = key / 3
    let minuteSecond = Int(rest % 10_000)
    rest /= 10_000
    let time = rest % 3
    rest /= 3
    let hour = Int(rest % 100)
    rest /= 100
    let day = rest % 4
    rest /= 4
    let date = Int(rest)
    let afterDay: UInt8 =
      switch day {
      case 0: UInt8(ascii: " ")
      case 1: UInt8(ascii: "T")
      case 2: UInt8(ascii: "_")
      default: UInt8(ascii: "t")
      }
    let inTime: UInt8 =
      switch time {
      case 0: UInt8(ascii: "-")
      case 1: UInt8(ascii: ".")
      default: UInt8(ascii: ":")
      }
    return Fields(
      year: date / 10_000, month: date / 100 % 100, day: date % 100, hour: hour, minute: minuteSecond / 100,
      second: minuteSecond % 100, afterDay: afterDay, inTime: inTime, zone: zone)
  }

  /// Calls `body` with the base's bytes.
  package static func withBytes<Result>(_ key: UInt64, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    let f = fields(key)
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length + 1) { buffer in
      func put(_ number: Int, _ count: Int, at start: Int) {
        var rest = number
        for at in (start..<start + count).reversed() {
          buffer[at] = UInt8(0x30 + rest % 10)
          rest /= 10
        }
      }
      put(f.year, 4, at: 0)
      buffer[4] = UInt8(ascii: "-")
      put(f.month, 2, at: 5)
      buffer[7] = UInt8(ascii: "-")
      put(f.day, 2, at: 8)
      buffer[10] = f.afterDay
      put(f.hour, 2, at: 11)
      buffer[13] = f.inTime
      put(f.minute, 2, at: 14)
      buffer[16] = f.inTime
      put(f.second, 2, at: 17)
      guard let zone = f.zone else {
        return body(UnsafeRawBufferPointer(start: buffer.baseAddress, count: length))
      }
      buffer[length] = zone
      return body(UnsafeRawBufferPointer(buffer))
    }
  }

  /// The recording date the base names, in local time or UTC, read as `TimestampReader` reads it;
  /// nil for an impossible date (as there).
  static func date(_ key: UInt64) -> Double? {
    let f = fields(key)
    guard
      var parts = TimestampReader.wallClock(
        year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second)
    else { return nil }
    if f.zone != nil { return Double(timegm(&parts)) }
    return Double(RecordingDate.localSeconds(parts))
  }

  /// Sorts `values` by their bits from `low` up (`count` of them; lower bits are left in any
  /// order), moving `carried[i]` with `values[i]`: a radix sort, 11 bits a pass, a pass skipped
  /// when every value has the same digit.
  package static func sort(
    _ values: inout [UInt64], carrying carried: inout [Double], bitsFrom low: Int, count: Int
  ) {
    precondition(carried.count == values.count)
    let digit = 11
    let mask = (1 << digit) - 1
    var scratch = [UInt64](repeating: 0, count: values.count)
    var carriedScratch = [Double](repeating: 0, count: values.count)
    var counts = [Int](repeating: 0, count: 1 << digit)
    var shift = low
    while shift < low + count {
      defer { shift += digit }
      let by = UInt64(shift)
      let total = values.count
      let spread = values.withUnsafeBufferPointer { source in
        counts.withUnsafeMutableBufferPointer { counts in
          for at in counts.indices { counts[at] = 0 }
          for value in source { counts[Int(truncatingIfNeeded: value >> by) & mask] += 1 }
          guard !counts.contains(total) else { return false }
          var sum = 0
          for at in counts.indices { (counts[at], sum) = (sum, sum + counts[at]) }
          return true
        }
      }
      guard spread else { continue }
      values.withUnsafeBufferPointer { source in
        scratch.withUnsafeMutableBufferPointer { target in
          carried.withUnsafeBufferPointer { carriedSource in
            carriedScratch.withUnsafeMutableBufferPointer { carriedTarget in
              counts.withUnsafeMutableBufferPointer { counts in
                for (at, value) in source.enumerated() {
                  let bucket = Int(truncatingIfNeeded: value >> by) & mask
                  target[counts[bucket]] = value
                  carriedTarget[counts[bucket]] = carriedSource[at]
                  counts[bucket] += 1
                }
              }
            }
          }
        }
      }
      swap(&values, &scratch)
      swap(&carried, &carriedScratch)
    }
  }
}
