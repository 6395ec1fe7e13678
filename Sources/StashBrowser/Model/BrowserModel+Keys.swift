import StashSearch

/// Keys and the mouse.
extension BrowserModel {
  /// Seconds a left/right seek moves.
  package static let shortSeek = 5.0
  /// Seconds a `[`/`]` seek moves.
  package static let longSeek = 60.0

  package mutating func handle(key: Key) -> [BrowserEffect] {
    // "Terminal too small" shows neither prompt nor box, and says q quits: so it does.
    if layout.tooSmall, KeyTable.action(for: key) == .quit {
      prompt = nil
      overlay = nil
      return perform(.quit)
    }
    if prompt != nil { return handlePrompt(key: key) }
    if overlay != nil { return handleOverlay(key: key) }
    message = nil
    guard let action = KeyTable.action(for: key) else {
      message = StyledLine("\(key.label) does nothing here: ? lists the keys.", .dim)
      return []
    }
    return perform(action)
  }

  package mutating func perform(_ action: Action) -> [BrowserEffect] {
    if showsHits {
      // The hit list has the list pane: the moving keys move in it, Enter plays, Esc closes.
      switch action {
      case .moveUp: return moveHit(by: -1)
      case .moveDown: return moveHit(by: 1)
      case .pageUp: return moveHit(by: -max(1, pageSize - 2))
      case .pageDown: return moveHit(by: max(1, pageSize - 2))
      case .first: return moveHit(by: Int.min / 4)
      case .last: return moveHit(by: Int.max / 4)
      case .open: return playHit()
      case .back: return cancelSpokenSearch()
      default: break
      }
    }
    switch action {
    case .moveUp: return move(by: -1)
    case .moveDown: return move(by: 1)
    case .pageUp: return move(by: -max(1, pageSize - 1))
    case .pageDown: return move(by: max(1, pageSize - 1))
    case .first: return move(by: Int.min / 2)
    case .last: return move(by: Int.max / 2)
    case .open:
      if focus == .list {
        guard selectedRow != nil else { return [] }
        focus = .transcript
        return []
      }
      return playFromCursor()
    case .back:
      if !filter.isEmpty && focus == .list { return setFilter("") }
      focus = .list
      return []
    case .switchPane:
      if focus == .list {
        if selectedRow != nil { focus = .transcript }
      } else {
        focus = .list
      }
      return []
    case .playPause: return playPause()
    case .seekBackward: return seek(by: -BrowserModel.shortSeek)
    case .seekForward: return seek(by: BrowserModel.shortSeek)
    case .seekBackwardMinute: return seek(by: -BrowserModel.longSeek)
    case .seekForwardMinute: return seek(by: BrowserModel.longSeek)
    case .previousCue: return stepCue(by: -1)
    case .nextCue: return stepCue(by: 1)
    case .goToTime:
      guard let row = selectedRow else { return [] }
      if let refusal = playRefusal(row) {
        sayCannotPlay(refusal)
        return []
      }
      prompt = Prompt(purpose: .goToTime, text: "", cursor: 0)
      return []
    case .follow:
      following = true
      if let cue = spokenCue {
        cueCursor = cue
        focus = .transcript
      } else if !playerHoldsSelection {
        message = StyledLine("Following is on; it shows once this memo plays.", .dim)
      }
      return []
    case .rename:
      guard let row = selectedRow else { return [] }
      if recovering { return waitForRecovery() }
      let text = row.title ?? ""
      prompt = Prompt(purpose: .rename(base: row.base), text: text, cursor: text.count)
      return []
    case .delete:
      guard let row = selectedRow else { return [] }
      if recovering { return waitForRecovery() }
      overlay = .confirmDelete(
        base: row.base, files: row.files + row.partFiles.map { "\(row.base).parts/\($0)" },
        permanently: false, reason: nil)
      overlayTop = 0
      return []
    case .recover:
      if recovering {
        message = StyledLine("The recovery sweep is already running.", .dim)
        return []
      }
      if importing { return waitForImport() }
      recovering = true
      message = StyledLine("Looking at what recovery would do…", .dim)
      return [.planRecovery]
    case .importMemos:
      guard importSource != nil else {
        message = StyledLine(
          "No folder to import from: start stash-tui with --import-from DIR (or set STASH_IMPORT_FROM).",
          .warning)
        return []
      }
      if importing {
        message = StyledLine("The import is already running.", .dim)
        return []
      }
      if recovering { return waitForRecovery() }
      importing = true
      message = StyledLine("Looking at what can be imported…", .dim)
      return [.planImport]
    case .filter:
      prompt = Prompt(purpose: .filter, text: filter, cursor: filter.count, original: filter)
      return []
    case .searchSpoken:
      let text = spokenSearch?.query ?? ""
      prompt = Prompt(
        purpose: .search, text: text, cursor: text.count, original: text, selected: !text.isEmpty)
      focus = .list
      return []
    case .nextMatch: return spokenSearch != nil ? stepHit(forward: true) : jumpToMatch(forward: true)
    case .previousMatch: return spokenSearch != nil ? stepHit(forward: false) : jumpToMatch(forward: false)
    case .refresh:
      message = StyledLine("Read the folder again.", .dim)
      return [.list] + (selectedBase.map { [.loadDetail(base: $0)] } ?? [])
    case .help:
      overlay = .help
      overlayTop = 0
      return []
    case .slower: return stepSpeed(by: -1)
    case .faster: return stepSpeed(by: 1)
    case .normalSpeed: return setSpeed(1)
    case .volumeDown: return setVolume(player.volume - BrowserModel.volumeStep)
    case .volumeUp: return setVolume(player.volume + BrowserModel.volumeStep)
    case .mute: return setMuted(!player.muted)
    case .voiceBoost: return cycleVoice()
    case .skipSilence: return setSkipSilence(PlayerSnapshot.SilenceSkip.after(player.skipSilence))
    case .abLoop: return cycleLoop()
    case .loopCue: return loopCue()
    case .fromStart: return playFromStart()
    case .continuing: return setContinuing(!continuing)
    case .nextMemo: return playAdjacent(by: 1)
    case .previousMemo: return playAdjacent(by: -1)
    case .addBookmark:
      if recovering { return waitForRecovery() }
      return addBookmark()
    case .nextBookmark: return stepBookmark(forward: true)
    case .previousBookmark: return stepBookmark(forward: false)
    case .editBookmark:
      if recovering { return waitForRecovery() }
      return editBookmark()
    case .deleteBookmark:
      if recovering { return waitForRecovery() }
      return deleteBookmark()
    case .saveClip: return saveClip()
    case .quit:
      finished = true
      return rememberBeforeQuitting() + (player.isActive ? [.stop, .quit] : [.quit])
    }
  }

  /// Refuses a sweep while an import may be writing the same memo.
  private mutating func waitForImport() -> [BrowserEffect] {
    message = StyledLine("The import is running; try again when its report shows.", .warning)
    return []
  }

  /// Refuses a write while the sweep may be writing the same memo.
  private mutating func waitForRecovery() -> [BrowserEffect] {
    message = StyledLine("The recovery sweep is running; try again when its report shows.", .warning)
    return []
  }

  /// Rows a page moves in the focused pane.
  package var pageSize: Int {
    let l = layout
    if focus == .transcript, let rect = l.detail, let row = selectedRow {
      return DetailLayout.make(row: row, detail: detail, rect: rect, spoken: nil, query: "")
        .transcriptRect.height
    }
    return l.list?.height ?? 1
  }

  private mutating func move(by delta: Int) -> [BrowserEffect] {
    if focus == .transcript {
      let count = detail?.cues.count ?? 0
      guard count > 0 else { return [] }
      let target = max(0, min(count - 1, cueCursor.addingReportingOverflow(delta).partialValue))
      if playerHoldsSelection && player.state == .playing && following {
        following = false
      }
      if delta.magnitude > 1 && delta.magnitude < Int.max / 4 {
        // A page moves by lines, then lands the cursor on a cue in view.
        let d = detailLayout()
        let lines = d?.lines.count ?? 0
        transcriptTop = max(0, min(max(0, lines - pageSize), transcriptTop + delta))
        if let d, transcriptTop < d.lines.count {
          let top = d.lines[transcriptTop].cue
          cueCursor = delta > 0 ? max(target, top) : min(target, max(top, 0))
        } else {
          cueCursor = target
        }
      } else {
        cueCursor = target
      }
      return []
    }
    guard !visible.isEmpty else { return [] }
    selection = max(0, min(visible.count - 1, selection.addingReportingOverflow(delta).partialValue))
    return selectionChanged()
  }

  /// The detail pane's layout for the current state, when it is shown.
  package func detailLayout() -> DetailLayout? {
    guard let row = selectedRow, let rect = layout.detail else { return nil }
    return DetailLayout.make(row: row, detail: detail, rect: rect, spoken: nil, query: "")
  }

  /// Why the selected memo cannot play, or nil when it can.
  package func playRefusal(_ row: MemoRow) -> StyledLine? {
    switch row.audio {
    case .damaged(let reason):
      return StyledLine("Cannot play: \(reason)", .error)
    case .missing:
      return StyledLine("Cannot play: this memo has no audio file.", .error)
    default:
      return nil
    }
  }

  private mutating func playPause() -> [BrowserEffect] {
    guard let row = selectedRow else { return [] }
    if playerHoldsSelection { return [.togglePause] }
    if let refusal = playRefusal(row) {
      sayCannotPlay(refusal)
      return []
    }
    following = true
    // A memo whose playing failed (the sound device went) plays again from where it stopped.
    if case .failed = player.state, player.base == row.base {
      return [.play(base: row.base, from: player.position)]
    }
    // Otherwise from where it was left off, if it was.
    return [.resume(base: row.base)]
  }

  /// Plays the cue under the cursor from its first word, or from word `word` of it: the word's
  /// time, else the time of the last word before it that has one, else the cue's start.
  private mutating func playFromCursor(word: Int? = nil) -> [BrowserEffect] {
    guard let row = selectedRow, let cues = detail?.cues, cueCursor < cues.count else { return [] }
    if let refusal = playRefusal(row) {
      sayCannotPlay(refusal)
      return []
    }
    following = true
    let cue = cues[cueCursor]
    let words = cue.words.prefix(min(cue.words.count, (word ?? 0) + 1))
    let start = words.last(where: { $0.start != nil })?.start ?? cue.start
    if playerHoldsSelection {
      jump(to: start)
      return [.seek(start)] + (player.state == .paused ? [.togglePause] : [])
    }
    return [.play(base: row.base, from: start)]
  }

  private mutating func seek(by delta: Double) -> [BrowserEffect] {
    guard player.isActive else {
      message = StyledLine("Nothing is playing: space plays the open memo.", .dim)
      return []
    }
    var target = max(0, player.position + delta)
    if let d = player.duration { target = min(target, d) }
    jump(to: target)
    return [.seek(target)]
  }

  private mutating func stepCue(by delta: Int) -> [BrowserEffect] {
    guard let row = selectedRow, let cues = detail?.cues, !cues.isEmpty else {
      message = StyledLine("This memo has no cues to step through.", .dim)
      return []
    }
    if let refusal = playRefusal(row) {
      sayCannotPlay(refusal)
      return []
    }
    let current = playerHoldsSelection ? BrowserModel.cueIndex(in: cues, at: player.position) : nil
    var target: Int
    if let current {
      // Back from the middle of a cue goes to its start first, as players do with tracks.
      if delta < 0 && player.position - cues[current].start > 2 {
        target = current
      } else {
        target = current + delta
      }
    } else {
      target = cueCursor + delta
    }
    target = max(0, min(cues.count - 1, target))
    following = true
    cueCursor = target
    let start = cues[target].words.first?.start ?? cues[target].start
    if playerHoldsSelection {
      jump(to: start)
      return [.seek(start)]
    }
    return [.play(base: row.base, from: start)]
  }

  private mutating func jumpToMatch(forward: Bool) -> [BrowserEffect] {
    guard !filter.isEmpty else {
      message = StyledLine("No search: / sets one.", .dim)
      return []
    }
    // The cues where a match starts, found as the filter and the pane's marks find them.
    let cues = detail?.cues ?? []
    let places = SearchPattern.typed(filter)?.places(in: cues.map(\.text)) ?? []
    var hits: [Int] = []
    for place in places where hits.last != place.parts[0].text { hits.append(place.parts[0].text) }
    guard !hits.isEmpty else {
      message = StyledLine("“\(filter)” is not in this transcript.", .dim)
      return []
    }
    let next =
      forward
      ? (hits.first { $0 > cueCursor } ?? hits[0])
      : (hits.last { $0 < cueCursor } ?? hits[hits.count - 1])
    let wrapped = forward ? next <= cueCursor : next >= cueCursor
    focus = .transcript
    following = false
    cueCursor = next
    let n = (hits.firstIndex(of: next) ?? 0) + 1
    // The cursor goes from cue to cue: the count is of cues, and of matches where some cue has more.
    let matches = places.count > hits.count ? " (\(places.count) matches)" : ""
    message = StyledLine(
      "Cue \(n) of \(hits.count) with “\(filter)”\(matches)" + (wrapped ? ", wrapped" : ""), .dim)
    return []
  }

  package mutating func handle(mouse: MouseEvent) -> [BrowserEffect] {
    if overlay != nil {
      switch mouse.kind {
      case .wheelUp: overlayTop = max(0, overlayTop - 3)
      case .wheelDown: overlayTop += 3
      case .click: if case .help = overlay { overlay = nil }
      }
      return []
    }
    let l = layout
    // The strip over the scrubber seeks as the scrubber does: the same columns, the same times.
    let onStrip = l.strip?.contains(mouse.x, mouse.y) == true
    if l.transport.contains(mouse.x, mouse.y) || onStrip, mouse.kind == .click {
      // With nothing playing, the opened memo's strip and scrubber start it where clicked.
      let shown = shownTransport
      guard player.isActive || preview != nil, let d = shown.scaleDuration, d > 0, let bar = scrubberRange,
        bar.contains(mouse.x)
      else { return [] }
      let target = ScrubberScale(cells: bar.count, duration: d).time(atCell: mouse.x - bar.lowerBound)
      if let base = preview?.base {
        following = true
        message = nil
        return [.play(base: base, from: target)]
      }
      jump(to: target)
      return [.seek(target)]
    }
    if let list = l.list, list.contains(mouse.x, mouse.y) {
      focus = .list
      if let search = spokenSearch {
        // The hit list (its first row says what was searched): the wheel moves, a click picks.
        switch mouse.kind {
        case .wheelUp: return moveHit(by: -3)
        case .wheelDown: return moveHit(by: 3)
        case .click:
          let rows = max(1, list.height - 1)
          let top = search.cursor < rows ? 0 : search.cursor - rows + 1
          let row = mouse.y - list.y - 1
          guard row >= 0, top + row < search.hits.count else { return [] }
          return moveHit(by: top + row - search.cursor)
        }
      }
      switch mouse.kind {
      case .wheelUp: return move(by: -3)
      case .wheelDown: return move(by: 3)
      case .click:
        let index = listTop + (mouse.y - list.y)
        guard index < visible.count else { return [] }
        selection = index
        return selectionChanged()
      }
    }
    if let rect = l.detail, rect.contains(mouse.x, mouse.y), let d = detailLayout() {
      focus = .transcript
      switch mouse.kind {
      case .wheelUp, .wheelDown:
        let delta = mouse.kind == .wheelUp ? -3 : 3
        if playerHoldsSelection { following = false }
        transcriptTop = max(0, min(max(0, d.lines.count - d.transcriptRect.height), transcriptTop + delta))
        // The cursor stays in view with the text.
        if transcriptTop < d.lines.count {
          let low = max(0, d.lines[transcriptTop].cue)
          let bottom = min(d.lines.count - 1, transcriptTop + d.transcriptRect.height - 1)
          let high = max(0, d.lines[bottom].cue)
          cueCursor = max(low, min(high, cueCursor))
        }
        return []
      case .click:
        guard d.transcriptRect.contains(mouse.x, mouse.y) else { return [] }
        let line = transcriptTop + (mouse.y - d.transcriptRect.y)
        guard line < d.lines.count, d.lines[line].cue >= 0 else { return [] }
        cueCursor = d.lines[line].cue
        // A click on a word plays from that word, as a tap does in the phone's transcript.
        let cue = detail?.cues[cueCursor]
        let column = mouse.x - (d.transcriptRect.x + 1) - d.textStart
        return playFromCursor(word: cue.flatMap { d.word(atLine: line, column: column, of: $0) })
      }
    }
    return []
  }
}
