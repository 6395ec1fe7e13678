/// What to look for and how (`stash search`'s options): words folded as `SearchFolding` says,
/// whole words only or anywhere, or a regular expression over the folded text.
package struct SearchPattern: Sendable {
  /// How the pattern is matched.
  package enum Kind: Sendable {
    /// The words, as they are typed (white space runs matching any white space).
    case words([UInt32])
    /// A regular expression (Swift's `Regex`), over the folded text.
    case regex(String)
  }

  /// The pattern as given.
  package var text: String
  package var kind: Kind
  /// Whether a match must start and end at word boundaries.
  package var wholeWords: Bool
  /// The folding the text is searched with (the pattern was folded with it).
  package var folding: SearchFolding
  /// The pattern's longest piece, ready for the quick scan of a transcript's bytes; nil for a
  /// regular expression and a pattern of words not all ASCII or with no letter or digit.
  let probe: PieceProbe?

  /// Why a pattern cannot be used.
  package struct Problem: Error, Sendable {
    package var message: String
  }

  /// A pattern for `text`: folded as `folding` says (a regular expression is compiled and its
  /// letters matched regardless of case unless the folding keeps case). Throws for a pattern with
  /// nothing to find or a regular expression Swift cannot compile.
  package init(_ text: String, regex: Bool, wholeWords: Bool, folding: SearchFolding) throws(Problem) {
    self.text = text
    self.wholeWords = wholeWords
    self.folding = folding
    // Plain words match the words, not the punctuation between them; a regular expression
    // matches the text as written.
    self.folding.dropsPunctuation = !regex
    if regex {
      do {
        _ = try Regex(text)
      } catch {
        throw Problem(message: "'\(text)' is not a regular expression Swift can use: \(error)")
      }
      // Accents are dropped from the pattern as from the text, so `café` finds `cafe`; the case of
      // its ASCII and its syntax are left alone (`\W` is not `\w`: the regex ignores case
      // instead). A letter beyond ASCII is no syntax: its case is folded as the text's is, so
      // `straße` finds `STRASSE` (folded `strasse`), which ignoring case alone cannot.
      var keepCase = self.folding
      keepCase.foldsCase = false
      var full = self.folding
      let scalars = keepCase.fold(text).flatMap { value -> [UInt32] in
        guard folding.foldsCase, value >= 0x80, let scalar = Unicode.Scalar(value) else { return [value] }
        return full.fold(String(scalar))
      }
      kind = .regex(String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init))))
      probe = nil
    } else {
      var folded = self.folding.fold(text)
      while folded.first == 0x20 { folded.removeFirst() }
      while folded.last == 0x20 { folded.removeLast() }
      guard !folded.isEmpty else { throw Problem(message: "the pattern has no words to find") }
      kind = .words(folded)
      probe = PieceProbe(
        pattern: folded, foldingCase: folding.foldsCase, dropsPunctuation: self.folding.dropsPunctuation)
    }
  }

  /// Whether the scalar is part of a word (a letter, a mark on one, or a digit).
  static func isWordScalar(_ value: UInt32) -> Bool {
    guard let scalar = Unicode.Scalar(value) else { return false }
    let properties = scalar.properties
    return properties.isAlphabetic || properties.numericType != nil
      || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
  }

  /// Whether the scalar is a combining mark (it belongs to the character before it).
  static func isMark(_ value: UInt32) -> Bool {
    guard value >= 0x300, let scalar = Unicode.Scalar(value) else { return false }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  /// Where `needle` (not empty) first occurs in `haystack` at or after `start`, or nil: the one
  /// scan of the matcher (the prefilter's, over bytes, is `contains(_:in:)`).
  package static func firstIndex<Element: Equatable>(
    of needle: [Element], in haystack: [Element], from start: Int
  )
    -> Int?
  {
    guard let first = needle.first, start >= 0, needle.count <= haystack.count - start else { return nil }
    return haystack.withUnsafeBufferPointer { h in
      needle.withUnsafeBufferPointer { n in
        var index = start
        let last = h.count - n.count
        while index <= last {
          if h[index] == first {
            var same = true
            for k in 1..<n.count where h[index + k] != n[k] {
              same = false
              break
            }
            if same { return index }
          }
          index += 1
        }
        return nil
      }
    }
  }

  /// Every match in `text` (folded with this pattern's folding), as ranges of its scalars, in
  /// order and not overlapping.
  package func matches(in text: [UInt32]) -> [Range<Int>] {
    var found: [Range<Int>] = []
    func bounded(_ range: Range<Int>) -> Bool {
      // A match never splits a character: it neither starts on a combining mark nor stops before
      // one the folding kept (`cafe` is not in `café` when accents count, nor `か` in `が`).
      if Self.isMark(text[range.lowerBound])
        || (range.upperBound < text.count && Self.isMark(text[range.upperBound]))
      {
        return false
      }
      guard wholeWords else { return true }
      let startsWord = range.lowerBound == 0 || !Self.isWordScalar(text[range.lowerBound - 1])
      let endsWord = range.upperBound == text.count || !Self.isWordScalar(text[range.upperBound])
      return startsWord && endsWord
    }
    switch kind {
    case .words(let needle):
      var start = 0
      while let at = Self.firstIndex(of: needle, in: text, from: start) {
        let range = at..<at + needle.count
        if bounded(range) {
          found.append(range)
          start = range.upperBound
        } else {
          start = at + 1
        }
      }
    case .regex(let source):
      guard var regex = try? Regex(source) else { return [] }
      regex = regex.matchingSemantics(.unicodeScalar)
      if folding.foldsCase { regex = regex.ignoresCase() }
      let string = String(String.UnicodeScalarView(text.compactMap(Unicode.Scalar.init)))
      let scalars = string.unicodeScalars
      var offset = 0
      var index = scalars.startIndex
      for match in string.matches(of: regex) where !match.range.isEmpty {
        offset += scalars.distance(from: index, to: match.range.lowerBound)
        let length = scalars.distance(from: match.range.lowerBound, to: match.range.upperBound)
        index = match.range.upperBound
        let range = offset..<offset + length
        offset += length
        if bounded(range) { found.append(range) }
      }
    }
    return found
  }
}
