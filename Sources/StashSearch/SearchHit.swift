/// One place a pattern was found in a memo: in its title, in a bookmark's note, or in its
/// transcript, where the words that match start.
package struct SearchHit: Sendable, Equatable {
  /// Where the hit is.
  package enum Place: Sendable, Equatable {
    /// In the title.
    case title
    /// In the transcript, in cues `first` through `last` (more than one when the match runs from a
    /// cue into the next).
    case cues(first: Int, last: Int)
    /// In the note of the memo's bookmark `index` (in time order, FORMAT.md §8).
    case bookmark(Int)
  }

  package var place: Place
  /// The line shown: the title, the bookmark's note, or the text of the cues the match is in,
  /// joined by spaces.
  package var text: String
  /// The match, in Unicode scalars of `text`.
  package var match: Range<Int>
  /// For a transcript hit: the first cue's start and the last cue's end, in seconds.
  package var cueStart: Double?
  package var cueEnd: Double?
  /// For a transcript hit: when the matching words start (an inline timestamp's time where the
  /// cue has them, else the cue's start); for a bookmark's, the bookmark's moment.
  package var start: Double?
}

extension SearchHit.Place {
  /// Where the hit is, as `stash search --json` says it (`in`): `title`, `bookmark` or `transcript`.
  package var key: String {
    switch self {
    case .title: "title"
    case .bookmark: "bookmark"
    case .cues: "transcript"
    }
  }
}

extension SearchHit {
  /// `hits` (of one memo, in order) as the lines they are shown on: those one after another at
  /// the same place and time, with the same text (a cue without word timestamps that says the
  /// words more than once), share a line, as grep shows a line once with every match in it.
  package static func lines(_ hits: [SearchHit]) -> [ArraySlice<SearchHit>] {
    var lines: [ArraySlice<SearchHit>] = []
    var first = 0
    while first < hits.count {
      let hit = hits[first]
      var end = first + 1
      while end < hits.count, hits[end].place == hit.place, hits[end].start == hit.start,
        hits[end].text == hit.text
      {
        end += 1
      }
      lines.append(hits[first..<end])
      first = end
    }
    return lines
  }
}

extension SearchHit {
  /// Unicode scalars of context kept on each side of a match in `stash search --json`'s `text`.
  package static let contextScalars = 80

  /// The hit with its text cut to at most `context` scalars before and after the match, at a
  /// space where one is near (within a quarter of `context`), each cut marked with `…`; the match
  /// moved with it. A text that already fits is left whole: a cue of megabytes is not repeated
  /// for each of its hits.
  package func bounded(context: Int = contextScalars) -> SearchHit {
    let scalars = Array(text.unicodeScalars)
    var from = max(0, match.lowerBound - context)
    var to = min(scalars.count, match.upperBound + context)
    guard from > 0 || to < scalars.count else { return self }
    let slack = max(1, context / 4)
    if from > 0, let space = (from..<min(from + slack, match.lowerBound)).first(where: { scalars[$0] == " " })
    {
      from = space + 1
    }
    if to < scalars.count,
      let space = (max(match.upperBound, to - slack)..<to).reversed().first(where: { scalars[$0] == " " })
    {
      to = space
    }
    var cut = self
    let head: [Unicode.Scalar] = from > 0 ? ["…"] : []
    let tail: [Unicode.Scalar] = to < scalars.count ? ["…"] : []
    cut.text = String(String.UnicodeScalarView(head + scalars[from..<to] + tail))
    cut.match = (match.lowerBound - from + head.count)..<(match.upperBound - from + head.count)
    return cut
  }
}
