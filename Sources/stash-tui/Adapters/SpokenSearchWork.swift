import StashBrowser
import StashFormat
import StashSearch

/// The search of what was said (`S`), run on the runner's worker: every transcript, in the
/// library's order (newest first for dated bases), through `StashSearch`'s matcher, with the
/// same folding as `stash search` (case and accents). Hits go out in batches as they are found.
enum SpokenSearchWork {
  /// Transcripts searched between two progress reports when nothing is found.
  static let progressStep = 250
  /// Seconds between two batches of hits (the first goes as soon as it is found).
  static let batchInterval = 0.05

  /// Searches `files` for `query`. `isCurrent` is asked between files; once it says false the
  /// search stops without a word (a newer one superseded it). `post` gets each batch: the hits
  /// found since the last, how many files were searched, of how many, and whether this is the end.
  static func run(
    _ query: String, in files: [TranscriptFile], isCurrent: () -> Bool,
    post: (_ hits: [SpokenHit], _ done: Int, _ total: Int, _ finished: Bool) -> Void
  ) {
    guard
      let pattern = try? SearchPattern(
        query, regex: false, wholeWords: false,
        folding: SearchFolding(caseSensitive: false, keepAccents: false))
    else {
      post([], 0, files.count, true)
      return
    }
    let clock = ContinuousClock()
    var pending: [SpokenHit] = []
    var posted: ContinuousClock.Instant?
    var sinceReport = 0
    for (index, file) in files.enumerated() {
      guard isCurrent() else { return }
      pending += hits(in: file, order: index, pattern)
      sinceReport += 1
      let now = clock.now
      let due = posted.map { now - $0 >= .seconds(batchInterval) } ?? true
      if (!pending.isEmpty && due) || sinceReport >= progressStep {
        post(pending, index + 1, files.count, false)
        pending = []
        posted = now
        sinceReport = 0
      }
    }
    post(pending, files.count, files.count, true)
  }

  /// The hits in one transcript (the title is not searched: the list shows it, and `/` filters
  /// by it). A transcript that cannot be read gives none; a damaged one gives what it holds.
  static func hits(in file: TranscriptFile, order: Int, _ pattern: SearchPattern) -> [SpokenHit] {
    guard let bytes = try? ReadOnlyFile.contents(of: file.path, limit: 64 << 20), pattern.mayMatch(bytes)
    else { return [] }
    let document = WebVTTParser.parse(bytes)
    return MemoSearch.hits(pattern, title: nil, document: document).compactMap { hit in
      guard case .cues(let first, _) = hit.place else { return nil }
      return SpokenHit(
        base: file.base, order: order, start: hit.start ?? hit.cueStart ?? 0, cue: first, text: hit.text,
        match: hit.match)
    }
  }
}
