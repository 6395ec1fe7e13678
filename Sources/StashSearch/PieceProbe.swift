#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The longest piece of a pattern of ASCII words (a run of letters and digits, which any match
/// holds), made ready once to be looked for in the bytes of many transcripts: `certainlyAbsent`
/// passes over most of them without reading their spoken text.
struct PieceProbe: Sendable {
  /// The piece, lower case when the folding folds case.
  let piece: [UInt8]
  /// The offsets in the piece of its two rarest letters, which are looked for first.
  let first, second: Int
  /// The case bit of each byte of the piece (0x20 for a letter when folding case, else 0): a
  /// byte matches when it equals the piece's with this bit set.
  let fold: [UInt8]
  /// The folded pattern before the piece and after it (`mayBeMatch`); empty for a pattern that
  /// is the piece alone.
  var before: [UInt8] = []
  var after: [UInt8] = []
  /// Whether the text is read with its ASCII case folded, and with its punctuation as white
  /// space (a plain search's folding).
  let foldingCase: Bool
  var dropsPunctuation = false

  /// English letters from the most common to the least: a piece is looked for by its rarest two.
  private static let letterOrder = Array("etaoinshrdlcumwfgypbvkjxqz".utf8)

  /// A probe for `piece` (letters and digits, not empty).
  init(_ piece: [UInt8], foldingCase: Bool) {
    func rarity(_ byte: UInt8) -> Int {
      Self.letterOrder.firstIndex(of: byte | 0x20) ?? Self.letterOrder.count
    }
    self.piece = piece
    self.foldingCase = foldingCase
    let ranked = piece.indices.sorted { rarity(piece[$0]) > rarity(piece[$1]) }
    (first, second) = (ranked[0], ranked.count > 1 ? ranked[1] : ranked[0])
    fold = piece.map { byte in
      foldingCase && (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A ? 0x20 : 0
    }
  }

  /// The probe for the longest piece of the folded pattern `folded`, or nil when the pattern is
  /// not all ASCII or has no letter or digit; `dropsPunctuation` as the folding says.
  init?(pattern folded: [UInt32], foldingCase: Bool, dropsPunctuation: Bool = false) {
    guard folded.allSatisfy({ $0 < 0x80 }) else { return nil }
    var best: Range<Int> = 0..<0
    var start = 0
    for index in 0...folded.count {
      if index < folded.count, Self.isWordByte(UInt8(folded[index])) { continue }
      if index - start > best.count { best = start..<index }
      start = index + 1
    }
    guard !best.isEmpty else { return nil }
    self.init(folded[best].map { UInt8($0) }, foldingCase: foldingCase)
    before = folded[..<best.lowerBound].map { UInt8($0) }
    after = folded[best.upperBound...].map { UInt8($0) }
    self.dropsPunctuation = dropsPunctuation
  }

  @inline(__always) static func isWordByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
  }

  /// Whether an all-ASCII transcript certainly holds no match, decided from its bytes as they
  /// are, which is much quicker than reading its spoken text: a match holds the piece, and in
  /// spoken text a run of letters and digits comes from one line of the file, unbroken but for
  /// tags. So when the bytes (case folded as ASCII when folding case) do not hold the piece, no
  /// tag stands between two letters or digits, every reference is one of the ASCII ones (none
  /// stands for a letter or digit) and there is no ruby text, no match can be there. False
  /// whenever it cannot be sure: a byte above ASCII or a NUL (other scripts fold to letters), the
  /// piece in the bytes, a tag inside a word, another reference.
  /// With `accept`, also when it says no place of the piece holds a match (`scan`).
  func certainlyAbsent(in raw: UnsafeBufferPointer<UInt8>, accept: ((Int) -> Bool)? = nil) -> Bool {
    guard let base = raw.baseAddress, !raw.isEmpty else { return true }
    return scan(UnsafeRawPointer(base), count: raw.count, accept: accept) == .absent
  }

  /// What one pass over a file's bytes found: the piece; else a byte that makes the file one the
  /// quick scan does not decide (above ASCII, or a NUL); else a tag or reference that might join
  /// letters or digits into a run the bytes do not show (`Joins`); else none of these.
  enum ScanResult: Hashable {
    case found, notASCII, joined, absent
  }

  /// Looks for the piece in the `count` bytes at `text` (ASCII case folded when folding case), for
  /// a byte above ASCII or a NUL, and for a tag or reference that might join words, in one pass
  /// that stops when it finds the piece. Sixteen places at a time: the piece's two rarest
  /// letters, each at its offset, both matching (a letter compared with its case bit set, which
  /// only its two cases have), then the whole piece where both do. A `&`, a `<` after a letter or
  /// digit, and a `<r` are looked at by `Joins.at` where the step finds one: a phone's
  /// transcript has a `<` every fifty bytes or so, nearly all after a space (an inline timestamp
  /// before a word), and finding each of them on its own (memchr from one to the next) cost more
  /// than this whole pass.
  ///
  /// With `accept`, a piece found at an offset counts only where `accept` says a match may be
  /// there (`mayBeMatch`): the scan goes on past the others, so a file holding the piece but never
  /// the pattern's other words beside it can be `absent`. Sound only when `accept` says no only of
  /// places that hold no match.
  func scan(_ text: UnsafeRawPointer, count: Int, accept: ((Int) -> Bool)? = nil) -> ScanResult {
    let (piece, fold) = (self.piece, self.fold)
    let raw = UnsafeBufferPointer(start: text.assumingMemoryBound(to: UInt8.self), count: count)
    func matches(at start: Int) -> Bool {
      for m in 0..<piece.count
      where text.load(fromByteOffset: start + m, as: UInt8.self) | fold[m] != piece[m] {
        return false
      }
      return accept?(start) ?? true
    }
    /// Whether the byte at `index` is a `<` or `&` that might join words.
    func joinsAt(_ index: Int) -> Bool {
      let byte = raw[index]
      return (byte == 0x3C || byte == 0x26) && Joins.at(index, in: raw)
    }
    typealias Lanes = SIMD16<UInt8>
    let (zero, ones) = (Lanes(repeating: 0), Lanes(repeating: 0xFF))
    /// Whether any lane is not zero (a generic reduction is a call per step; this is two words).
    @inline(__always) func anySet(_ lanes: Lanes) -> Bool {
      let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
      return words[0] | words[1] != 0
    }
    let (rare1, rare2) = (Lanes(repeating: piece[first]), Lanes(repeating: piece[second]))
    let (fold1, fold2) = (Lanes(repeating: fold[first]), Lanes(repeating: fold[second]))
    let (less, ampersand, r) = (Lanes(repeating: 0x3C), Lanes(repeating: 0x26), Lanes(repeating: 0x72))
    let slash = SIMD16<Int8>(repeating: 0x2F)
    // Every byte goes into `seen` (its top bits) and `nul` (a lane set where a byte is 0), sixteen
    // at a time from `start`, checked at the end; the piece can start at 0 through `lastStart`.
    var (seen, nul) = (zero, zero)
    // The first sixteen bytes have no byte before them in a step: looked at one by one.
    var joins = (0..<min(16, count)).contains(where: joinsAt)
    let lastStart = count - piece.count
    var start = 0
    while start + 16 <= count {
      let bytes = text.loadUnaligned(fromByteOffset: start, as: Lanes.self)
      seen |= bytes
      nul |= zero.replacing(with: ones, where: bytes .== zero)
      if start + 15 <= lastStart {
        let a = text.loadUnaligned(fromByteOffset: start + first, as: Lanes.self)
        let b = text.loadUnaligned(fromByteOffset: start + second, as: Lanes.self)
        let both =
          zero.replacing(with: ones, where: a | fold1 .== rare1)
          & zero.replacing(with: ones, where: b | fold2 .== rare2)
        if anySet(both) {
          for lane in 0..<16 where both[lane] != 0 && matches(at: start + lane) { return .found }
        }
      } else if start <= lastStart {
        // A piece longer than a step may have no place left to start in this one.
        for at in start..<min(start + 16, lastStart + 1) where matches(at: at) { return .found }
      }
      if !joins && start > 0 {
        // Each byte beside the one before it: a `&`, a `<` after a byte that may be a letter or
        // digit (one above `/`, compared as signed: a byte above ASCII ends the scan's say
        // anyway), an `r` after a `<` (the `<` is then the lane before).
        let before = text.loadUnaligned(fromByteOffset: start - 1, as: Lanes.self)
        let flagged =
          (bytes .== ampersand)
          .| ((bytes .== less) .& (unsafeBitCast(before, to: SIMD16<Int8>.self) .> slash))
          .| ((before .== less) .& (bytes .== r))
        if anySet(zero.replacing(with: ones, where: flagged)) {
          for lane in 0..<16 where flagged[lane] {
            if joinsAt(start + lane) || joinsAt(start + lane - 1) {
              joins = true
              break
            }
          }
        }
      }
      start += 16
    }
    var tail: UInt8 = 0
    for index in start..<count {
      let byte = text.load(fromByteOffset: index, as: UInt8.self)
      tail |= byte
      if byte == 0 { return .notASCII }
    }
    if anySet(seen & Lanes(repeating: 0x80)) || anySet(nul) || tail >= 0x80 { return .notASCII }
    if start <= lastStart {
      for at in start...lastStart where matches(at: at) { return .found }
    }
    // The bytes after the last step, and the last byte of that step (a `<` before an `r`).
    joins = joins || (max(0, start - 1)..<count).contains(where: joinsAt)
    return joins || Joins.tagLeftOpen(raw) ? .joined : .absent
  }

  /// Whether the pattern may match where the piece was found at `at` in `raw`: false only when
  /// the line around it, read as the spoken text reads it (tags dropped, white space and, when
  /// dropped, punctuation as one space, ASCII case folded), certainly differs from the pattern
  /// just before or just after the piece. Each way gives up (may) where a line ends and at what it
  /// cannot read plainly: a reference, ruby text, a byte above ASCII or a NUL; reading back, any
  /// `<`, `>` or `;` (a `>` may end a tag or be said, a `;` end a reference or be said). Sound
  /// only for a file whose spoken pieces all stand in its bytes as they are (no tag or reference
  /// joins words), as `scan` makes sure. Without `markup` (a title), every byte is text, a line
  /// break white space.
  func mayBeMatch(at: Int, in raw: UnsafeBufferPointer<UInt8>, markup: Bool = true) -> Bool {
    @inline(__always) func unreadable(_ byte: UInt8) -> Bool {
      byte == 0 || byte >= 0x80 || (markup && (byte == 0x0A || byte == 0x0D || byte == 0x26))
    }
    /// Whether `byte`, read as the spoken text reads it, is `pattern[k]` (nothing, and true, for
    /// white space after white space); `k` moves on by `step` past what it read.
    @inline(__always) func reads(
      _ byte: UInt8, as pattern: [UInt8], at k: inout Int, step: Int, spaced: inout Bool
    ) -> Bool {
      let value = folded(byte)
      let space = readsAsSpace(value)
      if space && spaced { return true }
      spaced = space
      guard pattern[k] == (space ? 0x20 : value) else { return false }
      k += step
      return true
    }
    // After the piece, whose last byte is a letter or digit.
    var index = at + piece.count
    var k = 0
    var spaced = false
    forward: while k < after.count && index < raw.count {
      let byte = raw[index]
      if unreadable(byte) { break forward }
      if markup && byte == 0x3C {
        // A tag, to its `>` on this line; ruby text is no spoken text.
        guard index + 1 < raw.count, raw[index + 1] != 0x72 else { break forward }
        var end = index + 1
        while end < raw.count && raw[end] != 0x3E {
          if raw[end] == 0x0A || raw[end] == 0x0D { break forward }
          end += 1
        }
        guard end < raw.count else { break forward }
        index = end + 1
        continue
      }
      index += 1
      guard reads(byte, as: after, at: &k, step: 1, spaced: &spaced) else { return false }
    }
    // Before the piece, whose first byte is a letter or digit: a run of white space reads as one
    // space (the line before, or the cue's start, ends in one too).
    index = at - 1
    k = before.count - 1
    spaced = false
    while k >= 0 && index >= 0 {
      let byte = raw[index]
      if unreadable(byte) || (markup && (byte == 0x3C || byte == 0x3E || byte == 0x3B)) { break }
      index -= 1
      guard reads(byte, as: before, at: &k, step: -1, spaced: &spaced) else { return false }
    }
    guard markup, k >= 0, index >= 0, raw[index] == 0x3E else { return true }
    return lineBeforeMayHold(at: at, from: index, in: raw)
  }

  /// `byte` as the spoken text is searched: ASCII case folded when folding case.
  @inline(__always) private func folded(_ byte: UInt8) -> UInt8 {
    foldingCase && byte &- 0x41 < 26 ? byte | 0x20 : byte
  }

  /// Whether the folded byte `value` reads as a space: white space, and punctuation when dropped.
  @inline(__always) private func readsAsSpace(_ value: UInt8) -> Bool {
    value == 0x20 || (value >= 0x09 && value <= 0x0D)
      || (dropsPunctuation && SearchFolding.isPunctuation(UInt32(value)))
  }

  /// Whether the spoken text of the line before the piece found at `at` may end as the pattern's
  /// `before` does: the line read from its start (reading back cannot tell a tag's `>` from one
  /// said), after the space every line follows. True where the line cannot be read plainly: a
  /// reference, ruby text, a `>` outside a tag (said, or ending a tag opened on the line before).
  private func lineBeforeMayHold(at: Int, from index: Int, in raw: UnsafeBufferPointer<UInt8>) -> Bool {
    var start = index
    while start > 0 && raw[start - 1] != 0x0A && raw[start - 1] != 0x0D { start -= 1 }
    /// The line's spoken bytes before the piece, in order, to `body`; false where it cannot say.
    func read(_ body: (UInt8) -> Void) -> Bool {
      var inTag = false
      var spaced = true
      for position in start..<at {
        let byte = raw[position]
        if inTag {
          inTag = byte != 0x3E
          continue
        }
        if byte == 0x3C {
          guard position + 1 < raw.count, raw[position + 1] != 0x72 else { return false }
          inTag = true
          continue
        }
        if byte == 0x3E || byte == 0x26 || byte == 0 || byte >= 0x80 { return false }
        let value = folded(byte)
        if readsAsSpace(value) {
          if !spaced { body(0x20) }
          spaced = true
        } else {
          body(value)
          spaced = false
        }
      }
      return !inTag
    }
    var said = 0
    guard read({ _ in said += 1 }) else { return true }
    // The space before the line and what it says, against as much of the end of `before`.
    let compared = min(before.count, said + 1)
    let from = said + 1 - compared
    var place = 0
    var differs = false
    func check(_ value: UInt8) {
      if place >= from && before[before.count - compared + place - from] != value { differs = true }
      place += 1
    }
    check(0x20)
    _ = read(check)
    return !differs
  }
}

/// Where a tag or a reference might join letters or digits into a run the bytes do not show: a
/// tag (or run of tags) with a letter or digit on both sides, a tag left open, ruby text (left out
/// of spoken text, so what is around it joins), or a reference other than the ASCII ones. It may
/// say so where none can (a `<r` of any tag, a `&` inside a tag): the file is then read as spoken
/// text, which decides. `PieceProbe.scan` finds where to look.
enum Joins {
  /// Whether the `<` or `&` at `index` might join words.
  @inline(__always)
  static func at(_ index: Int, in raw: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = raw.count
    if raw[index] == 0x26 { return SearchPattern.asciiReference(raw, at: index + 1) == nil }
    if index + 1 < count && raw[index + 1] == 0x72 { return true }
    guard index > 0, PieceProbe.isWordByte(raw[index - 1]) else { return false }
    // A run of tags after a letter or digit, one right after another: joins when a letter or
    // digit follows it.
    var (tag, end) = (index, index)
    repeat {
      if tag + 1 < count && raw[tag + 1] == 0x72 { return true }
      end = tag + 1
      while end < count && raw[end] != 0x3E { end += 1 }
      guard end < count else { return true }
      tag = end + 1
    } while tag < count && raw[tag] == 0x3C
    return end + 1 < count && PieceProbe.isWordByte(raw[end + 1])
  }

  /// Whether the last `<` has no `>` after it (from the end, the first of the two met is a `<`).
  static func tagLeftOpen(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = raw.count - 1
    while index >= 0 && raw[index] != 0x3E {
      if raw[index] == 0x3C { return true }
      index -= 1
    }
    return false
  }
}
