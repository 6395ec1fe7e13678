/// WebVTT timestamps (`mm:ss.ttt` or `hh:mm:ss.ttt`): the spec's "collect a WebVTT timestamp" over
/// bytes, and the writer's form.
public enum WebVTTTimestamp {
  /// Why a timestamp could not be read, in words for a diagnostic.
  struct Failure: Error {
    var message: String
    /// The byte where reading stopped.
    var offset: Int
  }

  /// A timestamp read at `position`; on success `position` is just after it. `shortHours` is set
  /// when the hours have one digit, which the parser takes but the syntax forbids.
  static func collect(
    _ bytes: UnsafeBufferPointer<UInt8>, _ position: inout Int, end: Int, shortHours: inout Bool
  ) -> Result<Double, Failure> {
    func digits(_ position: inout Int) -> (value: Double, count: Int) {
      var value = 0.0
      var count = 0
      while position < end, bytes[position] >= 0x30, bytes[position] <= 0x39 {
        value = value * 10 + Double(bytes[position] - 0x30)
        count += 1
        position += 1
      }
      return (value, count)
    }
    func isColon(_ position: Int) -> Bool { position < end && bytes[position] == UInt8(ascii: ":") }

    guard position < end, bytes[position] >= 0x30, bytes[position] <= 0x39 else {
      return .failure(Failure(message: "a timestamp starts with a digit", offset: position))
    }
    let first = digits(&position)
    let hoursFirst = first.count != 2 || first.value > 59
    guard isColon(position) else {
      return .failure(Failure(message: "expected ':' after \(first.count) digits", offset: position))
    }
    position += 1
    let secondStart = position
    let second = digits(&position)
    guard second.count == 2 else {
      return .failure(Failure(message: "minutes and seconds take exactly two digits", offset: secondStart))
    }
    var hours = 0.0
    var minutes = second.value
    var seconds = 0.0
    if hoursFirst || isColon(position) {
      guard isColon(position) else {
        let why = first.count != 2 ? "hours" : "hours (the first part is over 59)"
        return .failure(Failure(message: "expected ':' and seconds after \(why)", offset: position))
      }
      position += 1
      let thirdStart = position
      let third = digits(&position)
      guard third.count == 2 else {
        return .failure(Failure(message: "minutes and seconds take exactly two digits", offset: thirdStart))
      }
      hours = first.value
      minutes = second.value
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
    let fraction = digits(&position)
    guard fraction.count == 3 else {
      return .failure(Failure(message: "milliseconds take exactly three digits", offset: fractionStart))
    }
    guard minutes <= 59, seconds <= 59 else {
      return .failure(
        Failure(message: "minutes and seconds must be 59 or less", offset: fractionStart))
    }
    return .success(hours * 3600 + minutes * 60 + seconds + fraction.value / 1000)
  }

  /// A timestamp in `text` (nothing else in it), or nil: for Stash's notes and for tests.
  public static func parse(_ text: String) -> Double? {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { buffer in
      var position = 0
      var shortHours = false
      guard
        case .success(let value) = collect(
          UnsafeBufferPointer(buffer), &position, end: buffer.count, shortHours: &shortHours),
        position == buffer.count
      else { return nil }
      return value
    }
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
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
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
