/// Small text operations our modules share, without Foundation.
package enum Text {
  /// `count` and `noun`, the noun in the plural (`plural`, else the noun with an s) unless the
  /// count is one: `1 file`, `2 files`, `0 files`. The one way every module counts in words.
  package static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
  }

  /// `digits` with zeros in front to make `width` characters (as they are when already as wide):
  /// the one zero-pad of times, dates, counters and hexadecimal names.
  package static func zeroPadded(_ digits: String, width: Int) -> String {
    let count = digits.utf8.count
    return count >= width ? digits : String(repeating: "0", count: width - count) + digits
  }

  /// `value` in decimal, zero-padded to `width` digits (a negative value keeps its sign first).
  package static func zeroPadded(_ value: Int, width: Int) -> String {
    var bytes: [UInt8] = []
    appendZeroPadded(value, width: width, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends `value` in decimal, zero-padded to `width` digits (a negative value keeps its sign
  /// first), to `out` with no String made: the one zero-pad of numbers, for writers that build
  /// their bytes (dates, cue times, part names) and for `zeroPadded`.
  package static func appendZeroPadded(_ value: Int, width: Int, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    let magnitude = value.magnitude
    var digits = 1
    var power: UInt = 1
    while magnitude / power >= 10 {
      power *= 10
      digits += 1
    }
    let zero = UInt8(ascii: "0")
    for _ in digits..<max(digits, width) { out.append(zero) }
    var rest = magnitude
    while power > 0 {
      out.append(zero + UInt8(rest / power))
      rest %= power
      power /= 10
    }
  }

  /// `text` without the whitespace and newlines at either end (Unicode's White_Space property):
  /// the one trim every module uses (titles, the lint configuration, the browser's prompts).
  package static func trimmed<S: StringProtocol>(_ text: S) -> String {
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
    let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
    // Scalar indices are valid string indices: one slice, no scalar-by-scalar copy.
    return String(text[first...last])
  }

  /// `text` with every run of white space (line breaks included) made one space; already trimmed
  /// text stays trimmed.
  package static func collapsingWhiteSpace(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    var inRun = false
    var changed = false
    for scalar in text.unicodeScalars {
      if scalar.properties.isWhitespace {
        if !inRun { out.append(" ") }
        changed = changed || inRun || scalar != " "
        inRun = true
      } else {
        out.append(scalar)
        inRun = false
      }
    }
    return changed ? String(out) : text
  }

  /// Whether a scalar ends a line: LF, CR, and the Unicode line and paragraph separators.
  package static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }
}
