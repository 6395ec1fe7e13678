/// Decimal numbers as XML Schema writes them (`xsd:decimal`, and `xsd:double` without INF/NaN),
/// parsed straight from bytes and printed without exponents.
enum DecimalText {
  /// Exact powers of ten a Double holds, for the exact fast path.
  private static let powers: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// The number in `bytes` (surrounding XML whitespace allowed), or nil when it is not one.
  /// Correctly rounded: the common case (at most 15 or so significant digits) is one exact
  /// multiplication or division (Clinger's fast path); the rest goes to the standard library.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var start = 0
    var end = bytes.count
    while start < end, isSpace(bytes[start]) { start += 1 }
    while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    guard start < end, let base = bytes.baseAddress else { return nil }
    // What GPX holds (`-47.3119789`, `12.5`): read in one tight pass, or left to the general
    // reader below when it is anything else, which then also says whether it is a number at all.
    if let value = plainDecimal(base, from: start, to: end) { return value }
    return general(UnsafeBufferPointer(rebasing: bytes[start..<end]))
  }

  /// A plain decimal (a sign, then at most 19 digits in all with at most one point, at most 22
  /// after it, the digits at most 2^53 as an integer) as exactly the Double `general` gives; nil
  /// for anything else, number or not. Those digits fit a UInt64 without overflow, and the value
  /// is then one exact division, which is what `general` computes for them too.
  @inline(__always)
  private static func plainDecimal(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double? {
    var i = start
    let negative = base[i] == UInt8(ascii: "-")
    if negative || base[i] == UInt8(ascii: "+") { i += 1 }
    var mantissa: UInt64 = 0
    // Adds the digits from `i` on to the mantissa; how many there were.
    @inline(__always) func readDigits() -> Int {
      let first = i
      while i < end {
        let digit = base[i] &- 48
        if digit >= 10 { break }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        i += 1
      }
      return i - first
    }
    var digits = readDigits()
    var fraction = 0
    if i < end, base[i] == UInt8(ascii: ".") {
      i += 1
      fraction = readDigits()
      digits += fraction
    }
    guard i == end, digits > 0, digits <= 19, fraction <= 22, mantissa <= 1 << 53 else { return nil }
    if mantissa == 0 { return negative ? -0.0 : 0.0 }
    var value = Double(mantissa)
    if fraction > 0 { value /= powers[fraction] }
    return negative ? -value : value
  }

  /// The number in `bytes` (already trimmed, not empty), or nil when it is not one: any decimal
  /// with an exponent or many digits. Slower than `plainDecimal`, and the reference it is tested
  /// against.
  static func general(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    let start = 0
    let end = bytes.count
    guard start < end else { return nil }
    var i = start
    var negative = false
    if bytes[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    } else if bytes[i] == UInt8(ascii: "+") {
      i += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var exponent = 0
    var sawDigit = false
    var inexact = false
    while i < end, bytes[i] &- 48 < 10 {
      let digit = UInt64(bytes[i] &- 48)
      sawDigit = true
      if mantissa == 0 && digit == 0 {
      } else if digits < 19 {
        mantissa = mantissa &* 10 &+ digit
        digits += 1
      } else {
        exponent += 1
        inexact = true
      }
      i += 1
    }
    if i < end, bytes[i] == UInt8(ascii: ".") {
      i += 1
      while i < end, bytes[i] &- 48 < 10 {
        let digit = UInt64(bytes[i] &- 48)
        sawDigit = true
        if mantissa == 0 && digit == 0 {
          exponent -= 1
        } else if digits < 19 {
          mantissa = mantissa &* 10 &+ digit
          digits += 1
          exponent -= 1
        } else {
          inexact = true
        }
        i += 1
      }
    }
    guard sawDigit else { return nil }
    if i < end, bytes[i] | 0x20 == UInt8(ascii: "e") {
      i += 1
      var exponentNegative = false
      if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
        exponentNegative = bytes[i] == UInt8(ascii: "-")
        i += 1
      }
      guard i < end, bytes[i] &- 48 < 10 else { return nil }
      var written = 0
      while i < end, bytes[i] &- 48 < 10 {
        if written < 100_000 { written = written * 10 + Int(bytes[i] &- 48) }
        i += 1
      }
      exponent += exponentNegative ? -written : written
    }
    guard i == end else { return nil }
    if mantissa == 0 { return negative ? -0.0 : 0.0 }
    if !inexact, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
      var value = Double(mantissa)
      value = exponent < 0 ? value / powers[-exponent] : value * powers[exponent]
      return negative ? -value : value
    }
    // Rare (more than 15 significant digits, or a far exponent): the grammar is already checked,
    // so the standard library's correctly rounded conversion sees only plain decimals.
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else { return nil }
    return value
  }

  /// `text`'s number, for callers holding a String.
  static func parse(_ text: String) -> Double? {
    var copy = text
    return copy.withUTF8 { parse($0) }
  }

  /// The shortest text that reads back as exactly `value`, written without an exponent as
  /// `xsd:decimal` requires (`1e-05` becomes `0.00001`). Not for NaN or infinity.
  static func format(_ value: Double) -> String {
    let text = value.description
    guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
      return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
    let exponent = Int(text[text.index(after: e)...])!
    var mantissa = String(text[..<e])
    let negative = mantissa.hasPrefix("-")
    if negative { mantissa.removeFirst() }
    // Mantissa is d or d.ddd: collect the digits and where the point sits after them.
    var digits = mantissa.filter { $0 != "." }
    let pointAfter =
      (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) }
        ?? mantissa.count) + exponent
    var out: String
    if pointAfter <= 0 {
      out = "0." + String(repeating: "0", count: -pointAfter) + digits
    } else if pointAfter >= digits.count {
      digits += String(repeating: "0", count: pointAfter - digits.count)
      out = digits
    } else {
      let split = digits.index(digits.startIndex, offsetBy: pointAfter)
      out = digits[..<split] + "." + digits[split...]
    }
    while out.contains("."), out.hasSuffix("0") { out.removeLast() }
    if out.hasSuffix(".") { out.removeLast() }
    return negative ? "-" + out : out
  }

  @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
  }
}
