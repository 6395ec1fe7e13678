import StashFormat

/// The bottom line: state, elapsed, a scrubber that fits the width, remaining (or counting up),
/// and the memo playing.
package enum TransportLine {
  /// The line for `snapshot` in `width` cells; `name` is the memo's display name.
  package static func make(width: Int, snapshot: PlayerSnapshot, name: String?) -> StyledLine {
    var line = StyledLine()
    let symbol: String
    switch snapshot.state {
    case .playing: symbol = "▶"
    case .paused: symbol = "‖"
    case .loading: symbol = "…"
    case .stopped: symbol = "■"
    case .failed: symbol = "✕"
    }
    line.append(" \(symbol) ", .bar)
    if case .failed(let reason) = snapshot.state {
      line.append(TextWrap.truncate("Cannot play: \(reason)", width: max(0, width - 4)), .error)
      return line
    }
    guard snapshot.base != nil, snapshot.state != .stopped else {
      line.append("Stopped. Space plays the open memo; Enter on a cue plays from it.", .dim)
      return line
    }
    let elapsed = TimeText.clock(snapshot.position)
    line.append(elapsed + " ", .normal)
    if let bar = scrubberRange(width: width, snapshot: snapshot, name: name), let duration = snapshot.duration
    {
      let fraction = duration > 0 ? min(1, snapshot.position / duration) : 0
      let done = Int((Double(bar.count - 1) * fraction).rounded())
      line.append(String(repeating: "━", count: done), .scrubberDone)
      line.append("●", .scrubberDone)
      line.append(String(repeating: "─", count: bar.count - 1 - done), .dim)
      line.append(" -" + TimeText.clock(max(0, duration - snapshot.position)), .normal)
    } else {
      // Length unknown: the clock counts up and the scrubber has no end to show.
      line.append("counting up; length unknown", .dim)
    }
    if let name {
      let room = width - line.width - 2
      if room >= 6 {
        line.append("  ", .dim)
        line.startIsolatedField()
        line.append(TextWrap.truncate(name, width: room), .dim)
      }
    }
    return line
  }

  /// The columns the scrubber takes, or nil when the length is unknown or nothing plays. `name`
  /// (the memo's) gets the room it needs beside it, as far as the scrubber keeps a third of the
  /// line: a wide terminal shows a long title whole.
  package static func scrubberRange(width: Int, snapshot: PlayerSnapshot, name: String? = nil) -> Range<Int>?
  {
    guard snapshot.duration != nil, snapshot.base != nil, snapshot.state != .stopped else { return nil }
    let start = 3 + TimeText.clock(snapshot.position).count + 1
    // Room for the remaining time, then for the name.
    let fixed = start + 2 + TimeText.clock(snapshot.duration).count
    let bar = max(10, (width - fixed) / 3)
    let nameCells = name.map { CharacterWidth.of($0) + 2 } ?? 0
    let nameRoom = max(min(24, max(0, width / 5)), min(nameCells, width - fixed - bar))
    let length = width - fixed - nameRoom
    guard length >= 5 else { return nil }
    return start..<(start + length)
  }
}
