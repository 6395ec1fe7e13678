import StashBrowser
import StashFormat
import StashSearch

/// The search of what was said (`S`), run on the runner's worker: the library's `FolderSearch`
/// over its transcripts, narrowed as the text grows (`FolderSearchNarrowing`), its hits posted in
/// batches as they are found, as the list shows them.
final class SpokenSearchWork: Sendable {
  /// Transcripts searched between two progress reports when nothing is found.
  static let progressStep = 250
  /// Seconds between two batches of hits (the first goes as soon as it is found).
  static let batchInterval = 0.05

  private let narrowing = FolderSearchNarrowing()

  /// A search that knows nothing yet.
  init() {}

  /// Searches the transcripts of `library`'s last reading for `query`. `isCurrent` is asked
  /// between memos; once it says false the search stops without a word (a newer one superseded
  /// it). `post` gets each batch: the hits found since the last, how many memos were searched, of
  /// how many, whether this is the end, and the transcripts met since that did not read whole.
  func run(
    _ query: String, in library: MemoLibrary, isCurrent: () -> Bool,
    post: (_ hits: [SpokenHit], _ done: Int, _ total: Int, _ finished: Bool, _ troubled: [SpokenTrouble]) ->
      Void
  ) {
    guard let pattern = SearchPattern.typed(query),
      let search = library.search(pattern, scope: .spoken, wanted: .places(.max))
    else {
      post([], 0, 0, true, [])
      return
    }
    let clock = ContinuousClock()
    var pending: [SpokenHit] = []
    var troubled: [SpokenTrouble] = []
    var posted: ContinuousClock.Instant?
    var sinceReport = 0
    var total = 0
    let finished = narrowing.run(query, search, isCurrent: isCurrent) { found, done, all in
      total = all
      if let found {
        pending += SpokenSearchWork.hits(found)
        if found.error != nil || found.warning != nil {
          troubled.append(SpokenTrouble(base: found.candidate.base, unreadable: found.error != nil))
        }
      }
      sinceReport += 1
      let now = clock.now
      let due = posted.map { now - $0 >= .seconds(SpokenSearchWork.batchInterval) } ?? true
      if (!pending.isEmpty && due) || sinceReport >= SpokenSearchWork.progressStep {
        post(pending, done, all, false, troubled)
        (pending, troubled, posted, sinceReport) = ([], [], now, 0)
      }
    }
    if finished { post(pending, total, total, true, troubled) }
  }

  /// A memo's hits as the list shows them, a hit a line as `stash search` prints them
  /// (`SearchHit.lines`: matches at one time in one cue are one hit); a bookmark's note is one
  /// too, at its moment, with no cue of its own.
  static func hits(_ found: FolderSearch.Found) -> [SpokenHit] {
    SearchHit.lines(found.hits).compactMap { line -> SpokenHit? in
      let hit = line[line.startIndex]
      let cue: Int?
      switch hit.place {
      case .cues(let first, _): cue = first
      case .bookmark: cue = nil
      case .title: return nil
      }
      return SpokenHit(
        base: found.candidate.base, order: found.position, start: hit.start ?? hit.cueStart ?? 0, cue: cue,
        text: hit.text, matches: line.map(\.match))
    }
  }
}
