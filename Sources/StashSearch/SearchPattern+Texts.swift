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
    let found = matches(in: folded)
    // The texts' scalars as joined (for the accents a match's last letter carries).
    var joinedScalars: [Unicode.Scalar] = []
    if !found.isEmpty {
      for (index, text) in texts.enumerated() {
        if index > 0 { joinedScalars.append(" ") }
        joinedScalars += text.unicodeScalars
      }
    }
    return found.compactMap { range in
      let joined = MemoSearch.original(range, origin, in: joinedScalars)
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
    let foldsCase = folding.foldsCase
    let dropsPunctuation = folding.dropsPunctuation
    if case .words(let needle) = kind, !wholeWords,
      let found = text.utf8.withContiguousStorageIfAvailable({
        Self.find(needle, inASCII: $0, foldingCase: foldsCase, droppingPunctuation: dropsPunctuation)
      }),
      let found
    {
      return found
    }
    var folding = self.folding
    return !matches(in: folding.fold(text)).isEmpty
  }

  /// Whether `needle` (folded) is in `bytes`, decided without folding them into a new text (the
  /// filter asks this of every name in the list at each key): nil, for the fold to decide, unless
  /// the needle and the bytes are ASCII and the bytes' only white space is single spaces (and,
  /// `droppingPunctuation`, they hold no punctuation), whose fold is the bytes themselves,
  /// lower-cased when folding case.
  static func find(
    _ needle: [UInt32], inASCII bytes: UnsafeBufferPointer<UInt8>, foldingCase: Bool,
    droppingPunctuation: Bool
  ) -> Bool? {
    guard let first = needle.first, first < 0x80 else { return nil }
    var afterSpace = false
    for byte in bytes {
      let isSpace = byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
      if byte >= 0x80 || (isSpace && (byte != 0x20 || afterSpace)) { return nil }
      // Punctuation the fold makes a space: the fold decides.
      if droppingPunctuation && SearchFolding.isPunctuation(UInt32(byte)) { return nil }
      afterSpace = isSpace
    }
    guard needle.allSatisfy({ $0 < 0x80 }) else { return false }
    @inline(__always) func folded(_ byte: UInt8) -> UInt32 {
      UInt32(foldingCase && byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
    }
    guard needle.count <= bytes.count else { return false }
    for start in 0...(bytes.count - needle.count) where folded(bytes[start]) == first {
      if (1..<needle.count).allSatisfy({ folded(bytes[start + $0]) == needle[$0] }) { return true }
    }
    return false
  }
}
