import StashFormat

/// Typed times and dates as the browser reads and shows them.
extension TimeText {
  /// Parses a typed time: `90`, `1:30`, `1:02:03`, with `+` or `-` for a move from `now`.
  package static func parse(_ text: String, now: Double) -> Double? {
    var t = Text.trimmed(text)
    var sign = 0.0
    if t.hasPrefix("+") {
      sign = 1
      t.removeFirst()
    } else if t.hasPrefix("-") {
      sign = -1
      t.removeFirst()
    }
    guard let total = seconds(t) else { return nil }
    return sign == 0 ? total : max(0, now + sign * total)
  }

  /// A local date and time, `YYYY-MM-DD HH:MM`.
  package static func date(_ secondsSince1970: Double) -> String {
    LocalTime.format(secondsSince1970)
  }
}
