/// Small text operations the folder and title readers share, without Foundation.
enum Text {
  /// `text` without the whitespace and newlines at either end (Unicode's White_Space property).
  static func trimmed<S: StringProtocol>(_ text: S) -> String {
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
    let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
    var out = String.UnicodeScalarView()
    out.append(contentsOf: scalars[first...last])
    return String(out)
  }

  /// Whether a scalar ends a line: LF, CR, and the Unicode line and paragraph separators.
  static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }
}
