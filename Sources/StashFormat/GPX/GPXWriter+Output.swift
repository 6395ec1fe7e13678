extension GPXWriter {
  /// The bytes being written, with the few ways the writer appends to them: fixed markup, two
  /// spaces of indent per level, numbers and escaped text, without building intermediate strings.
  struct Output {
    var bytes: [UInt8] = []

    static func += (out: inout Output, text: StaticString) {
      text.withUTF8Buffer { out.bytes.append(contentsOf: $0) }
    }

    static func += (out: inout Output, text: String) {
      out.bytes.append(contentsOf: text.utf8)
    }

    /// Two spaces per level.
    mutating func indent(_ depth: Int) {
      for _ in 0..<depth * 2 { bytes.append(UInt8(ascii: " ")) }
    }

    /// `DecimalText.format(value)`: the shortest text that reads back as `value`, no exponent. The
    /// standard library's shortest form is used as it is when it has no exponent (only a trailing
    /// `.0` goes), which is every coordinate, elevation and speed a phone writes.
    mutating func decimal(_ value: Double) {
      let text = value.description
      let utf8 = text.utf8
      if utf8.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
        bytes.append(contentsOf: DecimalText.format(value).utf8)
      } else if utf8.count >= 2, utf8.reversed().starts(with: [UInt8(ascii: "0"), UInt8(ascii: ".")]) {
        bytes.append(contentsOf: utf8.dropLast(2))
      } else {
        bytes.append(contentsOf: utf8)
      }
    }

    /// `ISO8601Time.format(seconds, zone:)`, written as bytes: the same fields (microseconds at most,
    /// trailing zeros dropped), without the small strings the general formatter builds per field.
    mutating func time(_ seconds: Double, zone: Bool) {
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
      let (year, month, day) = ISO8601Time.civilFromDays(days)
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
      if plain {
        bytes.append(contentsOf: text.utf8)
      } else {
        bytes.append(contentsOf: GPXWriter.escaped(text, attribute: attribute).utf8)
      }
    }
  }
}
