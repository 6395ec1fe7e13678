import StashBrowser
import StashFormat
import StashSearch

/// The search of what was said (`S`), run on the runner's worker: every transcript, in the
/// library's order (newest first for dated bases), through `StashSearch`'s matcher, with the
/// same folding as `stash search` (case and accents). Hits go out in batches as they are found.
final class SpokenSearchWork: @unchecked Sendable {
  /// Transcripts searched between two progress reports when nothing is found.
  static let progressStep = 250
  /// Seconds between two batches of hits (the first goes as soon as it is found).
  static let batchInterval = 0.05

  /// What the last search (finished or stopped) knows, so a longer text does not start over:
  /// every file before `reached` that is not in `candidates` cannot hold `query`. Touched only on
  /// the runner's worker queue, one search at a time (hence `@unchecked Sendable`).
  private var query = ""
  private var files: [TranscriptFile] = []
  private var reached = 0
  private var candidates: [Int] = []

  /// A search that knows nothing yet.
  init() {}

  /// Searches `files` for `query`. When `query` extends the last text searched over the same
  /// files, only the files that held the last text are searched again, then those it had not
  /// reached: a longer text is found only where the shorter one was (the folding keeps prefixes).
  /// `isCurrent` is asked between files; once it says false the search stops without a word (a
  /// newer one superseded it), keeping what it learnt. `post` gets each batch: the hits found
  /// since the last, how many files were searched, of how many, whether this is the end, and the
  /// transcripts met since that did not read whole.
  func run(
    _ query: String, in files: [TranscriptFile], isCurrent: () -> Bool,
    post: (_ hits: [SpokenHit], _ done: Int, _ total: Int, _ finished: Bool, _ troubled: [SpokenTrouble]) ->
      Void
  ) {
    guard let pattern = SearchPattern.typed(query) else {
      post([], 0, files.count, true, [])
      return
    }
    if self.query.isEmpty || !query.hasPrefix(self.query) || files != self.files {
      (self.files, reached, candidates) = (files, 0, [])
    }
    self.query = query
    // The files to look at, in order: the last search's candidates, then those past its reach.
    let again = candidates
    let total = again.count + files.count - reached
    var kept: [Int] = []
    let clock = ContinuousClock()
    var pending: [SpokenHit] = []
    var troubled: [SpokenTrouble] = []
    var posted: ContinuousClock.Instant?
    var sinceReport = 0
    var done = 0
    func look(at index: Int) {
      let (hits, trouble) = SpokenSearchWork.hits(in: files[index], order: index, pattern)
      if !hits.isEmpty { kept.append(index) }
      pending += hits
      if let trouble { troubled.append(trouble) }
      done += 1
      sinceReport += 1
      let now = clock.now
      let due = posted.map { now - $0 >= .seconds(SpokenSearchWork.batchInterval) } ?? true
      if (!pending.isEmpty && due) || sinceReport >= SpokenSearchWork.progressStep {
        post(pending, done, total, false, troubled)
        pending = []
        troubled = []
        posted = now
        sinceReport = 0
      }
    }
    for (position, index) in again.enumerated() {
      guard isCurrent() else {
        // Stopped: those not looked at again still may hold the text.
        candidates = kept + again[position...]
        return
      }
      look(at: index)
    }
    while reached < files.count {
      guard isCurrent() else {
        candidates = kept
        return
      }
      look(at: reached)
      reached += 1
    }
    candidates = kept
    post(pending, total, total, true, troubled)
  }

  /// The hits in one transcript, a hit a line as `stash search` prints them (`SearchHit.lines`:
  /// matches at one time in one cue are one hit). The title is not searched: the list shows it,
  /// and `/` filters by it. A transcript that cannot be read gives none; a damaged one gives what
  /// it holds. Either is told (`SpokenTrouble`) when `stash search` would warn of it: damage only
  /// where the transcript was read as spoken text (the quick pass may pass over a damaged one).
  static func hits(
    in file: TranscriptFile, order: Int, _ pattern: SearchPattern
  ) -> (hits: [SpokenHit], trouble: SpokenTrouble?) {
    guard let bytes = try? file.bytes() else { return ([], SpokenTrouble(base: file.base, unreadable: true)) }
    let (found, damage) = MemoSearch.hits(pattern, title: nil, transcript: bytes)
    let hits = SearchHit.lines(found).compactMap { line -> SpokenHit? in
      let hit = line[line.startIndex]
      guard case .cues(let first, _) = hit.place else { return nil }
      return SpokenHit(
        base: file.base, order: order, start: hit.start ?? hit.cueStart ?? 0, cue: first, text: hit.text,
        matches: line.map(\.match))
    }
    return (hits, damage.map { _ in SpokenTrouble(base: file.base, unreadable: false) })
  }
}
