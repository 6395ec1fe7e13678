/// What a key does.
package enum Action: Equatable, Sendable {
  case moveUp, moveDown, pageUp, pageDown, first, last
  case open, back, switchPane
  case playPause, seekBackward, seekForward, seekBackwardMinute, seekForwardMinute
  case previousCue, nextCue, goToTime, follow
  case slower, faster, normalSpeed, volumeDown, volumeUp, mute, voiceBoost, skipSilence
  case abLoop, loopCue, fromStart, continuing, nextMemo, previousMemo
  case rename, delete, recover, importMemos, filter, searchSpoken, nextMatch, previousMatch
  case refresh, help, quit
  case addBookmark, nextBookmark, previousBookmark, editBookmark, deleteBookmark, saveClip
}

/// Every key binding with its help text: the one table that binds keys, draws the help screen and
/// is printed by `--help`, so they cannot disagree.
package enum KeyTable {
  /// One binding.
  package struct Binding: Sendable {
    package var keys: [Key]
    package var action: Action
    package var help: String
  }

  /// The groups the help screen shows, in order.
  package static let groups: [(title: String, bindings: [Binding])] = [
    (
      "Moving",
      [
        Binding(keys: [.up, .char("k")], action: .moveUp, help: "previous memo or cue"),
        Binding(keys: [.down, .char("j")], action: .moveDown, help: "next memo or cue"),
        Binding(keys: [.pageUp], action: .pageUp, help: "a page up"),
        Binding(keys: [.pageDown], action: .pageDown, help: "a page down"),
        Binding(keys: [.home], action: .first, help: "first memo or cue"),
        Binding(keys: [.end], action: .last, help: "last memo or cue"),
        Binding(keys: [.enter], action: .open, help: "open the memo; on a cue, play from its first word"),
        Binding(keys: [.tab, .backTab], action: .switchPane, help: "switch between list and transcript"),
        Binding(keys: [.escape, .backspace], action: .back, help: "back to the list; cancel"),
      ]
    ),
    (
      "Playing",
      [
        Binding(keys: [.char(" ")], action: .playPause, help: "play or pause the open memo"),
        Binding(keys: [.left], action: .seekBackward, help: "back 5 seconds"),
        Binding(keys: [.right], action: .seekForward, help: "forward 5 seconds"),
        Binding(keys: [.char("[")], action: .seekBackwardMinute, help: "back 1 minute"),
        Binding(keys: [.char("]")], action: .seekForwardMinute, help: "forward 1 minute"),
        Binding(keys: [.ctrlLeft, .char(",")], action: .previousCue, help: "previous cue"),
        Binding(keys: [.ctrlRight, .char(".")], action: .nextCue, help: "next cue"),
        Binding(
          keys: [.char("g")], action: .goToTime, help: "go to a typed time (1:30, 90, +30, -10)"),
        Binding(keys: [.char("f")], action: .follow, help: "follow the spoken cue again"),
        Binding(
          keys: [.char("B")], action: .fromStart,
          help: "play from the beginning (a memo continues where it was left off)"),
        Binding(keys: [.char(">")], action: .nextMemo, help: "play the next memo in the list"),
        Binding(keys: [.char("<")], action: .previousMemo, help: "play the previous memo in the list"),
      ]
    ),
    (
      "Bookmarks and clips",
      [
        Binding(keys: [.char("b")], action: .addBookmark, help: "bookmark here, then type a note"),
        // mpv's keys for the next and previous chapter: a bookmarks file is WebVTT chapters.
        Binding(keys: [.char("@")], action: .nextBookmark, help: "play from the next bookmark"),
        Binding(keys: [.char("!")], action: .previousBookmark, help: "play from the previous bookmark"),
        Binding(keys: [.char("e")], action: .editBookmark, help: "edit the note of the bookmark here"),
        Binding(keys: [.char("x")], action: .deleteBookmark, help: "remove the bookmark here (asks)"),
        Binding(
          keys: [.char("c")], action: .saveClip, help: "save the loop or bookmark as a clip"),
      ]
    ),
    (
      "Memos",
      [
        Binding(keys: [.char("r")], action: .rename, help: "rename (an empty name removes the title)"),
        Binding(keys: [.char("d"), .delete], action: .delete, help: "delete, after naming every file"),
        Binding(
          keys: [.char("R")], action: .recover,
          help: "recover killed recordings: plan, ask, report, accept a loss"),
        Binding(
          keys: [.char("I")], action: .importMemos, help: "import from --import-from DIR: plan, ask, report"),
        Binding(keys: [.char("/")], action: .filter, help: "filter by title, day or transcript"),
        // A key of its own, not `/`: the filter keeps narrowing the list by name, date and text,
        // while this one lists every place the words were said and plays from there.
        Binding(
          keys: [.char("S")], action: .searchSpoken,
          help: "search what was said, all memos (/ only filters the list)"),
        Binding(
          keys: [.char("n")], action: .nextMatch,
          help: "next hit of S across memos; else next match in transcript"),
        Binding(keys: [.char("N")], action: .previousMatch, help: "previous hit (or match), as n"),
        Binding(
          keys: [.ctrl("l"), .function(5)], action: .refresh, help: "read the folder again and redraw"),
        Binding(keys: [.char("?"), .function(1)], action: .help, help: "this help"),
        Binding(keys: [.char("q"), .ctrl("c")], action: .quit, help: "quit (stops playback)"),
      ]
    ),
    (
      "Listening",
      [
        Binding(
          keys: [.char("C")], action: .continuing, help: "continue into the next memo at the end: on/off"),
        Binding(
          keys: [.char("}")], action: .faster, help: "faster, in steps: 1.25×, 1.5× … 3×, the pitch kept"),
        Binding(keys: [.char("{")], action: .slower, help: "slower, in steps down to 0.5×"),
        Binding(keys: [.char("\\")], action: .normalSpeed, help: "speed back to 1×"),
        Binding(
          keys: [.char("+"), .char("="), .char("0")], action: .volumeUp, help: "louder by 5 % (up to 150 %)"),
        Binding(keys: [.char("-"), .char("9")], action: .volumeDown, help: "quieter by 5 %"),
        Binding(keys: [.char("m")], action: .mute, help: "mute or unmute"),
        Binding(
          keys: [.char("v")], action: .voiceBoost,
          help: "voice boost, for quiet speech: on, + enhance (noise down), off"),
        Binding(
          keys: [.char("s")], action: .skipSilence, help: "skip silence: mild, medium, strong, off in turn"),
        Binding(keys: [.char("l")], action: .abLoop, help: "A-B loop: set A, then B, then clear"),
        Binding(
          keys: [.char("L")], action: .loopCue,
          help: "repeat the cue (the spoken one, or the one under the cursor)"),
      ]
    ),
  ]

  /// The action bound to `key`, if any.
  package static func action(for key: Key) -> Action? {
    lookup[key]
  }

  private static let lookup: [Key: Action] = {
    var map: [Key: Action] = [:]
    for group in groups {
      for binding in group.bindings {
        for key in binding.keys {
          precondition(map[key] == nil, "key bound twice: \(key.label)")
          map[key] = binding.action
        }
      }
    }
    return map
  }()

  /// The column where a binding's help text starts: two spaces and the keys, padded.
  package static let helpTextColumn = 20

  /// The help text, one line per binding, as the `?` screen and `--help` print it.
  package static func helpLines() -> [StyledLine] {
    helpEntries().map(\.line)
  }

  /// The help lines, each with the indent its continuation lines take when the `?` screen wraps
  /// it: a binding's description wraps under itself, not under its keys.
  package static func helpEntries() -> [(line: StyledLine, indent: Int)] {
    var lines: [(line: StyledLine, indent: Int)] = []
    for (index, group) in helpGroups().enumerated() {
      if index > 0 { lines.append((StyledLine(), 2)) }
      lines += group
    }
    return lines + [(StyledLine(), 2)] + legendEntries()
  }

  /// Each group of `groups` as help lines: its title, then a line per binding (with the indent
  /// its continuation lines take), so a wide help screen can set the groups side by side. The
  /// descriptions start at `textColumn`.
  package static func helpGroups(textColumn: Int = helpTextColumn) -> [[(line: StyledLine, indent: Int)]] {
    groups.map { group in
      var lines: [(line: StyledLine, indent: Int)] = [(StyledLine(group.title, .heading), 2)]
      for binding in group.bindings {
        var line = StyledLine()
        line.append("  " + TextWrap.pad(keyLabel(binding), width: textColumn - 2))
        line.append(binding.help)
        lines.append((line, textColumn))
      }
      return lines
    }
  }

  /// A binding's keys as the help shows them: `Ctrl-L F5`.
  package static func keyLabel(_ binding: Binding) -> String {
    binding.keys.map(\.label).joined(separator: " ")
  }

  /// The narrowest column the descriptions can start at: the widest keys and two blanks.
  package static let narrowTextColumn: Int = {
    let widest = groups.flatMap(\.bindings).map { CharacterWidth.of(keyLabel($0)) }.max() ?? 0
    return 2 + widest + 2
  }()

  /// What the marks of the list and the transcript mean, and the mouse, below the keys.
  package static func legendEntries() -> [(line: StyledLine, indent: Int)] {
    [
      (StyledLine("List marks", .heading), 2),
      (StyledLine("  T transcript  R route  ! problem  * parts to recover  ◐ partly heard"), 2),
      (StyledLine("Transcript and waveform marks", .heading), 2),
      (StyledLine("  ▶ being spoken  ▼ bookmark  ‹ › words the speech engine never confirmed;"), 2),
      (StyledLine("  waveform: ▁ to █ -70 to 0 dBFS  · not known  ┴ cue  ◆ search hit  [ ] loop"), 2),
      (StyledLine("Mouse", .heading), 2),
      (
        StyledLine(
          "  click a memo, a word or the scrubber/waveform (plays or seeks there); wheel scrolls"
        ), 2
      ),
    ]
  }
}
