import StashFormat

/// The typed line at the bottom and the boxes over the panes.
extension BrowserModel {
  package mutating func handlePrompt(key: Key) -> [BrowserEffect] {
    guard var p = prompt else { return [] }
    var chars = Array(p.text)
    if p.selected {
      // Recalled text, selected: what is typed replaces it, Backspace or Delete removes it (and
      // then has nothing more to remove below), a moving key keeps it.
      p.selected = false
      switch key {
      case .char, .backspace, .delete:
        chars.removeAll()
        p.cursor = 0
      default: break
      }
    }
    switch key {
    case .escape:
      prompt = nil
      // Esc cancels the search of what was said (the runner stops; the hit list goes).
      if p.purpose == .search { return cancelSpokenSearch() }
      // Esc puts the filter back as it was before typing.
      return p.purpose == .filter && p.original != filter ? setFilter(p.original) : []
    case .enter:
      prompt = nil
      return submit(p)
    case .backspace:
      if p.cursor > 0 {
        chars.remove(at: p.cursor - 1)
        p.cursor -= 1
      }
    case .delete:
      if p.cursor < chars.count { chars.remove(at: p.cursor) }
    case .left: p.cursor = max(0, p.cursor - 1)
    case .right: p.cursor = min(chars.count, p.cursor + 1)
    case .home, .ctrl("a"): p.cursor = 0
    case .end, .ctrl("e"): p.cursor = chars.count
    case .ctrl("u"):
      chars.removeSubrange(0..<p.cursor)
      p.cursor = 0
    case .ctrl("k"):
      chars.removeSubrange(p.cursor..<chars.count)
    case .up where p.purpose == .search: return moveHit(by: -1)
    case .down where p.purpose == .search: return moveHit(by: 1)
    case .pageUp where p.purpose == .search: return moveHit(by: -max(1, pageSize - 2))
    case .pageDown where p.purpose == .search: return moveHit(by: max(1, pageSize - 2))
    case .char(let c):
      chars.insert(c, at: p.cursor)
      p.cursor += 1
    default:
      return []
    }
    return promptEdited(&p, chars)
  }

  /// Pasted text (bracketed by the terminal): typed into the open prompt at its cursor as one
  /// line (line breaks and tabs become spaces, other controls are dropped), never taken for keys.
  package mutating func handlePaste(_ text: String) -> [BrowserEffect] {
    guard var p = prompt else {
      message = StyledLine("Pasted text goes into a prompt only (r, /, S, g): nothing was done.", .dim)
      return []
    }
    let line = text.compactMap { c -> Character? in
      if c.isNewline || c == "\t" { return " " }
      return c.unicodeScalars.allSatisfy({ $0.value < 0x20 || $0.value == 0x7F }) ? nil : c
    }
    var chars = Array(p.text)
    if p.selected {
      p.selected = false
      chars.removeAll()
      p.cursor = 0
    }
    chars.insert(contentsOf: line, at: min(p.cursor, chars.count))
    p.cursor = min(p.cursor, chars.count) + line.count
    return promptEdited(&p, chars)
  }

  /// The prompt's text is now `chars`: kept, its cursor still on a character boundary, and the
  /// filter or the search follows it as it is typed.
  private mutating func promptEdited(_ p: inout Prompt, _ chars: [Character]) -> [BrowserEffect] {
    // Characters may join where they meet (a letter and a zero-width joiner, a base and a combining
    // accent), so the text has fewer than `chars`: the cursor is counted again in the new text (it
    // once pointed past its end, and the next key crashed the browser).
    let before = String(chars[..<min(p.cursor, chars.count)])
    p.text = String(chars)
    p.cursor = min(before.count, p.text.count)
    prompt = p
    if p.purpose == .filter {
      // The list filters as the user types.
      return setFilter(p.text)
    }
    if p.purpose == .search, p.text != spokenSearch?.query ?? "" {
      // The hits come as the user types: a longer text narrows those found so far.
      return setSpokenSearch(p.text)
    }
    return []
  }

  /// Filters by `text` at once on names; the transcript search starts in the background and
  /// supersedes any older one (an empty text only cancels it).
  package mutating func setFilter(_ text: String) -> [BrowserEffect] {
    filter = text
    transcriptMatches = []
    searchGeneration += 1
    searchProgress = text.isEmpty ? nil : SearchProgress(done: 0, total: 0)
    return refilter() + [.searchTranscripts(text, generation: searchGeneration)]
  }

  /// Says how many memos the filter lets through.
  package mutating func announceMatches() {
    let still = searchProgress == nil ? "" : " so far (still searching transcripts)"
    message = StyledLine(
      "\(visible.count) of \(memos.count) memos match\(still); n/N find it in the transcript.", .dim)
  }

  private mutating func submit(_ p: Prompt) -> [BrowserEffect] {
    switch p.purpose {
    case .rename(let base):
      let title = Text.trimmed(p.text)
      return [.setTitle(base: base, title: title)]
    case .goToTime:
      guard let row = selectedRow else { return [] }
      let now = playerHoldsSelection ? player.position : 0
      guard let target = TimeText.parse(p.text, now: now) else {
        message = StyledLine("“\(p.text)” is not a time: try 90, 1:30 or 1:02:03 (+/- to move).", .error)
        return []
      }
      let limit = playerHoldsSelection ? player.duration : row.durationSeconds
      if let limit, target > limit {
        message = StyledLine("The memo is only \(TimeText.clock(limit)) long.", .error)
        return []
      }
      following = true
      if playerHoldsSelection {
        jump(to: target)
        return [.seek(target)]
      }
      return [.play(base: row.base, from: target)]
    case .search:
      if let search = spokenSearch {
        let still = search.progress == nil ? "" : " so far"
        message = StyledLine(
          "\(BrowserModel.counted(search.hits.count, "hit"))\(still): Enter plays from one, n/N step through them, Esc closes.",
          .dim)
      }
      return []
    case .bookmarkNote(let base, let at):
      return submitBookmarkNote(base: base, at: at, note: p.text, original: p.original)
    case .clipFolder(let base, let from, let to):
      return chooseClipFolder(p.text, base: base, from: from, to: to)
    case .filter:
      if filter.isEmpty {
        message = StyledLine("Filter cleared.", .dim)
      } else {
        announceMatches()
      }
      return []
    }
  }

  package mutating func handleOverlay(key: Key) -> [BrowserEffect] {
    guard let current = overlay else { return [] }
    switch key {
    case .up, .char("k"):
      overlayTop = max(0, overlayTop - 1)
      return []
    case .down, .char("j"):
      overlayTop += 1
      return []
    case .pageUp:
      overlayTop = max(0, overlayTop - max(1, height - 6))
      return []
    case .pageDown:
      overlayTop += max(1, height - 6)
      return []
    default: break
    }
    if case .confirmDelete(let base, _, let permanently, _) = current {
      switch key {
      case .char("y"), .char("Y"):
        overlay = nil
        message = StyledLine(permanently ? "Deleting…" : "Moving to the Trash…", .dim)
        let stop: [BrowserEffect] = player.base == base && player.isActive ? [.stop] : []
        return stop + [.delete(base: base, permanently: permanently)]
      case .char("n"), .char("N"), .escape, .char("q"):
        overlay = nil
        message = StyledLine("Nothing deleted.", .dim)
        return []
      default:
        return []
      }
    }
    if case .confirm(_, _, let action) = current {
      switch key {
      case .char("y"), .char("Y"):
        overlay = nil
        switch action {
        case .recover:
          message = StyledLine("Recovering…", .dim)
          return [.recover]
        case .acceptLoss:
          message = StyledLine("Accepting the loss…", .dim)
          return [.acceptLoss]
        case .importMemos:
          message = StyledLine("Importing…", .dim)
          return [.importMemos]
        case .removeBookmark(let base, let at):
          return [.removeBookmark(base: base, at: at)]
        }
      case .char("n"), .char("N"), .escape, .char("q"):
        overlay = nil
        switch action {
        case .recover:
          recovering = false
          message = StyledLine("Nothing recovered.", .dim)
        case .acceptLoss:
          recovering = false
          message = StyledLine("The parts are kept; R shows the loss again.", .dim)
        case .importMemos:
          importing = false
          message = StyledLine("Nothing imported.", .dim)
        case .removeBookmark:
          message = StyledLine("The bookmark is kept.", .dim)
        }
        return []
      default:
        return []
      }
    }
    if case .help = current, key == .char("q") {
      overlay = nil
      return []
    }
    overlay = nil
    return []
  }
}
