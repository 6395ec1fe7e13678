import StashFormat

/// A search run again at every key typed (the browser's `S`), remembering what its last run
/// learnt so a longer text does not start over: every memo before `reached` that is not in
/// `candidates` cannot hold the last text, so cannot hold a longer one (the folding keeps
/// prefixes). Used from one thread at a time (hence `@unchecked Sendable`).
package final class FolderSearchNarrowing: @unchecked Sendable {
  private var query = ""
  /// The listing the last search was over (its folder held open, one per listing): held, so
  /// another listing's is never taken for it.
  private var listing: OpenFolder?
  private var reached = 0
  private var candidates: [Int] = []

  /// A search that knows nothing yet.
  package init() {}

  /// Searches with `search`, made for `query`. When `query` extends the last text searched over
  /// the same listing, only the memos that held the last text are searched again, then those it
  /// had not reached. `isCurrent` is asked between memos; once it says false the search stops
  /// (a newer one superseded it), keeping what it learnt, and this returns false. `look` is told
  /// of each memo looked at: what it gave (nil for nothing), how many were looked at, of how many.
  @discardableResult
  package func run(
    _ query: String, _ search: FolderSearch, isCurrent: () -> Bool,
    look: (_ found: FolderSearch.Found?, _ done: Int, _ total: Int) -> Void
  ) -> Bool {
    let listing = search.order.opened
    if self.query.isEmpty || !query.hasPrefix(self.query) || listing !== self.listing {
      (self.listing, reached, candidates) = (listing, 0, [])
    }
    self.query = query
    // The memos to look at, in order: the last search's candidates, then those past its reach.
    let again = candidates
    let total = again.count + search.count - reached
    var kept: [Int] = []
    var done = 0
    func visit(_ index: Int) {
      let found = search.found(visit: index)
      if found.map({ !$0.hits.isEmpty }) == true { kept.append(index) }
      done += 1
      look(found, done, total)
    }
    for (position, index) in again.enumerated() {
      guard isCurrent() else {
        // Stopped: those not looked at again still may hold the text.
        candidates = kept + again[position...]
        return false
      }
      visit(index)
    }
    while reached < search.count {
      guard isCurrent() else {
        candidates = kept
        return false
      }
      visit(reached)
      reached += 1
    }
    candidates = kept
    return true
  }
}
