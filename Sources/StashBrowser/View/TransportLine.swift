import StashFormat

/// The bottom line: state, elapsed, a scrubber that fits the width (with the A-B loop marked on
/// it), remaining (or counting up), the real time left when the speed is not 1×, the settings that
/// are not the default (speed, volume or mute, loop, continue), and the memo playing. Every time is
/// memo time but the real time left.
package enum TransportLine {
  /// What the line shows beside the player's own snapshot.
  package struct Extras: Equatable, Sendable {
    /// The A of a loop being set, before its B.
    package var loopStart: Double?
    /// Whether the next memo plays at the end.
    package var continuing: Bool
    /// Where each cue of the memo playing starts, in seconds (marked on the scrubber).
    package var cueStarts: [Double]
    /// Where each hit of the search of what was said starts in the memo playing, in seconds.
    package var hits: [Double]
    /// Where each bookmark of the memo shown is, in seconds.
    package var bookmarks: [Double] = []
    /// Whether the snapshot is the memo opened while nothing plays (`BrowserModel.preview`): its
    /// scrubber and waveform show, stopped at its start.
    package var preview: Bool

    /// A value with every field given.
    package init(
      loopStart: Double? = nil, continuing: Bool = false, cueStarts: [Double] = [], hits: [Double] = [],
      preview: Bool = false
    ) {
      self.loopStart = loopStart
      self.continuing = continuing
      self.cueStarts = cueStarts
      self.hits = hits
      self.preview = preview
    }
  }

  /// What the line says beside the opened memo's scrubber while nothing plays.
  package static let previewHint = "Stopped: Space plays."

  /// The fewest cells of the name kept beside everything else.
  static let nameMinimum = 10

  /// How the line is laid out for a width: what it shows, where the scrubber goes.
  struct Plan {
    var scrubber: Range<Int>?
    var remaining: Bool
    var real: String
    var flags: String
  }

  /// The line for `snapshot` in `width` cells; `name` is the memo's display name.
  package static func make(
    width: Int, snapshot: PlayerSnapshot, name: String?, extras: Extras = Extras()
  ) -> StyledLine {
    var line = StyledLine()
    let symbol: String
    switch snapshot.state {
    case .playing: symbol = "▶"
    case .paused: symbol = "‖"
    case .loading: symbol = "…"
    case .stopped, .ended: symbol = "■"
    case .failed: symbol = "✕"
    }
    line.append(" \(symbol) ", .bar)
    if case .failed(let reason) = snapshot.state {
      line.append(TextWrap.truncate("Cannot play: \(reason)", width: max(0, width - 4)), .error)
      return line
    }
    guard snapshot.base != nil, snapshot.isActive || extras.preview else {
      let flags = flagText(snapshot, extras, short: false)
      let fits = flags.isEmpty || 3 + CharacterWidth.of(flags) + 20 <= width
      let shown = fits ? flags : flagText(snapshot, extras, short: true)
      let hint = "Stopped. Space plays the open memo; Enter on a cue plays from it."
      line.append(
        shown.isEmpty ? hint : TextWrap.truncate(hint, width: max(0, width - 3 - CharacterWidth.of(shown))),
        .dim)
      line.append(shown, .normal)
      return line
    }
    let elapsed = TimeText.clock(snapshot.position)
    line.append(elapsed + " ", .normal)
    // The memo opened while nothing plays: where its name would be, what starts it.
    let name = extras.preview ? previewHint : name
    let plan = plan(width: width, snapshot: snapshot, name: name, extras: extras)
    if let bar = plan.scrubber, let duration = snapshot.scaleDuration {
      drawScrubber(
        &line, scale: ScrubberScale(cells: bar.count, duration: duration), snapshot: snapshot, extras: extras)
    } else if snapshot.scaleDuration == nil {
      // Length unknown: the clock counts up and the scrubber has no end to show.
      line.append("counting up; length unknown", .dim)
    }
    if plan.remaining, let duration = snapshot.scaleDuration {
      line.append(
        (plan.scrubber == nil ? "" : " ") + "-" + about(snapshot)
          + TimeText.clock(max(0, duration - snapshot.position)),
        .normal)
    }
    line.append(plan.real, .dim)
    line.append(plan.flags, .normal)
    if let name {
      let room = width - line.width - 2
      if room >= 6 || (room > 0 && room >= CharacterWidth.of(name)) {
        line.append("  ", .dim)
        line.startIsolatedField()
        line.append(TextWrap.truncate(name, width: room), .dim)
      }
    }
    return line
  }

  /// The played part, the head, the rest, and the marks: the loop's ends as `[` and `]`, a
  /// bookmark as `▼`, a hit of the search of what was said as `◆` (in the match style), and each
  /// cue's start as a tick up toward the strip (`┻` played, `┴` to come). Marks go here, beneath
  /// the waveform strip, so they never hide a level; where two fall in one cell the head wins,
  /// then the loop, a bookmark, a hit, a cue. Cue ticks are left out when there are more cues than half the cells: they would fill
  /// the line and mark nothing.
  private static func drawScrubber(
    _ line: inout StyledLine, scale: ScrubberScale, snapshot: PlayerSnapshot, extras: Extras
  ) {
    let cells = scale.cells
    let done = scale.cell(at: snapshot.position)
    let a = snapshot.loop.map { scale.cell(at: $0.start) } ?? extras.loopStart.map(scale.cell(at:))
    let b = snapshot.loop.map { scale.cell(at: $0.end) }
    let hits = Set(extras.hits.map(scale.cell(at:)))
    let bookmarks = Set(extras.bookmarks.map(scale.cell(at:)))
    let cues = extras.cueStarts.count * 2 <= cells ? Set(extras.cueStarts.map(scale.cell(at:))) : []
    var run = ""
    var runStyle = Style.scrubberDone
    func put(_ text: String, _ style: Style) {
      if style != runStyle {
        line.append(run, runStyle)
        run = ""
        runStyle = style
      }
      run += text
    }
    for i in 0..<cells {
      if i == done {
        put("●", .scrubberDone)
      } else if i == a {
        put("[", .warning)
      } else if i == b {
        put("]", .warning)
      } else if bookmarks.contains(i) {
        put(DetailLayout.bookmarkSign, .bookmark)
      } else if hits.contains(i) {
        put("◆", .match)
      } else if cues.contains(i) {
        put(i < done ? "┻" : "┴", i < done ? .scrubberDone : .dim)
      } else if i < done {
        put("━", .scrubberDone)
      } else {
        put("─", .dim)
      }
    }
    line.append(run, runStyle)
  }

  /// The settings that are not the default, as the line shows them: `1.5× · vol 80 % · loop
  /// 0:12–0:18 · continue`, or shorter (`1.5× 80% loop C`) where room is short. Empty when every
  /// one is the default.
  package static func flagText(_ snapshot: PlayerSnapshot, _ extras: Extras, short: Bool) -> String {
    var flags: [String] = []
    if abs(snapshot.speed - 1) > 0.001 { flags.append(BrowserModel.speedText(snapshot.speed)) }
    if snapshot.muted {
      flags.append(short ? "mute" : "muted")
    } else if snapshot.volume != 100 {
      flags.append(short ? "\(snapshot.volume)%" : "vol \(snapshot.volume) %")
    }
    switch (snapshot.voiceBoost, snapshot.enhance) {
    case (true, true): flags.append(short ? "VB+E" : "voice boost + enhance")
    case (true, false): flags.append(short ? "VB" : "voice boost")
    case (false, true): flags.append(short ? "E" : "enhance")
    case (false, false): break
    }
    if let level = snapshot.skipSilence {
      let saved = TimeText.clock(snapshot.silenceSkipped)
      flags.append(short ? "skip \(saved)" : "skip silence \(level.rawValue), \(saved) saved")
    }
    if let loop = snapshot.loop, snapshot.isActive {
      flags.append(short ? "loop" : "loop \(TimeText.clock(loop.start))–\(TimeText.clock(loop.end))")
    } else if let a = extras.loopStart, snapshot.isActive {
      flags.append(short ? "A…" : "loop from \(TimeText.clock(a))…")
    }
    if extras.continuing { flags.append(short ? "C" : "continue") }
    guard !flags.isEmpty else { return "" }
    return "  " + flags.joined(separator: short ? " " : " · ")
  }

  /// `≈` before a time left when the length is a count of the file's access units, not one the
  /// file states (`PlayerSnapshot.countedDuration`); nothing otherwise.
  static func about(_ snapshot: PlayerSnapshot) -> String {
    snapshot.duration == nil && snapshot.countedDuration != nil ? "≈" : ""
  }

  /// The layout for `width`: the first of these that leaves the name `nameMinimum` cells: every
  /// flag in full with the real time left in full and a scrubber of 10 cells; then short flags;
  /// a short real time; a scrubber of 5; no real time; no scrubber; no remaining time.
  static func plan(width: Int, snapshot: PlayerSnapshot, name: String?, extras: Extras) -> Plan {
    let start = 3 + TimeText.clock(snapshot.position).count + 1
    // Reserved from the length, not what is left, so the scrubber keeps its size as time passes.
    let remaining = 2 + about(snapshot).count + TimeText.clock(snapshot.scaleDuration).count
    let slow = abs(snapshot.speed - 1) > 0.001
    let realLeft = snapshot.scaleDuration.map {
      about(snapshot) + TimeText.clock(max(0, $0 - snapshot.position) / snapshot.speed)
    }
    let realFull = slow ? realLeft.map { " (\($0) real)" } ?? "" : ""
    let realShort = slow ? realLeft.map { " (\($0))" } ?? "" : ""
    let flagsFull = flagText(snapshot, extras, short: false)
    let flagsShort = flagText(snapshot, extras, short: true)
    let nameCells = name.map { CharacterWidth.of($0) + 2 } ?? 0
    let nameFloor = min(nameCells, nameMinimum + 2)
    let choices: [(bar: Int, real: String, flags: String, remaining: Bool)] = [
      (10, realFull, flagsFull, true), (10, realFull, flagsShort, true), (10, realShort, flagsShort, true),
      (5, realShort, flagsShort, true), (5, "", flagsShort, true), (0, "", flagsShort, true),
      (0, "", flagsShort, false),
    ]
    let known = snapshot.scaleDuration != nil
    for choice in choices {
      let fixed =
        start + (choice.remaining && known ? remaining : 0) + CharacterWidth.of(choice.real)
        + CharacterWidth.of(choice.flags)
      if choice.bar == 0 || !known {
        // No scrubber; with the length unknown, the words that say so take its place.
        let filler = known ? 0 : 27
        if fixed + filler + nameFloor <= width || choice.remaining == false {
          return Plan(
            scrubber: nil, remaining: choice.remaining && known, real: choice.real, flags: choice.flags)
        }
        continue
      }
      let bar = max(choice.bar, (width - fixed) / 3)
      let nameRoom = max(nameFloor, max(min(24, max(0, width / 5)), min(nameCells, width - fixed - bar)))
      let length = width - fixed - nameRoom
      if length >= choice.bar || (choice.bar == 5 && length >= 5) {
        return Plan(
          scrubber: start..<(start + length), remaining: true, real: choice.real, flags: choice.flags)
      }
    }
    return Plan(scrubber: nil, remaining: false, real: "", flags: flagsShort)
  }

  /// The columns the scrubber takes, or nil when the length is unknown, nothing plays, or there is
  /// no room. `name` (the memo's) gets the room it needs beside it, as far as the scrubber keeps a
  /// third of the line: a wide terminal shows a long title whole.
  package static func scrubberRange(
    width: Int, snapshot: PlayerSnapshot, name: String? = nil, extras: Extras = Extras()
  ) -> Range<Int>? {
    guard snapshot.scaleDuration != nil, snapshot.base != nil, snapshot.isActive || extras.preview else {
      return nil
    }
    return plan(width: width, snapshot: snapshot, name: extras.preview ? previewHint : name, extras: extras)
      .scrubber
  }
}
