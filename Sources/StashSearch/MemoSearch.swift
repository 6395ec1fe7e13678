import StashFormat

/// Searching one memo: its title, then its transcript's spoken text (`SpokenText`), each folded
/// as the pattern's folding says.
package enum MemoSearch {
  /// The hits in a memo whose title text is `title` and whose transcript's bytes are
  /// `transcript`, and the first error its transcript's reading met (it still gives what it
  /// holds). A transcript that certainly holds no match (`SearchPattern.mayMatch`) is not parsed,
  /// nor said to be damaged.
  package static func hits(
    _ pattern: SearchPattern, title: String?, transcript: [UInt8]?, limit: Int = .max
  ) -> (hits: [SearchHit], damage: Diagnostic?) {
    var document: WebVTTDocument?
    if let transcript, pattern.mayMatch(transcript) { document = WebVTTParser.parse(transcript) }
    let damage = document?.diagnostics.first { $0.severity == .error }
    return (hits(pattern, title: title, document: document, limit: limit), damage)
  }

  /// The hits in `title` (the memo's title text, if it has one) and `document` (its transcript,
  /// if it has one), in that order; at most `limit`.
  package static func hits(
    _ pattern: SearchPattern, title: String?, document: WebVTTDocument?, limit: Int = .max
  ) -> [SearchHit] {
    var folding = pattern.folding
    var hits: [SearchHit] = []
    if let title { hits += line(pattern, title, place: .title, start: nil, folding: &folding, limit: limit) }
    guard let document, hits.count < limit, !document.cues.isEmpty else { return hits }
    let spoken = SpokenText(document)
    var folded: [UInt32] = []
    var origin: [Int32] = []
    folded.reserveCapacity(spoken.text.utf8.count)
    origin.reserveCapacity(spoken.text.utf8.count)
    folding.fold(spoken.text, into: &folded, origin: &origin)
    // The text's scalars, taken out once a memo has a match: reaching each hit's text through the
    // string's view from its start made a memo of many hits quadratic.
    var scalars: [Unicode.Scalar] = []
    // The text shown with the last hit: the hits in one cue share it (one string, not a copy of a
    // long cue's text for each of its hits).
    var lastShown: (range: Range<Int>, text: String)?
    for range in pattern.matches(in: folded) {
      guard hits.count < limit else { break }
      if scalars.isEmpty { scalars = Array(spoken.text.unicodeScalars) }
      let matched = original(range, origin, in: scalars)
      // The words start past the white space a match may begin with (a regular expression's
      // match may start on the space that joins two cues): their cue and time are the hit's.
      var words = matched.lowerBound
      while words < matched.upperBound - 1 && scalars[words] == " " { words += 1 }
      let (first, last) = (spoken.cue(at: words), spoken.cue(at: max(words, matched.upperBound - 1)))
      // The text shown holds the whole match: from the cue before, for one starting on the space
      // that ends it.
      let from = min(spoken.cueRanges[first].lowerBound, matched.lowerBound)
      let shown = from..<spoken.cueRanges[last].upperBound
      if lastShown?.range != shown { lastShown = (shown, String(String.UnicodeScalarView(scalars[shown]))) }
      hits.append(
        SearchHit(
          place: .cues(first: first, last: last),
          text: lastShown?.text ?? "",
          match: matched.lowerBound - shown.lowerBound..<matched.upperBound - shown.lowerBound,
          cueStart: spoken.cues[first].start, cueEnd: spoken.cues[last].end,
          start: spoken.cueRanges[first].contains(words) ? spoken.time(at: words) : spoken.cues[first].start))
    }
    return hits
  }

  /// The hits in the notes of `bookmarks`, in time order; at most `limit`.
  package static func hits(_ pattern: SearchPattern, bookmarks: Bookmarks, limit: Int = .max) -> [SearchHit] {
    var folding = pattern.folding
    var hits: [SearchHit] = []
    for (index, bookmark) in bookmarks.items.enumerated() where !bookmark.note.isEmpty && hits.count < limit {
      hits += line(
        pattern, bookmark.note, place: .bookmark(index), start: bookmark.at, folding: &folding,
        limit: limit - hits.count)
    }
    return hits
  }

  /// The hits in one line of text of its own (a title, a bookmark's note) at `place`; at most `limit`.
  static func line(
    _ pattern: SearchPattern, _ text: String, place: SearchHit.Place, start: Double?,
    folding: inout SearchFolding, limit: Int
  ) -> [SearchHit] {
    guard pattern.mayMatch(title: text) else { return [] }
    var folded: [UInt32] = []
    var origin: [Int32] = []
    folding.fold(text, into: &folded, origin: &origin)
    let matches = pattern.matches(in: folded).prefix(limit)
    let scalars = matches.isEmpty ? [] : Array(text.unicodeScalars)
    return matches.map { range in
      SearchHit(
        place: place, text: text, match: original(range, origin, in: scalars), cueStart: nil, cueEnd: nil,
        start: start)
    }
  }

  /// A range of folded scalars as the range of original scalars (`scalars`) they came from, with
  /// the accents the folding dropped after its last letter: they are part of its character.
  static func original(_ range: Range<Int>, _ origin: [Int32], in scalars: [Unicode.Scalar]) -> Range<Int> {
    var upper = Int(origin[range.upperBound - 1]) + 1
    while upper < scalars.count && SearchPattern.isMark(scalars[upper].value) { upper += 1 }
    return Int(origin[range.lowerBound])..<upper
  }
}
