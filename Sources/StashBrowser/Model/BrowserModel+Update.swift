import StashFormat
import StashSearch

/// The update step: one event in, the state changed, effects out.
extension BrowserModel {
  /// Applies `event`; returns what the I/O loop should do.
  package mutating func update(_ event: BrowserEvent) -> [BrowserEffect] {
    var effects: [BrowserEffect] = []
    switch event {
    case .key(let key):
      effects = handle(key: key)
    case .mouse(let mouse):
      effects = handle(mouse: mouse)
    case .paste(let text):
      effects = handlePaste(text)
    case .resize(let w, let h):
      width = w
      height = h
    case .player(let snapshot):
      let wasPlaying = player.state == .playing
      let previous = player
      let before = player.state
      player = snapshot
      // Said once, when playing fails; gone once playing works again. Later snapshots of the same
      // failure leave the status line to whatever the user does next.
      if case .failed(let reason) = snapshot.state, before != snapshot.state,
        wasPlaying || snapshot.base != nil
      {
        sayCannotPlay(StyledLine("Cannot play: \(reason)", .error))
      } else if case .failed = before, snapshot.state == .playing, messageSaysCannotPlay {
        message = nil
      }
      if following, let cue = spokenCue { cueCursor = cue }
      if snapshot.base != previous.base || !snapshot.isActive { loopStart = nil }
      effects = noteListening(previous, snapshot)
      if continuing, snapshot.state == .ended, before != .ended {
        effects += playAdjacent(by: 1, fromEnd: true)
      }
    case .resumed(let base, let from):
      if base == player.base || player.base == nil {
        message = StyledLine(
          "Continuing from \(TimeText.clock(from)), where it was left off: B plays from the beginning.")
      }
    case .warning(let text):
      message = StyledLine(text, .warning)
    case .listed(let rows, let error):
      effects = apply(listing: rows, error: error)
    case .rowsRead(let read):
      effects = changeMemos { $0.fill(read.rows) }
    case .otherFiles(let count):
      otherFiles = count
    case .restoreSelection(let base):
      if let at = visiblePosition(ofBase: base) {
        selection = at
        effects = selectionChanged()
      }
    case .loudness(let strip):
      if strip.base == measuredBase { loudness = strip }
    case .detailLoaded(let base, let loaded):
      if base == selectedBase {
        detail = loaded
        if following, let cue = spokenCue { cueCursor = cue }
        placePendingCue(base: base)
        cueCursor = min(cueCursor, max(0, loaded.cues.count - 1))
      }
    case .searchProgress(let generation, let done, let total):
      if generation == searchGeneration, searchProgress != nil {
        searchProgress = SearchProgress(done: done, total: total)
      }
    case .transcriptMatches(let query, let generation, let bases):
      if generation == searchGeneration && query == filter {
        transcriptMatches = bases
        searchProgress = nil
        effects = refilter()
        if prompt == nil && !filter.isEmpty { announceMatches() }
      }
    case .spokenHits(let generation, let hits, let done, let total, let finished, let troubled):
      effects = receiveAndShow(
        hits: hits, generation: generation, done: done, total: total, finished: finished, troubled: troubled)
    case .planned(let action, let outcome):
      if case .plan(let title, let lines, true) = outcome {
        overlay = .confirm(title: title, lines: lines, action: action)
        overlayTop = 0
        message = nil
      } else {
        if action == .recover { recovering = false } else { importing = false }
        message = nil
        effects = apply(outcome: outcome)
      }
    case .recovered(.lossReport(let title, let lines)):
      // The report, then the question: the sweep stays open until it is answered.
      message = nil
      overlay = .confirm(title: title, lines: lines + ["", Self.acceptLossQuestion], action: .acceptLoss)
      overlayTop = 0
    case .recovered(let outcome):
      recovering = false
      // The "Recovering…" line goes once the report shows.
      message = nil
      effects = apply(outcome: outcome)
    case .imported(let outcome):
      importing = false
      message = nil
      effects = apply(outcome: outcome)
    case .actionFinished(let outcome):
      effects = apply(outcome: outcome)
    case .clipSaved(let outcome):
      // A clip is never written into the memo folder: nothing there to read again.
      _ = apply(outcome: outcome)
    case .bookmarked(let base, let outcome):
      if case .failed = outcome, case .bookmarkNote(base, _)? = prompt?.purpose { prompt = nil }
      _ = apply(outcome: outcome)
      // The bookmarks file is the memo's alone: its detail is read again, not the folder.
      effects = base == selectedBase ? [.loadDetail(base: base)] : []
    case .remote(let command):
      effects = handle(remote: command)
    case .closing:
      if recovering { message = StyledLine("Finishing the recovery sweep before quitting…", .dim) }
    }
    noteHeard(effects)
    normalize()
    measureShown(&effects)
    return effects
  }

  /// Another memo shown on the transport (playing, or opened with nothing playing), or none: the
  /// last one's measure stops and this one's starts, from where it is shown. The same memo going
  /// from opened to playing keeps its measure, so the strip stays as it was.
  private mutating func measureShown(_ effects: inout [BrowserEffect]) {
    let shown = shownTransport
    guard shown.base != measuredBase else { return }
    // A memo asked to play is measured once the player holds it, from where it plays.
    if effects.contains(where: { if case .play = $0 { true } else { false } }) { return }
    measuredBase = shown.base
    loudness = nil
    effects.append(.measureLoudness(base: shown.base, from: shown.position))
  }

  /// Keeps the list's `◐` in step with the places the effects remember or forget.
  private mutating func noteHeard(_ effects: [BrowserEffect]) {
    for effect in effects {
      switch effect {
      case .rememberPosition(let base, _): heardNow[base] = true
      case .forgetPosition(let base): heardNow[base] = false
      default: break
      }
    }
  }

  /// Applies a new reading of the folder, keeping the selection on the same memo.
  private mutating func apply(listing rows: MemoList, error: String?) -> [BrowserEffect] {
    listError = error
    if error != nil && rows.isEmpty && !memos.isEmpty {
      // A failed re-read keeps what was shown; the header says why it may be stale.
      return []
    }
    return changeMemos { $0 = rows }
  }

  /// Changes the list (a new listing, or rows read put in place), keeping the selection on the
  /// same memo, reading its detail again when its row changed, and stopping the player when its
  /// memo is gone.
  private mutating func changeMemos(_ change: (inout MemoList) -> Void) -> [BrowserEffect] {
    let previousDetailRow = selectedRow
    change(&memos)
    var effects = refilter()
    // The selected memo's files may have changed (a transcript assembled, a title written).
    if let base = selectedBase, let row = selectedRow, row.base == base, row != previousDetailRow,
      !effects.contains(.loadDetail(base: base))
    {
      effects.append(.loadDetail(base: base))
    }
    if let base = player.base, player.isActive, memos.position(ofBase: base) == nil {
      effects.append(.stop)
      message = StyledLine("The memo playing was removed from the folder; playback stopped.", .warning)
    }
    return effects
  }

  /// Recomputes the visible memos for the filter and keeps the selection by base.
  package mutating func refilter() -> [BrowserEffect] {
    // Found as `stash search` and `S` find it; a filter of nothing but spaces finds everything.
    if let pattern = SearchPattern.typed(filter) {
      // While the transcripts are searched for a new filter, no base is asked for. The list is
      // taken once: reached through `self` for each memo, its arrays were retained each time.
      let (memos, transcripts) = (memos, transcriptMatches)
      // A filter of digits (with `-`, `:` and spaces) finds a memo by the date and time the list
      // shows too, titled or not; only then is each date written out.
      let byDate =
        filter.contains { $0.isASCII && $0.isNumber }
        && filter.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-" || $0 == ":" || $0 == " ") }
      visible = memos.indices.filter { i in
        pattern.isFound(in: memos.displayName(at: i))
          || (byDate && pattern.isFound(in: TimeText.date(memos.recordedAt(at: i))))
          || (!transcripts.isEmpty && transcripts.contains(memos.base(at: i)))
      }
    } else {
      // Every memo, in list order. Only this method sets `visible`, always to positions in
      // ascending order, so as many as the list has are already every one: rows read and put
      // in place (or a list reordered by them) cost nothing here.
      if visible.count != memos.count { visible = Array(memos.indices) }
    }
    if let base = selectedBase, let at = visiblePosition(ofBase: base) {
      selection = at
    } else {
      selection = min(selection, max(0, visible.count - 1))
    }
    return selectionChanged()
  }

  /// Loads the detail when the selected memo changed.
  package mutating func selectionChanged() -> [BrowserEffect] {
    let base = selectedRow?.base
    guard base != selectedBase || (detail == nil && base != nil) else { return [] }
    let changed = base != selectedBase
    selectedBase = base
    if changed {
      detail = nil
      cueCursor = 0
      transcriptTop = 0
      following = true
      if focus == .transcript && base == nil { focus = .list }
    }
    return base.map { [.loadDetail(base: $0)] } ?? []
  }

  private mutating func apply(outcome: ActionOutcome) -> [BrowserEffect] {
    switch outcome {
    case .done(let text):
      message = StyledLine(text)
    case .failed(let text):
      // The "Moving to the Trash…" said while it ran is over.
      message = nil
      overlay = .report(title: "Not done", lines: [text])
      overlayTop = 0
    case .trashUnavailable(let base, let reason):
      message = nil
      guard let row = memos.row(ofBase: base) else { return [.list] }
      overlay = .confirmDelete(
        base: base, files: row.files + row.partFiles.map { "\(base).parts/\($0)" }, permanently: true,
        reason: reason)
      overlayTop = 0
      return []
    case .report(let title, let lines), .lossReport(let title, let lines), .plan(let title, let lines, _):
      overlay = .report(title: title, lines: lines)
      overlayTop = 0
    }
    return [.list]
  }

  /// Keeps every index in range and the cursors in view after any change.
  package mutating func normalize() {
    selection = max(0, min(selection, visible.count - 1))
    let layout = self.layout
    if let list = layout.list {
      let rows = max(1, list.height)
      if selection < listTop { listTop = selection }
      if selection >= listTop + rows { listTop = selection - rows + 1 }
      listTop = max(0, min(listTop, max(0, visible.count - rows)))
    }
    guard let row = selectedRow, let rect = layout.detail else { return }
    let d = DetailLayout.make(row: row, detail: detail, rect: rect, spoken: nil, query: "")
    let rows = max(1, d.transcriptRect.height)
    let cues = detail?.cues.count ?? 0
    cueCursor = max(0, min(cueCursor, cues - 1))
    if cues > 0 {
      let range = d.lineRange(ofCue: cueCursor)
      // When following, keep a little of what comes next in view as well.
      let tracking = following && playerHoldsSelection
      let margin = tracking ? min(2, rows / 4) : 0
      if tracking && (range.upperBound <= transcriptTop || range.lowerBound >= transcriptTop + rows) {
        // A jump to the spoken cue (f, a seek, a typed time) lands it a third of the way down,
        // with what was said before it in view, rather than on the pane's top line.
        transcriptTop = max(0, range.lowerBound - rows / 3)
      }
      if range.lowerBound < transcriptTop { transcriptTop = range.lowerBound }
      if range.upperBound + margin > transcriptTop + rows {
        transcriptTop = min(range.lowerBound, range.upperBound + margin - rows)
      }
    }
    transcriptTop = max(0, min(transcriptTop, max(0, d.lines.count - rows)))
  }
}

extension BrowserModel {
  /// Asked under a recovery report that kept parts as the sign of a loss.
  package static let acceptLossQuestion =
    "Accept the loss now that you have seen it? y notes it in the transcript as missing speech and "
    + "removes the parts (as `stash recover --accept-loss` does); n keeps them, and lint goes on warning."
}
