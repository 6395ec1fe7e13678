#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension SearchPattern {
  /// For a pattern of more than its piece (a phrase), whether a place of the piece in the
  /// all-ASCII transcript `raw` may be where a match is: first its line, read on both sides of it
  /// (`PieceProbe.mayBeMatch`); where that cannot say, the spoken text of the cues around it
  /// (`spokenAround`). Nil for a pattern that is its piece alone.
  func phraseAround(_ raw: UnsafeBufferPointer<UInt8>, _ probe: PieceProbe, _ folded: [UInt32]) -> (
    (Int) -> Bool
  )? {
    guard !(probe.before.isEmpty && probe.after.isEmpty) else { return nil }
    // Blocks are found by their blank lines, which a file with a CR may also end with.
    var plainLines: Bool?
    let needle = folded.map { UInt8($0) }
    return { at in
      guard probe.mayBeMatch(at: at, in: raw) else { return false }
      if plainLines == nil {
        plainLines = raw.baseAddress.map { memchr($0, 0x0D, raw.count) == nil } ?? false
      }
      guard plainLines == true else { return true }
      return Self.spokenAround(
        at, count: probe.piece.count, in: raw, holds: needle, before: probe.before.count,
        after: probe.after.count, foldingCase: folding.foldsCase,
        droppingPunctuation: folding.dropsPunctuation)
    }
  }

  /// Whether the spoken text of the blocks around the `count` bytes at `at` (as `spokenASCII`
  /// reads them) holds `needle`, which has `before` bytes before those and `after` after: blocks
  /// are taken on each side until they say more than that, so a match there lies in them. True
  /// where a block cannot be read plainly. `raw` has no CR: a block ends at a blank line, and
  /// each block is read alone (what one says does not depend on another), so the text of a run of
  /// whole blocks is the file's spoken text there.
  static func spokenAround(
    _ at: Int, count: Int, in raw: UnsafeBufferPointer<UInt8>, holds needle: [UInt8], before: Int, after: Int,
    foldingCase: Bool, droppingPunctuation: Bool
  ) -> Bool {
    /// Whether a block starts at `index`: after a blank line, or at the start.
    func starts(_ index: Int) -> Bool {
      index == 0 || (raw[index - 1] == 0x0A && (index == 1 || raw[index - 2] == 0x0A))
    }
    func spoken(_ range: Range<Int>) -> [UInt8]? {
      spokenASCII(
        UnsafeBufferPointer(rebasing: raw[range]), foldingCase: foldingCase,
        droppingPunctuation: droppingPunctuation)
    }
    var start = at
    while !starts(start) { start -= 1 }
    var end = at + count
    while end < raw.count && !starts(end) { end += 1 }
    let (first, last) = (start, end)
    while start > 0 {
      guard let said = spoken(start..<first) else { return true }
      if said.count > before + 1 { break }
      start -= 1
      while !starts(start) { start -= 1 }
    }
    while end < raw.count {
      guard let said = spoken(last..<end) else { return true }
      if said.count > after + 1 { break }
      end += 1
      while end < raw.count && !starts(end) { end += 1 }
    }
    guard let said = spoken(start..<end) else { return true }
    return contains(needle, in: said)
  }
}
