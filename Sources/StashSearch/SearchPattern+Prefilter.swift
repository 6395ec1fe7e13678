extension SearchPattern {
  /// Whether a transcript whose bytes are `bytes` may hold a match, decided without parsing it:
  /// false only when it certainly holds none. It decides only for a file that is all ASCII with no
  /// character reference (`&`), whose spoken text is then its bytes without tags, with case folded
  /// as ASCII case: each word of the pattern must be in those bytes. Any other file (and any
  /// regular expression) may match, and is parsed. Most transcripts hold no match, and this pass
  /// costs a fraction of a parse.
  package func mayMatch(_ bytes: [UInt8]) -> Bool {
    guard case .words(let folded) = kind else { return true }
    return bytes.withUnsafeBufferPointer { raw in
      var text: [UInt8] = []
      text.reserveCapacity(raw.count)
      var inTag = false
      for byte in raw {
        if byte >= 0x80 || byte == 0x26 { return true }
        if inTag {
          if byte == 0x3E { inTag = false }
          continue
        }
        if byte == 0x3C {
          inTag = true
          continue
        }
        text.append(folding.foldsCase && byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
      }
      // An ASCII file cannot hold a pattern that folds to anything else.
      guard folded.allSatisfy({ $0 < 0x80 }) else { return false }
      var word: [UInt8] = []
      for value in folded + [0x20] {
        if value != 0x20 {
          word.append(UInt8(value))
          continue
        }
        if !word.isEmpty && Self.firstIndex(of: word, in: text, from: 0) == nil { return false }
        word.removeAll(keepingCapacity: true)
      }
      return true
    }
  }
}
