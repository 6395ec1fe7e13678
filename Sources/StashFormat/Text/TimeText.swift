/// Times as people type and read them: `83`, `1:23`, `1:02:03`, with optional fractions (`1:23.5`).
package enum TimeText {
  /// Seconds for `text`, or nil when it is not a time: `[[h:]m:]s[.fraction]`, minutes and seconds
  /// below 60 once a larger unit is given.
  package static func seconds(_ text: String) -> Double? {
    let fields = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(fields.count) else { return nil }
    var total = 0.0
    for (index, field) in fields.enumerated() {
      let isLast = index == fields.count - 1
      guard !field.isEmpty, field.allSatisfy({ $0.isASCII && ($0.isNumber || ($0 == "." && isLast)) })
      else { return nil }
      guard let value = Double(field), value.isFinite else { return nil }
      if index > 0 && value >= 60 { return nil }
      total = total * 60 + value
    }
    return total
  }

  /// `m:ss` below an hour, `h:mm:ss` from one (always with hours when `hours` is set); fractions are
  /// dropped (rounded down); `--:--` when the time is unknown.
  package static func clock(_ seconds: Double?, hours alwaysHours: Bool = false) -> String {
    guard let seconds, seconds.isFinite else { return "--:--" }
    let whole = max(0, Int(seconds.rounded(.down)))
    let (hours, minutes, secs) = (whole / 3600, whole / 60 % 60, whole % 60)
    func two(_ n: Int) -> String { Text.zeroPadded(n, width: 2) }
    return hours > 0 || alwaysHours ? "\(hours):\(two(minutes)):\(two(secs))" : "\(minutes):\(two(secs))"
  }

  /// `clock` to the millisecond (`0:04.420`), rounded to the nearest: for a cue's times, a stretch
  /// too short for whole seconds, a length.
  package static func preciseClock(_ seconds: Double) -> String {
    let millis = max(0, Int((seconds * 1000).rounded()))
    return clock(Double(millis / 1000)) + "." + Text.zeroPadded(millis % 1000, width: 3)
  }
}
