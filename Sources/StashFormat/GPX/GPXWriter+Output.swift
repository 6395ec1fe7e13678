extension GPXWriter {
  /// The bytes being written, with the few ways the writer appends to them: fixed markup, two
  /// spaces of indent per level, numbers and escaped text, without building intermediate strings.
  struct Output {
    var bytes: [UInt8] = []

    static func += (out: inout Output, text: StaticString) {
      text.withUTF8Buffer { out.bytes.append(contentsOf: $0) }
    }

    static func += (out: inout Output, text: String) {
      out.append(text)
    }

    /// Two spaces per level.
    mutating func indent(_ depth: Int) {
      for _ in 0..<depth * 2 { bytes.append(UInt8(ascii: " ")) }
    }

    /// `DecimalText.format(value)`: the shortest text that reads back as `value`, no exponent.
    /// A phone's numbers (coordinates to seven places, elevations, speeds) take the fast path: the
    /// fewest decimal places `k` for which the nearest `n / 10^k` reads back as `value`, when
    /// `10^-k` is wider than the value's rounding interval, so that this `n` is the only
    /// `k`-place number that reads back and therefore the shortest form the standard library
    /// prints. Anything else goes through `DecimalText.format`.
    mutating func decimal(_ value: Double) {
      let magnitude = value.magnitude
      if magnitude > 0, magnitude < 1e15 {
        var scale = 1.0
        for places in 0...9 {
          let scaled = magnitude * scale
          guard scaled < 9e15, magnitude.ulp * 2 * scale < 1 else { break }
          let whole = scaled.rounded()
          if whole / scale == magnitude {
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            fixedPoint(UInt64(whole), places: places)
            return
          }
          scale *= 10
        }
      }
      append(DecimalText.format(value))
    }

    /// `whole / 10^places` in plain decimal, without trailing zeros after the point.
    mutating func fixedPoint(_ whole: UInt64, places: Int) {
      var number = whole
      var places = places
      while places > 0, number % 10 == 0 {
        number /= 10
        places -= 1
      }
      var digits = 1
      var power: UInt64 = 1
      while number / power >= 10 {
        power *= 10
        digits += 1
      }
      let zero = UInt8(ascii: "0")
      if digits <= places {
        bytes.append(zero)
        bytes.append(UInt8(ascii: "."))
        for _ in digits..<places { bytes.append(zero) }
      }
      var rest = number
      var left = digits
      while power > 0 {
        if left == places && digits > places { bytes.append(UInt8(ascii: ".")) }
        bytes.append(zero + UInt8(rest / power))
        rest %= power
        power /= 10
        left -= 1
      }
    }

    /// The text's UTF-8, copied in one piece.
    mutating func append(_ text: String) {
      if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
        bytes.append(contentsOf: text.utf8)
      }
    }

    /// `ISO8601Time.format(seconds, zone:)`, written as bytes: the same fields (microseconds at most,
    /// trailing zeros dropped), without the small strings the general formatter builds per field.
    mutating func time(_ seconds: Double, zone: Bool) {
      let (year, month, day, rest, fraction) = ISO8601Time.fields(seconds)
      var micros = fraction
      if year < 0 { bytes.append(UInt8(ascii: "-")) }
      padded(abs(year), 4)
      bytes.append(UInt8(ascii: "-"))
      padded(month, 2)
      bytes.append(UInt8(ascii: "-"))
      padded(day, 2)
      bytes.append(UInt8(ascii: "T"))
      padded(rest / 3600, 2)
      bytes.append(UInt8(ascii: ":"))
      padded(rest / 60 % 60, 2)
      bytes.append(UInt8(ascii: ":"))
      padded(rest % 60, 2)
      if micros > 0 {
        var digits = 6
        while micros % 10 == 0 {
          micros /= 10
          digits -= 1
        }
        bytes.append(UInt8(ascii: "."))
        padded(micros, digits)
      }
      if zone { bytes.append(UInt8(ascii: "Z")) }
    }

    /// `value` (not negative) in decimal, zero-padded to `width` digits.
    mutating func padded(_ value: Int, _ width: Int) {
      let zero = UInt8(ascii: "0")
      var digits = 1
      var power = 1
      while value / power >= 10 {
        power *= 10
        digits += 1
      }
      for _ in digits..<max(digits, width) { bytes.append(zero) }
      var rest = value
      while power > 0 {
        bytes.append(zero + UInt8(rest / power))
        rest %= power
        power /= 10
      }
    }

    /// `GPXWriter.escaped(text, attribute:)`: text with nothing to escape (printable ASCII and
    /// UTF-8 beyond it, no markup character) is copied as it is.
    mutating func escaped(_ text: String, attribute: Bool) {
      let plain = text.utf8.allSatisfy { byte in
        byte >= 0x20 && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">")
          && byte != UInt8(ascii: "\"") && byte != 0xEF
      }
      append(plain ? text : GPXWriter.escaped(text, attribute: attribute))
    }
  }
}
