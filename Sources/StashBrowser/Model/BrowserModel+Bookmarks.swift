import StashFormat

/// Bookmarks (FORMAT.md §8) from the keys: `b` keeps the moment heard (written at once, the note
/// asked after), `@`/`!` play from the next and previous one (mpv's chapter keys), `e` edits the
/// note of the one here and `x` removes it, after asking.
extension BrowserModel {
  /// How far past a bookmark `!` still counts as being at it: within this, `!` goes to the one
  /// before (as a player's "previous chapter" does), so a second press walks back.
  package static let bookmarkBackReach = 1.0

  /// The selected memo's bookmarks, once its detail is read.
  package var bookmarks: [Bookmark] { detail?.bookmarks ?? [] }

  /// Where the bookmark keys work from: what is heard when the player holds the selected memo,
  /// else the start of the cue under the transcript cursor, else nil.
  package var bookmarkReference: Double? {
    if playerHoldsSelection { return player.position }
    guard focus == .transcript, let cues = detail?.cues, cueCursor < cues.count else { return nil }
    return cues[cueCursor].start
  }

  /// The bookmark `e` and `x` act on: the last at or before here (within the half second a
  /// bookmark reaches, `Bookmarks.reach`), or nil.
  package var bookmarkHere: Bookmark? {
    guard let reference = bookmarkReference else { return nil }
    return bookmarks.last { $0.at <= reference + Bookmarks.reach }
  }

  /// `b`: writes a bookmark at the moment heard (or at the cue under the cursor) at once, then
  /// asks for its note; Esc leaves it without one.
  package mutating func addBookmark() -> [BrowserEffect] {
    guard let row = selectedRow else { return [] }
    guard let at = bookmarkReference else {
      message = StyledLine("Play the memo, or put the cursor on a cue, to bookmark a moment.", .dim)
      return []
    }
    let moment = Bookmarks.rounded(at)
    prompt = Prompt(purpose: .bookmarkNote(base: row.base, at: moment), text: "", cursor: 0)
    return [.addBookmark(base: row.base, at: moment)]
  }

  /// `@` and `!`: plays from the next bookmark after here, or the previous one before it.
  package mutating func stepBookmark(forward: Bool) -> [BrowserEffect] {
    guard let row = selectedRow else { return [] }
    let marks = bookmarks
    guard !marks.isEmpty else {
      message = StyledLine("This memo has no bookmarks: b adds one where you are.", .dim)
      return []
    }
    let reference = bookmarkReference ?? (forward ? -1 : .infinity)
    let target =
      forward
      ? marks.firstIndex { $0.at > reference + 0.05 }
      : marks.lastIndex { $0.at < reference - BrowserModel.bookmarkBackReach }
    guard let index = target else {
      message = StyledLine(forward ? "No bookmark after this one." : "No bookmark before this one.", .dim)
      return []
    }
    if let refusal = playRefusal(row) {
      sayCannotPlay(refusal)
      return []
    }
    let bookmark = marks[index]
    message = StyledLine(BrowserModel.describe(bookmark, index: index, of: marks.count), .dim)
    following = true
    if playerHoldsSelection {
      jump(to: bookmark.at)
      return [.seek(bookmark.at)] + (player.state == .paused ? [.togglePause] : [])
    }
    return [.play(base: row.base, from: bookmark.at)]
  }

  /// `e`: asks for a new note for the bookmark here, its note filled in.
  package mutating func editBookmark() -> [BrowserEffect] {
    guard let row = selectedRow, let bookmark = bookmarkHereOrSay() else { return [] }
    prompt = Prompt(
      purpose: .bookmarkNote(base: row.base, at: bookmark.at), text: bookmark.note,
      cursor: bookmark.note.count, original: bookmark.note)
    return []
  }

  /// `x`: asks before removing the bookmark here.
  package mutating func deleteBookmark() -> [BrowserEffect] {
    guard let row = selectedRow, let bookmark = bookmarkHereOrSay() else { return [] }
    let note = bookmark.note.isEmpty ? "(no note)" : "“\(bookmark.note)”"
    overlay = .confirm(
      title: "Remove this bookmark?",
      lines: ["\(TimeText.clock(bookmark.at))  \(note)"],
      action: .removeBookmark(base: row.base, at: bookmark.at))
    overlayTop = 0
    return []
  }

  /// The bookmark here, or nil after saying there is none.
  private mutating func bookmarkHereOrSay() -> Bookmark? {
    if let bookmark = bookmarkHere { return bookmark }
    if bookmarks.isEmpty {
      message = StyledLine("This memo has no bookmarks: b adds one where you are.", .dim)
    } else if let reference = bookmarkReference {
      message = StyledLine(
        "No bookmark at or before \(TimeText.clock(reference)): @ goes to the next one.", .dim)
    } else {
      message = StyledLine("Play the memo, or put the cursor on a cue, to pick a bookmark.", .dim)
    }
    return nil
  }

  /// The note typed for the bookmark at `at` of `base`: written (an empty note removes it).
  mutating func submitBookmarkNote(base: String, at: Double, note: String, original: String)
    -> [BrowserEffect]
  {
    let note = Text.trimmed(note)
    guard note != original else { return [] }
    return [.annotateBookmark(base: base, at: at, note: note)]
  }

  /// "Bookmark 2 of 5, 1:23: the note".
  static func describe(_ bookmark: Bookmark, index: Int, of count: Int) -> String {
    "Bookmark \(index + 1) of \(count), \(TimeText.clock(bookmark.at))"
      + (bookmark.note.isEmpty ? "." : ": \(bookmark.note)")
  }
}

/// Clips from the keys: `c` saves the A-B loop of the memo playing, or the stretch from the
/// bookmark here to the next (or to the end), as a clip in the folder chosen the first time.
extension BrowserModel {
  /// What `c` saves: the loop set on the selected memo, else from the bookmark here to the next
  /// one (or the audio's end); nil when neither is.
  package var clipSpan: (from: Double, to: Double)? {
    if playerHoldsSelection, let loop = player.loop { return (loop.start, loop.end) }
    guard let bookmark = bookmarkHere, let index = bookmarks.firstIndex(of: bookmark) else { return nil }
    let end =
      index + 1 < bookmarks.count
      ? bookmarks[index + 1].at
      : (playerHoldsSelection ? player.duration : nil) ?? selectedRow?.durationSeconds
    guard let end, end > bookmark.at else { return nil }
    return (bookmark.at, end)
  }

  /// `c`: saves `clipSpan` in the clip folder, asking for the folder the first time.
  package mutating func saveClip() -> [BrowserEffect] {
    guard let row = selectedRow else { return [] }
    guard let span = clipSpan else {
      message = StyledLine(
        "Nothing to save: set an A-B loop with l while playing, or go to a bookmark (@, !), then c.", .dim)
      return []
    }
    guard let folder = clipFolder else {
      let offered = suggestedClipFolder ?? ""
      prompt = Prompt(
        purpose: .clipFolder(base: row.base, from: span.from, to: span.to), text: offered,
        cursor: offered.count, original: offered)
      return []
    }
    message = StyledLine("Saving the clip \(TimeText.clock(span.from))–\(TimeText.clock(span.to))…", .dim)
    return [.saveClip(base: row.base, from: span.from, to: span.to, folder: folder, remember: false)]
  }

  /// The folder typed for clips: kept for this run and remembered for the next, and the clip saved.
  mutating func chooseClipFolder(_ text: String, base: String, from: Double, to: Double) -> [BrowserEffect] {
    let folder = Text.trimmed(text)
    guard !folder.isEmpty else {
      message = StyledLine("No folder given: nothing saved.", .dim)
      return []
    }
    clipFolder = folder
    message = StyledLine("Saving the clip \(TimeText.clock(from))–\(TimeText.clock(to))…", .dim)
    return [.saveClip(base: base, from: from, to: to, folder: folder, remember: true)]
  }
}
