#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension SearchPattern {
  /// Whether a transcript whose bytes are `bytes` may hold a match, decided without parsing it:
  /// false only when it certainly holds none. It decides for a file that is all ASCII, with no
  /// ruby text and no block it cannot read plainly, using the file's spoken text as a quick scan
  /// sees it: each cue's text lines after its timing line, the cues joined by a space, white space
  /// as one space, tags dropped, references to ASCII decoded, case folded as ASCII case. Any other
  /// file (and any regular expression) may match, and is parsed. Most transcripts hold no match,
  /// and this pass costs a fraction of a parse.
  package func mayMatch(_ bytes: [UInt8]) -> Bool {
    guard case .words(let folded) = kind else { return true }
    // An ASCII file cannot hold a pattern that folds to anything else.
    let asciiPattern = folded.allSatisfy { $0 < 0x80 }
    return bytes.withUnsafeBufferPointer { raw -> Bool in
      if asciiPattern, let piece = Self.longestPiece(of: folded),
        Self.certainlyAbsent(piece, in: raw, foldingCase: folding.foldsCase)
      {
        return false
      }
      guard var spoken = Self.spokenASCII(raw, foldingCase: folding.foldsCase) else { return true }
      guard asciiPattern else { return false }
      spoken.append(0x20)
      return Self.firstIndex(of: folded.map { UInt8($0) }, in: spoken, from: 0) != nil
    }
  }

  /// The longest run of ASCII letters and digits in a pattern of ASCII words: any match holds
  /// it. Nil when the pattern has none.
  static func longestPiece(of folded: [UInt32]) -> [UInt8]? {
    var best: Range<Int> = 0..<0
    var start = 0
    for index in 0...folded.count {
      if index < folded.count, isASCIIWordByte(UInt8(folded[index])) { continue }
      if index - start > best.count { best = start..<index }
      start = index + 1
    }
    return best.isEmpty ? nil : folded[best].map { UInt8($0) }
  }

  @inline(__always) static func isASCIIWordByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
  }

  /// Whether an all-ASCII transcript certainly holds no match, decided from its bytes as they
  /// are, which is much quicker than reading its spoken text: a match holds `piece` (letters and
  /// digits), and in spoken text a run of letters and digits comes from one line of the file,
  /// unbroken but for tags. So when the bytes (case folded as ASCII when `foldingCase`) do not
  /// hold `piece`, no tag stands between two letters or digits, every reference is one of the
  /// ASCII ones (none stands for a letter or digit) and there is no ruby text, no match can be
  /// there. False whenever it cannot be sure: a byte above ASCII or a NUL (other scripts fold to
  /// letters), the piece in the bytes, a tag inside a word, another reference.
  static func certainlyAbsent(_ piece: [UInt8], in raw: UnsafeBufferPointer<UInt8>, foldingCase: Bool) -> Bool
  {
    guard let base = raw.baseAddress, !raw.isEmpty else { return true }
    switch scan(piece, in: UnsafeRawPointer(base), count: raw.count, foldingCase: foldingCase) {
    case .found, .notASCII: return false
    case .absent: return !tagOrReferenceMayJoin(raw)
    }
  }

  /// What one pass over a file's bytes found: the piece, a byte that makes the file one the
  /// quick scan does not decide (above ASCII, or a NUL), or neither.
  enum ScanResult: Hashable {
    case found, notASCII, absent
  }

  /// English letters from the most common to the least: a piece is looked for by its rarest two.
  private static let letterOrder = Array("etaoinshrdlcumwfgypbvkjxqz".utf8)

  /// Looks for `piece` (letters and digits, lower case when `foldingCase`, not empty) in the
  /// `count` bytes at `text`, ASCII case folded when `foldingCase`, and for a byte above ASCII or
  /// a NUL, in one pass (that stops when it finds the piece). Sixteen places at a time: the piece's
  /// two rarest letters, each at its offset, both matching (a letter compared with its case bit
  /// set, which only its two cases have), then the whole piece where both do. Whether a tag or a
  /// reference could join words is left to `tagOrReferenceMayJoin`, which goes from one `<` or
  /// `&` to the next: doing it here too, sixteen bytes at a time, took twice the instructions.
  static func scan(_ piece: [UInt8], in text: UnsafeRawPointer, count: Int, foldingCase: Bool) -> ScanResult {
    func rarity(_ byte: UInt8) -> Int { letterOrder.firstIndex(of: byte | 0x20) ?? letterOrder.count }
    func caseBit(_ byte: UInt8) -> UInt8 {
      foldingCase && (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A ? 0x20 : 0
    }
    let ranked = piece.indices.sorted { rarity(piece[$0]) > rarity(piece[$1]) }
    let (first, second) = (ranked[0], ranked.count > 1 ? ranked[1] : ranked[0])
    let fold = piece.map(caseBit)
    func matches(at start: Int) -> Bool {
      for m in 0..<piece.count
      where text.load(fromByteOffset: start + m, as: UInt8.self) | fold[m] != piece[m] {
        return false
      }
      return true
    }
    typealias Lanes = SIMD16<UInt8>
    /// Whether any lane is not zero (a generic reduction is a call per step; this is two words).
    @inline(__always) func anySet(_ lanes: Lanes) -> Bool {
      let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
      return words[0] | words[1] != 0
    }
    let (rare1, rare2) = (Lanes(repeating: piece[first]), Lanes(repeating: piece[second]))
    let (fold1, fold2) = (Lanes(repeating: fold[first]), Lanes(repeating: fold[second]))
    let (zero, ones) = (Lanes(repeating: 0), Lanes(repeating: 0xFF))
    // Every byte goes into `seen` (its top bits) and `nul` (a lane set where a byte is 0), sixteen
    // at a time from `start`, checked at the end; the piece can start at 0 through `lastStart`.
    var (seen, nul) = (zero, zero)
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
      } else {
        for at in start..<min(start + 16, lastStart + 1) where matches(at: at) { return .found }
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
    return .absent
  }

  /// Whether the bytes hold something that could join letters or digits into a run the bytes do
  /// not show: a tag (or run of tags) with a letter or digit on both sides, a tag left open, ruby
  /// text (left out of spoken text, so what is around it joins), or a reference other than the
  /// ASCII ones. It may say so where none can (a `<r` of any tag, a `&` inside a tag): the file is
  /// then read as spoken text, which decides. Most `<` follow a space (an inline timestamp before
  /// a word), and are passed over without finding their `>`.
  static func tagOrReferenceMayJoin(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = raw.baseAddress, !raw.isEmpty else { return false }
    let count = raw.count
    typealias Lanes = SIMD16<UInt8>
    let (open, ampersand) = (Lanes(repeating: 0x3C), Lanes(repeating: 0x26))
    let (zero, ones) = (Lanes(repeating: 0), Lanes(repeating: 0xFF))
    let text = UnsafeRawPointer(base)
    // The next `<` or `&` at or after `start`, or `count`: sixteen bytes at a time, the first set
    // lane found from the two words of the mask.
    func next(from start: Int) -> Int {
      var at = start
      while at + 16 <= count {
        let bytes = text.loadUnaligned(fromByteOffset: at, as: Lanes.self)
        let found =
          zero.replacing(with: ones, where: bytes .== open)
          | zero.replacing(with: ones, where: bytes .== ampersand)
        let words = unsafeBitCast(found, to: SIMD2<UInt64>.self)
        if words[0] != 0 { return at + words[0].trailingZeroBitCount / 8 }
        if words[1] != 0 { return at + 8 + words[1].trailingZeroBitCount / 8 }
        at += 16
      }
      while at < count && raw[at] != 0x3C && raw[at] != 0x26 { at += 1 }
      return at
    }
    // A tag left open: the last `<` with no `>` after it (from the end, the first of the two met
    // is a `<`).
    var index = count - 1
    while index >= 0 && raw[index] != 0x3E {
      if raw[index] == 0x3C { return true }
      index -= 1
    }
    var at = next(from: 0)
    while at < count {
      if raw[at] == 0x26 {
        guard asciiReference(raw, at: at + 1) != nil else { return true }
        at = next(from: at + 1)
        continue
      }
      if at + 1 < count && raw[at + 1] == 0x72 { return true }
      guard at > 0, isASCIIWordByte(raw[at - 1]) else {
        at = next(from: at + 1)
        continue
      }
      // A run of tags after a letter or digit, one right after another: joins when a letter or
      // digit follows it.
      var tag = at
      var end = at
      repeat {
        if tag + 1 < count && raw[tag + 1] == 0x72 { return true }
        end = tag + 1
        while end < count && raw[end] != 0x3E { end += 1 }
        guard end < count else { return true }
        tag = end + 1
      } while tag < count && raw[tag] == 0x3C
      if end + 1 < count && isASCIIWordByte(raw[end + 1]) { return true }
      at = next(from: end + 1)
    }
    return false
  }

  /// The spoken text of an all-ASCII transcript as `mayMatch` reads it, or nil when the file is
  /// not one it can read plainly (a byte above ASCII or a NUL, ruby text, a reference to something
  /// other than ASCII, a block with two timing lines).
  static func spokenASCII(_ raw: UnsafeBufferPointer<UInt8>, foldingCase: Bool) -> [UInt8]? {
    // Written through a pointer: appending to an array a byte at a time was most of the scan.
    // Each byte out stands for a byte in, but for the space before the first line and after the
    // last, which may end with no line break.
    var text = [UInt8](repeating: 0x20, count: raw.count + 2)
    var count = 1
    let readable = text.withUnsafeMutableBufferPointer { out -> Bool in
      var block: [Range<Int>] = []
      // One line of the file (without its line break); an empty one ends the block before it.
      func line(_ range: Range<Int>) -> Bool {
        guard range.isEmpty else {
          block.append(range)
          return true
        }
        guard !block.isEmpty else { return true }
        defer { block.removeAll(keepingCapacity: true) }
        return appendCue(raw, block, to: out, count: &count, foldingCase: foldingCase)
      }
      if let base = raw.baseAddress, memchr(base, 0x0D, raw.count) == nil {
        // Lines end only at LF: found by memchr, after one pass (which vectorises) finds no byte
        // above ASCII and memchr no NUL.
        var high: UInt8 = 0
        for index in 0..<raw.count { high |= raw[index] }
        guard high < 0x80, memchr(base, 0, raw.count) == nil else { return false }
        var start = 0
        while start <= raw.count {
          let end =
            start < raw.count
            ? memchr(base + start, 0x0A, raw.count - start).map {
              UnsafeRawPointer($0) - UnsafeRawPointer(base)
            }
              ?? raw.count : raw.count
          guard line(start..<end) else { return false }
          start = end + 1
        }
        return block.isEmpty || appendCue(raw, block, to: out, count: &count, foldingCase: foldingCase)
      }
      var lineStart = 0
      var index = 0
      while index <= raw.count {
        let end = index == raw.count
        let byte = end ? 0x0A : raw[index]
        if !end && (byte >= 0x80 || byte == 0) { return false }
        if byte == 0x0A || byte == 0x0D {
          guard line(lineStart..<index) else { return false }
          if !end && byte == 0x0D && index + 1 < raw.count && raw[index + 1] == 0x0A { index += 1 }
          lineStart = index + 1
        }
        index += 1
      }
      return block.isEmpty || appendCue(raw, block, to: out, count: &count, foldingCase: foldingCase)
    }
    guard readable else { return nil }
    text.removeSubrange(count...)
    return text
  }

  /// Appends the cue text of `block` (its lines in `raw`) to `out` at `count`, when the block is a
  /// cue: white space folded to one space, tags dropped, references to ASCII decoded, case folded
  /// when `foldingCase`, a space after each line. Returns false when the block cannot be read
  /// plainly. A block with no timing line is no cue. One with its timing line past an id, a second
  /// timing line, or a timing line in a header, note, style or region block is read by the
  /// parser's rules for broken files: not decided here.
  static func appendCue(
    _ raw: UnsafeBufferPointer<UInt8>, _ block: [Range<Int>], to out: UnsafeMutableBufferPointer<UInt8>,
    count: inout Int, foldingCase: Bool
  ) -> Bool {
    guard let timing = block.firstIndex(where: { hasArrow(raw, $0) }) else { return true }
    guard timing <= 1, !block[(timing + 1)...].contains(where: { hasArrow(raw, $0) }),
      !blockKeywords.contains(where: { starts(raw, block[0], $0) })
    else { return false }
    var n = count
    var inTag = false
    for line in block[(timing + 1)...] {
      var at = line.lowerBound
      while at < line.upperBound {
        let byte = raw[at]
        at += 1
        if inTag {
          if byte == 0x3E { inTag = false }
          continue
        }
        // Most bytes are lower-case letters, which go out as they are.
        if byte &- 0x61 < 26 {
          out[n] = byte
          n += 1
          continue
        }
        if byte == 0x3C {
          // Ruby text is no spoken text; the parse leaves it out.
          if at + 1 < raw.count && raw[at] == 0x72 && raw[at + 1] == 0x74 { return false }
          inTag = true
          continue
        }
        var value = byte
        if byte == 0x26 {
          guard let (decoded, length) = asciiReference(raw, at: at) else { return false }
          value = decoded
          at += length
        } else if foldingCase && byte >= 0x41 && byte <= 0x5A {
          value = byte + 0x20
        }
        if value == 0x20 || (value >= 0x09 && value <= 0x0D) {
          if out[n - 1] != 0x20 {
            out[n] = 0x20
            n += 1
          }
        } else {
          out[n] = value
          n += 1
        }
      }
      if out[n - 1] != 0x20 {
        out[n] = 0x20
        n += 1
      }
    }
    count = n
    return true
  }

  /// The words that start a block other than a cue: the header, a note, a style, a region.
  static let blockKeywords: [[UInt8]] = ["WEBVTT", "NOTE", "STYLE", "REGION"].map { Array($0.utf8) }

  /// Whether the line `range` of `raw` holds `-->` (a timing line, to the parser).
  @inline(__always)
  static func hasArrow(_ raw: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    guard let base = raw.baseAddress else { return false }
    // Each `-` that could start one, found by memchr (text lines hold few).
    var index = range.lowerBound
    while index + 2 < range.upperBound, let dash = memchr(base + index, 0x2D, range.upperBound - 2 - index) {
      let at = UnsafeRawPointer(dash) - UnsafeRawPointer(base)
      if raw[at + 1] == 0x2D && raw[at + 2] == 0x3E { return true }
      index = at + 1
    }
    return false
  }

  /// Whether the line `range` of `raw` starts with `bytes`.
  static func starts(_ raw: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ bytes: [UInt8]) -> Bool {
    guard range.count >= bytes.count else { return false }
    for offset in 0..<bytes.count where raw[range.lowerBound + offset] != bytes[offset] { return false }
    return true
  }

  /// The references whose character is ASCII punctuation or white space, and the byte each is
  /// taken as (the direction marks, which are no text a pattern can hold, as a byte no pattern
  /// holds).
  static let asciiReferences: [(name: [UInt8], byte: UInt8)] = [
    ("amp;", 0x26), ("lt;", 0x3C), ("gt;", 0x3E), ("quot;", 0x22), ("apos;", 0x27), ("nbsp;", 0x20),
    ("lrm;", 0x01), ("rlm;", 0x01),
  ].map { (Array($0.0.utf8), $0.1) }

  /// The byte the reference after an `&` at `index` stands for and the length of its name, when it
  /// is one of `asciiReferences`; nil otherwise.
  static func asciiReference(_ raw: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt8, Int)? {
    for (name, byte) in asciiReferences where index + name.count <= raw.count {
      if (0..<name.count).allSatisfy({ raw[index + $0] == name[$0] }) { return (byte, name.count) }
    }
    return nil
  }
}
