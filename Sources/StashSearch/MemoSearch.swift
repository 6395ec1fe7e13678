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
    if let title, pattern.mayMatch(title: title) {
      var folded: [UInt32] = []
      var origin: [Int32] = []
      folding.fold(title, into: &folded, origin: &origin)
      for range in pattern.matches(in: folded).prefix(limit) {
        hits.append(
          SearchHit(
            place: .title, text: title, match: original(range, origin), cueStart: nil, cueEnd: nil, start: nil
          ))
      }
    }
    guard let document, hits.count < limit, !document.cues.isEmpty else { return hits }
    let spoken = SpokenText(document)
    var folded: [UInt32] = []
    var origin: [Int32] = []
    folded.reserveCapacity(spoken.text.utf8.count)
    origin.reserveCapacity(spoken.text.utf8.count)
    folding.fold(spoken.text, into: &folded, origin: &origin)
    for range in pattern.matches(in: folded) {
      guard hits.count < limit else { break }
      let matched = original(range, origin)
      let (first, last) = (
        spoken.cue(at: matched.lowerBound), spoken.cue(at: max(matched.lowerBound, matched.upperBound - 1))
      )
      let shown = spoken.cueRanges[first].lowerBound..<spoken.cueRanges[last].upperBound
      let scalars = spoken.text.unicodeScalars
      let from = scalars.index(scalars.startIndex, offsetBy: shown.lowerBound)
      let to = scalars.index(from, offsetBy: shown.count)
      hits.append(
        SearchHit(
          place: .cues(first: first, last: last), text: String(scalars[from..<to]),
          match: matched.lowerBound - shown.lowerBound..<matched.upperBound - shown.lowerBound,
          cueStart: spoken.cues[first].start, cueEnd: spoken.cues[last].end,
          start: spoken.time(at: matched.lowerBound)))
    }
    return hits
  }

  /// A range of folded scalars as the range of original scalars they came from.
  static func original(_ range: Range<Int>, _ origin: [Int32]) -> Range<Int> {
    Int(origin[range.lowerBound])..<Int(origin[range.upperBound - 1]) + 1
  }
}
