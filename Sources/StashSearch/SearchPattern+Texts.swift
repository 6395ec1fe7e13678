/// The pattern over texts shown one after another (the cues of a transcript as the browser shows
/// them), read as one text joined by spaces as `SpokenText` joins cues: so a phrase that runs from
/// one into the next is found there as `stash search` finds it, and marked where it is.
extension SearchPattern {
  /// What the browser looks for when a person types `query` (the `/` filter and `S`): the words
  /// anywhere, case and accents folded, as `stash search` does by default; nil when `query` has
  /// nothing to find.
  package static func typed(_ query: String) -> SearchPattern? {
    try? SearchPattern(query, regex: false, wholeWords: false, folding: SearchFolding())
  }

  /// One match in texts read one after another: the part of it in each text it touches, in
  /// order (the first is where it starts), as ranges of that text's Unicode scalars.
  package struct Place: Equatable, Sendable {
    package var parts: [(text: Int, scalars: Range<Int>)]

    package static func == (a: Place, b: Place) -> Bool {
      a.parts.elementsEqual(b.parts) { $0.text == $1.text && $0.scalars == $1.scalars }
    }
  }

  /// Every match in `texts`, joined by spaces, in order. The space that joins two texts is no
  /// part of either: a match that ends on it ends with the text before.
  package func places(in texts: [String]) -> [Place] {
    var folding = folding
    var folded: [UInt32] = []
    var origin: [Int32] = []
    // Where each text starts in the joined text, in scalars.
    var starts: [Int] = []
    var offset = 0
    for (index, text) in texts.enumerated() {
      if index > 0 {
        folding.fold(" ", into: &folded, origin: &origin, offset: offset)
        offset += 1
      }
      starts.append(offset)
      folding.fold(text, into: &folded, origin: &origin, offset: offset)
      offset += text.unicodeScalars.count
    }
    guard !texts.isEmpty else { return [] }
    func text(at scalar: Int) -> Int {
      // The last text starting at or before `scalar`.
      var (low, high) = (0, starts.count - 1)
      while low < high {
        let middle = (low + high + 1) / 2
        if starts[middle] <= scalar { low = middle } else { high = middle - 1 }
      }
      return low
    }
    return matches(in: folded).compactMap { range in
      let joined = MemoSearch.original(range, origin)
      var parts: [(text: Int, scalars: Range<Int>)] = []
      for index in text(at: joined.lowerBound)...text(at: joined.upperBound - 1) {
        let length = texts[index].unicodeScalars.count
        let from = max(joined.lowerBound - starts[index], 0)
        let to = min(joined.upperBound - starts[index], length)
        if from < to { parts.append((index, from..<to)) }
      }
      // A match of nothing but a joining space (a regular expression can make one) is nowhere.
      return parts.isEmpty ? nil : Place(parts: parts)
    }
  }

  /// Whether `text` holds a match.
  package func isFound(in text: String) -> Bool {
    var folding = folding
    return !matches(in: folding.fold(text)).isEmpty
  }
}
