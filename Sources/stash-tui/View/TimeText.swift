/// Times as people read them.
enum TimeText {
  /// `m:ss`, or `h:mm:ss` from an hour on; `--:--` for nil.
  static func clock(_ seconds: Double?) -> String {
    guard let seconds, seconds.isFinite else { return "--:--" }
    let total = Int(max(0, seconds).rounded(.down))
    let h = total / 3600
    let m = (total / 60) % 60
    let s = total % 60
    let ss = s < 10 ? "0\(s)" : "\(s)"
    if h > 0 { return "\(h):" + (m < 10 ? "0\(m)" : "\(m)") + ":" + ss }
    return "\(m):" + ss
  }

  /// Parses a typed time: `90`, `1:30`, `1:02:03`, with `+` or `-` for a move from `now`.
  static func parse(_ text: String, now: Double) -> Double? {
    var t = text.trimmingSpaces
    var sign = 0.0
    if t.hasPrefix("+") {
      sign = 1
      t.removeFirst()
    } else if t.hasPrefix("-") {
      sign = -1
      t.removeFirst()
    }
    let parts = t.split(separator: ":", omittingEmptySubsequences: false)
    guard !parts.isEmpty, parts.count <= 3 else { return nil }
    var total = 0.0
    for (i, part) in parts.enumerated() {
      guard let v = Double(part), v >= 0 else { return nil }
      if i > 0 && v >= 60 { return nil }
      total = total * 60 + v
    }
    return sign == 0 ? total : max(0, now + sign * total)
  }

  /// A local date and time, `YYYY-MM-DD HH:MM`.
  static func date(_ secondsSince1970: Double) -> String {
    LocalTime.format(secondsSince1970)
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  var trimmingSpaces: String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return String(s)
  }
}
