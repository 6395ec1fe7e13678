import StashSearch

/// One place the words searched for were said, as the runner found it (`StashSearch`).
package struct SpokenHit: Equatable, Sendable {
  /// The memo.
  package var base: String
  /// The memo's place in the search's order (newest first): hits are kept in this order.
  package var order: Int
  /// When the matching words start, in seconds.
  package var start: Double
  /// The cue the match starts in; nil for a bookmark's note (the cue under its moment is shown).
  package var cue: Int?
  /// Whether the match is in a bookmark's note rather than in the transcript.
  package var isBookmark: Bool { cue == nil }
  /// The line shown: the text of the cues the match is in.
  package var text: String
  /// The matches, in Unicode scalars of `text`, in order (more than one where the words were
  /// found more than once at the same time: `SearchHit.lines`).
  package var matches: [Range<Int>]

  package init(base: String, order: Int, start: Double, cue: Int?, text: String, matches: [Range<Int>]) {
    self.base = base
    self.order = order
    self.start = start
    self.cue = cue
    self.text = text
    self.matches = matches
  }
}

/// A transcript the search of what was said met that did not read whole: damaged (searched as far
/// as the reading got, as `stash search` warns) or not readable at all.
package struct SpokenTrouble: Hashable, Sendable {
  package var base: String
  package var unreadable: Bool

  package init(base: String, unreadable: Bool) {
    self.base = base
    self.unreadable = unreadable
  }
}

/// A search of what was said across every memo (`S`): its words and the hits found so far.
package struct SpokenSearch: Equatable, Sendable {
  package var query: String
  /// The runner's search this one is; hits of any other are ignored.
  package var generation: Int
  /// The hits, newest memo first, places in order within a memo.
  package var hits: [SpokenHit] = []
  /// The hit under the cursor of the hit list.
  package var cursor = 0
  /// How many memos `hits` are in.
  package var memoCount = 0
  /// The memos whose hits were kept from the shorter text, until the runner's answer for them
  /// replaces them.
  package var kept: Set<String> = []
  /// Transcripts searched so far, of how many; nil once the search ended.
  package var progress: BrowserModel.SearchProgress? = BrowserModel.SearchProgress(done: 0, total: 0)
  /// The cue to put the transcript cursor on once the memo `base`'s detail is read.
  package var pendingCue: (base: String, cue: Int?, at: Double)?
  /// The transcripts met that did not read whole.
  package var troubled: Set<SpokenTrouble> = []

  package static func == (a: SpokenSearch, b: SpokenSearch) -> Bool {
    a.query == b.query && a.generation == b.generation && a.hits == b.hits && a.cursor == b.cursor
      && a.memoCount == b.memoCount && a.kept == b.kept && a.progress == b.progress
      && a.troubled == b.troubled
      && a.pendingCue?.base == b.pendingCue?.base
      && a.pendingCue?.cue == b.pendingCue?.cue && a.pendingCue?.at == b.pendingCue?.at
  }

  /// Whether `text` holds `query`, both folded as the runner folds them (`SearchPattern.typed`):
  /// which hits a longer query keeps while the runner searches again.
  package static func holds(_ text: String, _ query: String) -> Bool {
    SearchPattern.typed(query)?.isFound(in: text) ?? true
  }
}

/// The search of what was said: the prompt, the hit list, Enter and `n`/`N` across memos.
extension BrowserModel {
  /// Whether the list pane shows the hits rather than the memos.
  package var showsHits: Bool { spokenSearch != nil && focus == .list }

  /// Starts a search for `text`, superseding the one running; an empty text cancels. A text that
  /// extends the last one keeps the hits that still hold it meanwhile, so the list narrows at
  /// once; the runner's new search then replaces each memo's hits as it reaches it.
  package mutating func setSpokenSearch(_ text: String) -> [BrowserEffect] {
    spokenGeneration += 1
    guard !text.isEmpty else {
      spokenSearch = nil
      return [.searchSpoken("", generation: spokenGeneration)]
    }
    var search = SpokenSearch(query: text, generation: spokenGeneration)
    if let old = spokenSearch, text.hasPrefix(old.query) {
      search.hits = old.hits.filter { SpokenSearch.holds($0.text, text) }
      var bases = Set<String>()
      for hit in search.hits { bases.insert(hit.base) }
      search.kept = bases
      search.memoCount = bases.count
    }
    spokenSearch = search
    return [.searchSpoken(text, generation: spokenGeneration)]
  }

  /// Takes a batch of hits from the runner: each memo's hits replace what was kept of it.
  mutating func receive(
    hits batch: [SpokenHit], generation: Int, done: Int, total: Int, finished: Bool,
    troubled: [SpokenTrouble] = []
  ) {
    guard var search = spokenSearch, search.generation == generation else { return }
    search.troubled.formUnion(troubled)
    if !batch.isEmpty {
      // In the list's order (newest first), whatever order the runner read the files in.
      var batch = batch
      for i in batch.indices { batch[i].order = memos.position(ofBase: batch[i].base) ?? Int.max }
      var bases: [String] = []
      for hit in batch where bases.last != hit.base { bases.append(hit.base) }
      let replaced = Set(bases).intersection(search.kept)
      search.memoCount += bases.count - replaced.count
      let current =
        search.cursor > 0 && search.hits.indices.contains(search.cursor) ? search.hits[search.cursor] : nil
      if !replaced.isEmpty {
        search.kept.subtract(replaced)
        search.hits.removeAll { replaced.contains($0.base) }
      }
      let inOrder = search.hits.last.map { last in batch.allSatisfy { $0.order >= last.order } } ?? true
      search.hits += batch
      if !inOrder || !replaced.isEmpty {
        // Stable: places within a memo keep their order.
        search.hits = search.hits.enumerated().sorted {
          ($0.element.order, $0.offset) < ($1.element.order, $1.offset)
        }.map(\.element)
        // A cursor the user moved stays on its hit as hits arrive above it.
        if let current,
          let at = search.hits.firstIndex(where: { $0.base == current.base && $0.start >= current.start })
        {
          search.cursor = at
        }
      }
    }
    search.cursor = max(0, min(search.cursor, search.hits.count - 1))
    search.progress = finished ? nil : SearchProgress(done: done, total: total)
    spokenSearch = search
  }

  /// Ends the search: the hit list goes and the runner stops.
  package mutating func cancelSpokenSearch() -> [BrowserEffect] {
    guard spokenSearch != nil else { return [] }
    return setSpokenSearch("")
  }

  /// Moves the hit list's cursor; the detail pane beside it shows the hit's memo, its transcript
  /// cursor on the hit's cue.
  mutating func moveHit(by delta: Int) -> [BrowserEffect] {
    guard var search = spokenSearch, !search.hits.isEmpty else { return [] }
    let target = Int(max(Int64(Int.min / 4), min(Int64(Int.max / 4), Int64(search.cursor) + Int64(delta))))
    search.cursor = max(0, min(search.hits.count - 1, target))
    spokenSearch = search
    return showCursorHit()
  }

  /// The detail pane beside the hit list shows the memo of the hit under the cursor, its
  /// transcript cursor on the hit's cue.
  private mutating func showCursorHit() -> [BrowserEffect] {
    guard let hit = currentHit, let at = visiblePosition(ofBase: hit.base) else { return [] }
    selection = at
    let effects = selectionChanged()
    following = false
    place(hit)
    return effects
  }

  /// Takes a batch of hits (`receive`); when the hit under the cursor is another than before (the
  /// first to arrive, or the one a narrower search left there), the detail pane beside the hit
  /// list shows it, as moving to it would.
  mutating func receiveAndShow(
    hits batch: [SpokenHit], generation: Int, done: Int, total: Int, finished: Bool,
    troubled: [SpokenTrouble]
  ) -> [BrowserEffect] {
    let before = currentHit
    receive(
      hits: batch, generation: generation, done: done, total: total, finished: finished, troubled: troubled)
    guard spokenSearch?.generation == generation, focus == .list, let now = currentHit,
      now.base != before?.base || now.cue != before?.cue || now.start != before?.start
        || now.base != selectedBase
    else { return [] }
    return showCursorHit()
  }

  /// Puts the transcript cursor on `cue` of the memo `base` (selected), now or once its detail
  /// is read.
  /// Puts the transcript cursor on `hit`'s cue (a bookmark's: the cue under its moment), once the
  /// memo's detail is read.
  private mutating func place(_ hit: SpokenHit) {
    if let detail {
      cueCursor = hit.cue ?? BrowserModel.cueIndex(in: detail.cues, at: hit.start) ?? 0
    } else {
      spokenSearch?.pendingCue = (hit.base, hit.cue, hit.start)
    }
  }

  /// Enter on a hit: opens its memo at the hit's cue and plays from where the words start.
  mutating func playHit() -> [BrowserEffect] {
    guard let hit = currentHit else { return [] }
    var effects = show(hit)
    guard selectedBase == hit.base else { return effects }
    following = true
    if playerHoldsSelection {
      jump(to: hit.start)
      return effects + [.seek(hit.start)]
    }
    if let row = selectedRow, let refusal = playRefusal(row) {
      sayCannotPlay(refusal)
      return effects
    }
    effects.append(.play(base: hit.base, from: hit.start))
    return effects
  }

  /// `n`/`N` while a search is active: the next or previous hit, across memos.
  mutating func stepHit(forward: Bool) -> [BrowserEffect] {
    guard let search = spokenSearch else { return [] }
    guard !search.hits.isEmpty else {
      message = StyledLine("Nothing found for “\(search.query)” yet.", .dim)
      return []
    }
    // From the transcript, the step goes from the hit shown; from the list, the cursor's hit is
    // the first one `n` goes to.
    let count = search.hits.count
    let next = focus == .list ? search.cursor : (search.cursor + (forward ? 1 : count - 1)) % count
    spokenSearch?.cursor = next
    let wrapped = focus != .list && (forward ? next < search.cursor : next > search.cursor)
    let effects = show(search.hits[next])
    following = false
    message = StyledLine("Hit \(next + 1) of \(count)" + (wrapped ? " (wrapped)" : ""), .dim)
    return effects
  }

  /// The hit under the hit list's cursor.
  package var currentHit: SpokenHit? {
    guard let search = spokenSearch, search.hits.indices.contains(search.cursor) else { return nil }
    return search.hits[search.cursor]
  }

  /// Selects the hit's memo (clearing a filter that hides it) with the transcript cursor on the
  /// hit's cue, and gives the transcript the keys.
  private mutating func show(_ hit: SpokenHit) -> [BrowserEffect] {
    var effects: [BrowserEffect] = []
    if visiblePosition(ofBase: hit.base) == nil, !filter.isEmpty { effects += setFilter("") }
    guard let at = visiblePosition(ofBase: hit.base) else {
      message = StyledLine("That memo is no longer in the folder.", .warning)
      return effects
    }
    selection = at
    effects += selectionChanged()
    focus = .transcript
    place(hit)
    return effects
  }

  /// A detail just read: puts the transcript cursor on the hit's cue, if it was waiting for it.
  mutating func placePendingCue(base: String) {
    guard let pending = spokenSearch?.pendingCue, pending.base == base else { return }
    cueCursor = pending.cue ?? detail.flatMap { BrowserModel.cueIndex(in: $0.cues, at: pending.at) } ?? 0
    spokenSearch?.pendingCue = nil
  }

  /// `n` and a noun, the noun with an s unless `n` is 1: "1 hit", "3 hits".
  package static func counted(_ n: Int, _ noun: String) -> String {
    "\(grouped(n)) \(noun)\(n == 1 ? "" : "s")"
  }

  /// What the running search of what was said has done, for the status line.
  var spokenWorkStatus: String? {
    guard let p = spokenSearch?.progress else { return nil }
    return p.total > 0
      ? "searching what was said: \(BrowserModel.grouped(p.done)) of \(BrowserModel.grouped(p.total))…"
      : "searching what was said…"
  }
}
