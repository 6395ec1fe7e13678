/// WebVTT timestamps (`mm:ss.ttt` or `hh:mm:ss.ttt`): the spec's "collect a WebVTT timestamp" over
/// bytes, and the writer's form.
public enum WebVTTTimestamp {
  /// Why a timestamp could not be read, in words for a diagnostic.
  struct Failure: Error {
    var message: String
    /// The byte where reading stopped.
    var offset: Int
  }

  /// Whether the timing line at `range` of `bytes` keeps its cue: the parser drops a cue whose
  /// start time, arrow or end time cannot be read (`WebVTTFileParser.timingsAndSettings`, which
  /// says why). A quick reading of the spoken text (`StashSearch`) takes a cue's words only then.
  package static func keepsCue(_ bytes: UnsafeBufferPointer<UInt8>, timingLine range: Range<Int>) -> Bool {
    var position = range.lowerBound
    var shortHours = false
    func skipWhitespace() {
      while position < range.upperBound && WebVTTCueTextParser.isWhitespace(bytes[position]) { position += 1 }
    }
    skipWhitespace()
    guard case .success = collect(bytes, &position, end: range.upperBound, shortHours: &shortHours) else {
      return false
    }
    skipWhitespace()
    for expected in [UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: ">")] {
      guard position < range.upperBound, bytes[position] == expected else { return false }
      position += 1
    }
    skipWhitespace()
    guard case .success = collect(bytes, &position, end: range.upperBound, shortHours: &shortHours) else {
      return false
    }
    return true
  }

  /// A timestamp read at `position`; on success `position` is just after it. `shortHours` is set
  /// when the hours have one digit, which the parser takes but the syntax forbids.
  @inline(__always)
  static func collect(
    _ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int, end: Int, shortHours: inout Bool
  ) -> Result<Double, Failure> {
    if let time = collectCommon(bytes, &position, end: end) { return .success(time) }
    return collectAny(bytes, &position, end: end, shortHours: &shortHours)
  }

  /// The spec's steps for any timestamp, out of line so that the common form's fast path above is
  /// all that its callers inline.
  @inline(never)
  private static func collectAny(
    _ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int, end: Int, shortHours: inout Bool
  ) -> Result<Double, Failure> {
    guard position < end, isDigit(bytes[position]) else {
      return .failure(Failure(message: "a timestamp starts with a digit", offset: position))
    }
    let first = digits(bytes, &position, end)
    let hoursFirst = first.count != 2 || first.value > 59
    guard position < end, bytes[position] == colon else {
      return .failure(Failure(message: "expected ':' after \(first.count) digits", offset: position))
    }
    position += 1
    let secondStart = position
    let second = digits(bytes, &position, end)
    guard second.count == 2 else {
      return .failure(Failure(message: "minutes and seconds take exactly two digits", offset: secondStart))
    }
    var hours = 0
    var minutes = second.value
    var seconds = 0
    if hoursFirst || (position < end && bytes[position] == colon) {
      guard position < end, bytes[position] == colon else {
        let why = first.count != 2 ? "hours" : "hours (the first part is over 59)"
        return .failure(Failure(message: "expected ':' and seconds after \(why)", offset: position))
      }
      position += 1
      let thirdStart = position
      let third = digits(bytes, &position, end)
      guard third.count == 2 else {
        return .failure(Failure(message: "minutes and seconds take exactly two digits", offset: thirdStart))
      }
      hours = first.value
      seconds = third.value
      if first.count < 2 { shortHours = true }
    } else {
      minutes = first.value
      seconds = second.value
    }
    guard position < end, bytes[position] == UInt8(ascii: ".") else {
      return .failure(Failure(message: "expected '.' and three digits of milliseconds", offset: position))
    }
    position += 1
    let fractionStart = position
    let fraction = digits(bytes, &position, end)
    guard fraction.count == 3 else {
      return .failure(Failure(message: "milliseconds take exactly three digits", offset: fractionStart))
    }
    guard minutes <= 59, seconds <= 59 else {
      return .failure(Failure(message: "minutes and seconds must be 59 or less", offset: fractionStart))
    }
    // The spec's sum, in this order, so the writer's text reads back as the same double.
    return .success(Double(hours * 3600 + minutes * 60 + seconds) + Double(fraction.value) / 1000)
  }

  private static let colon = UInt8(ascii: ":")
  /// Where a run of digits saturates.
  private static let maximumValue = 99_999_999

  /// The forms nearly every file uses, `mm:ss.ttt` and `hh:mm:ss.ttt` (exactly two hour digits),
  /// read straight off the bytes; nil (position unchanged) for anything else, which the general
  /// steps above then read or reject exactly as the spec says.
  @inline(__always)
  private static func collectCommon(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int, end: Int)
    -> Double?
  {
    let p = position
    guard p + 9 <= end else { return nil }
    @inline(__always) func digit(_ i: Int) -> Int { Int(bytes[p + i] &- 0x30) }
    let (a, b, c, d) = (digit(0), digit(1), digit(3), digit(4))
    // (Wrapping subtraction makes every byte that is not a digit 10 or more.)
    guard a < 10, b < 10, c < 10, d < 10, bytes[p + 2] == colon else { return nil }
    let first = a * 10 + b
    let second = c * 10 + d
    if bytes[p + 5] == UInt8(ascii: ".") {
      let (e, f, g) = (digit(6), digit(7), digit(8))
      guard e < 10, f < 10, g < 10, p + 9 == end || !isDigit(bytes[p + 9]), first <= 59, second <= 59
      else { return nil }
      position = p + 9
      return Double(first * 60 + second) + Double(e * 100 + f * 10 + g) / 1000
    }
    guard bytes[p + 5] == colon, p + 12 <= end, bytes[p + 8] == UInt8(ascii: ".") else { return nil }
    let (h, i, j, k, l) = (digit(6), digit(7), digit(9), digit(10), digit(11))
    guard h < 10, i < 10, j < 10, k < 10, l < 10, p + 12 == end || !isDigit(bytes[p + 12]), second <= 59,
      h * 10 + i <= 59
    else { return nil }
    position = p + 12
    return Double(first * 3600 + second * 60 + h * 10 + i) + Double(j * 100 + k * 10 + l) / 1000
  }

  @inline(__always)
  private static func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

  /// A run of ASCII digits: its value and its length. The value saturates at 99,999,999 (as hours,
  /// over 11,000 years): any time read is then a whole number of milliseconds far below 2^53, so the
  /// writer's text for it reads back as the same double, and the sum above cannot overflow.
  @inline(__always)
  private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int, _ end: Int) -> (
    value: Int, count: Int
  ) {
    var value = 0
    var count = 0
    while position < end {
      let digit = bytes[position] &- 0x30
      guard digit < 10 else { break }
      value = min(value * 10 + Int(digit), maximumValue)
      count += 1
      position += 1
    }
    return (value, count)
  }

  /// A timestamp in `text` (nothing else in it), or nil: for Stash's notes and for tests.
  public static func parse(_ text: String) -> Double? {
    var text = text
    return text.withUTF8 { parse($0) }
  }

  /// A timestamp in `bytes` (nothing else in them), or nil.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var position = 0
    var shortHours = false
    guard case .success(let value) = collect(bytes, &position, end: bytes.count, shortHours: &shortHours),
      position == bytes.count
    else { return nil }
    return value
  }

  /// `hh:mm:ss.ttt` (hours always, at least two digits), rounded to the millisecond; negative or
  /// non-finite times are written as zero.
  public static func format(_ seconds: Double) -> String {
    let total = seconds.isFinite && seconds > 0 ? (seconds * 1000).rounded() : 0
    let milliseconds = total.truncatingRemainder(dividingBy: 1000)
    let wholeSeconds = (total - milliseconds) / 1000
    let s = wholeSeconds.truncatingRemainder(dividingBy: 60)
    let m = ((wholeSeconds - s) / 60).truncatingRemainder(dividingBy: 60)
    let h = ((wholeSeconds - s) / 60 - m) / 60
    return pad(h, 2) + ":" + pad(m, 2) + ":" + pad(s, 2) + "." + pad(milliseconds, 3)
  }

  /// `mm:ss.ttt` when under an hour, else `hh:mm:ss.ttt`: the shorter form the writer uses.
  public static func formatShort(_ seconds: Double) -> String {
    let full = format(seconds)
    return full.hasPrefix("00:") ? String(full.dropFirst(3)) : full
  }

  private static func pad(_ value: Double, _ width: Int) -> String {
    let digits = value < 1e18 ? String(Int64(value)) : String(format: value)
    return Text.zeroPadded(digits, width: width)
  }
}

extension String {
  /// Whole-number digits of a huge double without an exponent.
  fileprivate init(format value: Double) {
    var digits: [Character] = []
    var rest = value.rounded(.down)
    while rest >= 1 {
      let digit = rest.truncatingRemainder(dividingBy: 10)
      digits.append(Character(String(Int(digit))))
      rest = ((rest - digit) / 10).rounded(.down)
    }
    self = digits.isEmpty ? "0" : String(digits.reversed())
  }
}
