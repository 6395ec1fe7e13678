import StashFormat

/// Draws a model into a grid. Pure: the same model always gives the same grid.
package enum BrowserView {
  /// The whole screen for `model`.
  package static func render(_ model: BrowserModel) -> CellGrid {
    var grid = CellGrid(width: model.width, height: model.height)
    let layout = model.layout
    if layout.tooSmall {
      let lines = [
        "Terminal too small",
        "\(model.width)x\(model.height); needs \(Layout.minimumWidth)x\(Layout.minimumHeight)",
        "q quits",
      ]
      for (i, text) in lines.enumerated() where i < model.height {
        grid.put(TextWrap.truncate(text, width: model.width), x: 0, y: i, style: i == 0 ? .warning : .normal)
      }
      return grid
    }
    drawHeader(model, layout.header, &grid)
    if let rect = layout.list { drawList(model, rect, &grid) }
    if let x = layout.divider {
      for y in layout.header.y + 1..<layout.status.y { grid.put("│", x: x, y: y, style: .dim) }
    }
    if let rect = layout.detail { drawDetail(model, rect, &grid) }
    drawStatus(model, layout.status, &grid)
    grid.fill(layout.transport, style: .bar)
    let shown = model.shownTransport
    grid.put(
      TransportLine.make(
        width: model.width, snapshot: shown, name: model.shownRow?.displayName, extras: model.transportExtras),
      x: 0, y: layout.transport.y)
    if let strip = layout.strip, let duration = shown.scaleDuration {
      grid.put(
        WaveformStrip.make(
          model.loudness, scale: ScrubberScale(cells: strip.width, duration: duration),
          position: shown.position),
        x: strip.x, y: strip.y, limit: strip.width)
    }
    if let overlay = model.overlay { OverlayView.draw(overlay, top: model.overlayTop, in: &grid) }
    return grid
  }

  private static func drawHeader(_ model: BrowserModel, _ rect: Rect, _ grid: inout CellGrid) {
    grid.fill(rect, style: .bar)
    var line = StyledLine(" stash ", .bar)
    let total = model.memos.totalSeconds
    let unknown = model.memos.unknownLengths > 0
    var pieces: [(text: String, style: Style)] = [
      (Text.count(model.memos.count, "memo"), .bar), (TimeText.clock(total) + (unknown ? "+" : ""), .bar),
    ]
    // Rows shown from their names alone until their memos are read (RowFill).
    let unread = model.memos.pendingCount
    if unread > 0 { pieces.append(("reading \(unread)…", .bar)) }
    if !model.filter.isEmpty {
      pieces.append(("filter “\(model.filter)”: \(model.visible.count) shown", .bar))
    }
    // As `stash ls` says them under its list (here with the key that recovers).
    let recovery = model.memos.needingRecovery
    if recovery > 0 { pieces.append(("\(recovery) need\(recovery == 1 ? "s" : "") recovery (R)", .bar)) }
    if model.otherFiles > 0 {
      pieces.append((Text.count(model.otherFiles, "other file") + " (stash lint)", .bar))
    }
    if let error = model.listError { pieces.append((error, .error)) }
    if let source = model.importSource {
      pieces.append(("I imports from " + PathTextShort.make(source, home: model.home), .bar))
    }
    // Whole pieces only: what does not fit is left out behind an ellipsis, never cut mid-word.
    let width = rect.width - 1
    for (index, piece) in pieces.enumerated() {
      let text = (index == 0 ? "" : " · ") + piece.text
      let last = index == pieces.count - 1
      guard line.width + CharacterWidth.of(text) + (last ? 0 : 4) <= width else {
        line.append(index == 0 ? "…" : " · …", .bar)
        break
      }
      line.append(text, piece.style)
    }
    let used = grid.put(line, x: 0, y: rect.y)
    let room = rect.width - used - 2
    if room > 8 {
      let path = TextWrap.truncate(PathTextShort.make(model.folderPath, home: model.home), width: room)
      grid.put(path, x: rect.width - CharacterWidth.of(path) - 1, y: rect.y, style: .bar)
    }
  }

  private static func drawList(_ model: BrowserModel, _ rect: Rect, _ grid: inout CellGrid) {
    if model.showsHits, let search = model.spokenSearch {
      drawHits(model, search, rect, &grid)
      return
    }
    if model.visible.isEmpty {
      let text =
        model.listError != nil
        ? "The folder cannot be read."
        : model.filter.isEmpty ? "No memos in this folder." : "No memo matches."
      grid.put(TextWrap.truncate(text, width: rect.width - 2), x: rect.x + 2, y: rect.y, style: .dim)
      return
    }
    // The date column: date and time on a wide pane, the day on a middling one, the month and
    // day on the narrowest (40 columns), so the column never disappears.
    let dateWidth = rect.width >= 60 ? 16 : rect.width >= 44 ? 10 : 5
    for row in 0..<rect.height {
      let index = model.listTop + row
      guard index < model.visible.count else { break }
      let memo = model.memos[model.visible[index]]
      let y = rect.y + row
      let selected = index == model.selection
      let playing = model.player.isActive && model.player.base == memo.base
      var line = StyledLine(selected ? "›" : " ", .normal)
      if playing {
        line.append(model.player.state == .playing ? "▶" : "‖", .spoken)
      } else {
        // Left off partway: it continues where it was (B plays it from the beginning).
        line.append(model.isPartlyHeard(memo) ? "◐" : " ", .dim)
      }
      if dateWidth > 0 {
        let date = TimeText.date(memo.recordedAt)
        // `YYYY-MM-DD HH:MM`: the narrowest column drops the year.
        let shown = dateWidth < 10 ? date.dropFirst(5).prefix(dateWidth) : date.prefix(dateWidth)
        line.append(String(shown) + " ", .dim)
      }
      line.append(
        TextWrap.padLeft(memo.pending ? "…" : TimeText.clock(memo.durationSeconds), width: 7) + " ", .dim)
      line.append(memo.hasTranscript ? "T" : " ", .dim)
      line.append(memo.hasRoute ? "R" : " ", .dim)
      // The marks of MemoMarks, as `stash ls` shows them.
      let problem: Bool
      switch memo.audio {
      case .damaged, .missing: problem = true
      default: problem = memo.hasProblem || !memo.problems.isEmpty
      }
      line.append(problem ? "!" : " ", .error)
      line.append(memo.needsRecovery ? "*" : " ", .warning)
      line.append(" ")
      // The name goes last, so a right-to-left name reorders only within itself.
      let room = rect.width - line.width
      line.startIsolatedField()
      line.append(TextWrap.truncate(memo.displayName, width: room), memo.title == nil ? .dim : .normal)
      grid.put(line, x: rect.x, y: y, limit: rect.width)
      if selected {
        grid.restyle(
          Rect(x: rect.x, y: y, width: rect.width, height: 1),
          style: model.focus == .list ? .selected : .dim)
      }
    }
  }

  private static func drawDetail(_ model: BrowserModel, _ rect: Rect, _ grid: inout CellGrid) {
    guard let row = model.selectedRow else {
      grid.put("Nothing selected.", x: rect.x + 1, y: rect.y, style: .dim)
      return
    }
    let spoken: (cue: Int, word: Int?)? = model.spokenCue.map { cue in
      let words = model.detail?.cues[cue].words ?? []
      var word: Int?
      for (i, w) in words.enumerated() {
        if let s = w.start, s <= model.player.position + 0.0005 { word = i }
      }
      return (cue, word)
    }
    let d = DetailLayout.make(
      row: row, detail: model.detail, rect: rect, spoken: spoken,
      query: model.spokenSearch?.query ?? model.filter)
    for (i, line) in d.header.enumerated() {
      grid.put(line, x: rect.x + 1, y: rect.y + i, limit: rect.width - 1)
    }
    let t = d.transcriptRect
    for row in 0..<t.height {
      let index = model.transcriptTop + row
      guard index < d.lines.count else { break }
      let line = d.lines[index]
      let y = t.y + row
      grid.put(line.text, x: t.x + 1, y: y, limit: t.width - 1)
      if line.cue == model.cueCursor && model.focus == .transcript && line.cue >= 0
        && model.detail?.cues.isEmpty == false
      {
        grid.put("›", x: t.x, y: y, style: .selected)
      }
    }
  }

  private static func drawStatus(_ model: BrowserModel, _ rect: Rect, _ grid: inout CellGrid) {
    var rect = rect
    // Background work shows at the right end, beside whatever the line says.
    if let work = model.workStatus {
      let width = CharacterWidth.of(work)
      if width + 20 <= rect.width {
        grid.put(work, x: rect.x + rect.width - width, y: rect.y, style: .dim)
        rect.width -= width + 1
      }
    }
    if let prompt = model.prompt {
      let label: String
      switch prompt.purpose {
      case .rename: label = "Name (empty removes the title): "
      case .goToTime: label = "Go to (1:30, 90, +30): "
      case .filter: label = "Filter: "
      case .search: label = "Search what was said: "
      case .bookmarkNote(_, let at): label = "Note for the bookmark at \(TimeText.clock(at)): "
      case .clipFolder: label = "Save clips in (asked once): "
      }
      let x = grid.put(label, x: 0, y: rect.y, style: .heading)
      drawPromptText(prompt, x: x, y: rect.y, width: rect.width - x, &grid)
      return
    }
    if let message = model.message {
      grid.put(TextWrap.truncate(message, width: rect.width), x: 0, y: rect.y, limit: rect.width)
      return
    }
    if model.playerHoldsSelection && !model.following && model.player.state == .playing {
      grid.put("Not following the speech: f follows again.", x: 0, y: rect.y, style: .warning)
      return
    }
    let hint =
      model.showsHits
      ? "Enter plays from the hit · ↑/↓ hits · n/N next, previous · S changes the words · Esc closes"
      : model.focus == .list
        ? "Enter opens · space plays · / filters · r renames · d deletes · R recovers · ? keys · q quits"
        : "Enter plays from the cue · Esc back · ←/→ 5 s · [/] 1 min · g go to · f follow · ? keys"
    grid.put(TextWrap.truncate(hint, width: rect.width), x: 0, y: rect.y, style: .dim)
  }
}

extension BrowserView {
  /// A prompt's text in the `width` cells from column `x`, with its cursor shown (the cell under
  /// it reversed: the terminal's own cursor is hidden) and kept in view: a text longer than the
  /// cells is scrolled, `…` standing for what is out of view before. Text recalled whole (`S`
  /// again) shows selected: typing replaces it.
  static func drawPromptText(
    _ prompt: BrowserModel.Prompt, x: Int, y: Int, width: Int, _ grid: inout CellGrid
  ) {
    guard width > 2 else { return }
    let characters = Array(prompt.text)
    let cursor = max(0, min(prompt.cursor, characters.count))
    let widths = characters.map { CharacterWidth.of($0) }
    func cells(_ range: Range<Int>) -> Int { widths[range].reduce(0, +) }
    // The first character shown: the text's start, unless the cursor would then be out of view.
    var first = 0
    if cells(0..<cursor) + 1 > width {
      first = cursor
      while first > 0 && cells(first - 1..<cursor) + 2 <= width { first -= 1 }
    }
    var column = x
    if first > 0 { column = grid.put("…", x: column, y: y, style: .dim) }
    let style: Style = prompt.selected ? .selected : .normal
    grid.put(String(characters[first...]), x: column, y: y, style: style, limit: x + width - column)
    let at = column + cells(first..<cursor)
    guard at < x + width else { return }
    grid.put(cursor < characters.count ? String(characters[cursor]) : " ", x: at, y: y, style: .selected)
  }

  /// The hits of the search of what was said, in the list pane: a line saying what was searched,
  /// then one row a hit: the memo's name as the list shows it, the time, and the line with the
  /// match in brackets and reversed (readable without colour).
  static func drawHits(_ model: BrowserModel, _ search: SpokenSearch, _ rect: Rect, _ grid: inout CellGrid) {
    guard rect.height > 0 else { return }
    let memos = search.memoCount
    let still = search.progress == nil ? "" : " so far"
    // What is said of the words: how many hits, or none; then the transcripts searched only as far
    // as they read, or not at all (as `stash search` warns of them).
    var (before, after) = ("", "")
    if search.hits.isEmpty {
      if search.progress == nil {
        after = " was not said in any memo"
      } else {
        (before, after) = ("Searching for ", "…")
      }
    } else {
      after =
        ": \(BrowserModel.counted(search.hits.count, "hit")) in \(BrowserModel.counted(memos, "memo"))\(still)"
    }
    let damaged = search.troubled.filter { !$0.unreadable }.count
    let unreadable = search.troubled.count - damaged
    if damaged > 0 { after += " · \(BrowserModel.counted(damaged, "damaged transcript")) searched in part" }
    if unreadable > 0 { after += " · \(BrowserModel.counted(unreadable, "transcript")) unreadable" }
    if search.hits.isEmpty && search.progress == nil && search.troubled.isEmpty { after += "." }
    // Words too long for the line are cut inside their quotes, so what is said of them shows.
    let room = max(8, rect.width - 4 - CharacterWidth.of(before) - CharacterWidth.of(after))
    let head = before + "“" + TextWrap.truncate(search.query, width: room) + "”" + after
    grid.put(TextWrap.truncate(head, width: rect.width - 2), x: rect.x + 2, y: rect.y, style: .dim)
    let rows = rect.height - 1
    guard rows > 0 else { return }
    let top = search.cursor < rows ? 0 : search.cursor - rows + 1
    let nameWidth = max(8, min(24, rect.width * 2 / 5))
    for row in 0..<rows {
      let index = top + row
      guard index < search.hits.count else { break }
      let hit = search.hits[index]
      let selected = index == search.cursor
      let name = model.memos.position(ofBase: hit.base).map { model.memos.displayName(at: $0) } ?? hit.base
      var line = StyledLine(selected ? "›" : " ")
      line.append(
        " " + TextWrap.pad(TextWrap.truncate(name, width: nameWidth), width: nameWidth) + " ", .normal)
      line.append(TextWrap.padLeft(TimeText.clock(hit.start), width: 5) + "  ", .dim)
      // A note of a bookmark is marked as the transcript marks the bookmark.
      if hit.isBookmark { line.append(DetailLayout.bookmarkSign + " ", .bookmark) }
      line.startIsolatedField()
      for span in marked(hit, room: rect.width - line.width).spans { line.append(span.text, span.style) }
      grid.put(line, x: rect.x, y: rect.y + 1 + row, limit: rect.width)
    }
  }

  /// The hit's line, each match in brackets and in the match style, cut to `room` columns with
  /// the first match kept in view.
  static func marked(_ hit: SpokenHit, room: Int) -> StyledLine {
    let scalars = Array(hit.text.unicodeScalars)
    func text(_ r: Range<Int>) -> String {
      var s = String.UnicodeScalarView()
      s.append(contentsOf: scalars[r])
      return String(s).replacingNewlines()
    }
    var line = StyledLine()
    var from = 0
    for match in hit.matches {
      let lower = min(max(match.lowerBound, from), scalars.count)
      let upper = min(max(match.upperBound, lower), scalars.count)
      var before = text(from..<lower)
      // Keep some words before the first match, and the match itself, in view.
      let keep = max(8, room / 3)
      if from == 0 && CharacterWidth.of(before) > keep { before = "…" + String(before.suffix(keep)) }
      line.append(before)
      line.append("[" + text(lower..<upper) + "]", .match)
      from = upper
    }
    line.append(text(from..<scalars.count))
    return TextWrap.truncate(line, width: max(1, room))
  }
}

extension String {
  /// The text on one line: line breaks as spaces.
  fileprivate func replacingNewlines() -> String {
    String(map { $0.isNewline ? " " : $0 })
  }
}

/// Shortens a path for the header: the home folder becomes `~`.
package enum PathTextShort {
  /// `path` from `~` when it is under `home` (the caller reads `$HOME`; nil leaves it whole).
  package static func make(_ path: String, home: String?) -> String {
    if let home, !home.isEmpty, path.hasPrefix(home + "/") {
      return "~" + path.dropFirst(home.count)
    }
    return path
  }
}
