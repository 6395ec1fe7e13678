import StashFormat

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
    return bytes.withUnsafeBufferPointer { raw -> Bool in
      // The piece nowhere, or nowhere with the pattern's other words beside it.
      if let probe, probe.certainlyAbsent(in: raw, accept: phraseAround(raw, probe, folded)) { return false }
      guard
        var spoken = Self.spokenASCII(
          raw, foldingCase: folding.foldsCase, droppingPunctuation: folding.dropsPunctuation)
      else { return true }
      // An ASCII file cannot hold a pattern that folds to anything else.
      guard folded.allSatisfy({ $0 < 0x80 }) else { return false }
      spoken.append(0x20)
      return Self.contains(folded.map { UInt8($0) }, in: spoken)
    }
  }

  /// Whether `title` may hold a match: false only when it is all ASCII and its bytes (case
  /// folded as ASCII when folding case) do not hold the pattern's piece, which any match holds as
  /// it is (folding an ASCII title changes only case, punctuation and runs of white space), or
  /// hold it only where the rest of a phrase is not beside it.
  package func mayMatch(title: String) -> Bool {
    guard let probe else { return true }
    return title.utf8.withContiguousStorageIfAvailable { bytes in
      guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
      // A phrase's piece counts only with its words beside it, as the title reads.
      let phrase = !(probe.before.isEmpty && probe.after.isEmpty)
      let found = probe.scan(
        UnsafeRawPointer(base), count: bytes.count,
        accept: phrase ? { probe.mayBeMatch(at: $0, in: bytes, markup: false) } : nil)
      return found != .absent && found != .joined
    } ?? true
  }

  /// The spoken text of an all-ASCII transcript as `mayMatch` reads it, or nil when the file is
  /// not one it can read plainly (a byte above ASCII or a NUL, ruby text, a reference to something
  /// other than ASCII, a block with two timing lines).
  static func spokenASCII(
    _ raw: UnsafeBufferPointer<UInt8>, foldingCase: Bool, droppingPunctuation: Bool = false
  ) -> [UInt8]? {
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
        return appendCue(
          raw, block, to: out, count: &count, foldingCase: foldingCase,
          droppingPunctuation: droppingPunctuation)
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
        return block.isEmpty
          || appendCue(
            raw, block, to: out, count: &count, foldingCase: foldingCase,
            droppingPunctuation: droppingPunctuation)
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
      return block.isEmpty
        || appendCue(
          raw, block, to: out, count: &count, foldingCase: foldingCase,
          droppingPunctuation: droppingPunctuation)
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
    count: inout Int, foldingCase: Bool, droppingPunctuation: Bool = false
  ) -> Bool {
    guard let timing = block.firstIndex(where: { hasArrow(raw, $0) }) else { return true }
    guard timing <= 1, !block[(timing + 1)...].contains(where: { hasArrow(raw, $0) }),
      !blockKeywords.contains(where: { starts(raw, block[0], $0) }),
      // A cue the parse drops (a timing line it cannot read) says nothing: its words are not
      // between its neighbours'.
      WebVTTTimestamp.keepsCue(raw, timingLine: block[timing])
    else { return false }
    var n = count
    var inTag = false
    guard let base = raw.baseAddress, let into = out.baseAddress else { return true }
    typealias Lanes = SIMD16<UInt8>
    let (space, less, greater) = (Lanes(repeating: 0x20), Lanes(repeating: 0x3C), Lanes(repeating: 0x3E))
    let (ampersand, high) = (Lanes(repeating: 0x26), Lanes(repeating: 0x80))
    // Upper case is looked at only when folding case (no byte less `A` is below 0).
    let (upperA, letters) = (Lanes(repeating: 0x41), Lanes(repeating: foldingCase ? 26 : 0))
    // With punctuation dropped (a plain search), ASCII's punctuation and symbols are looked at too
    // (a symbol then goes out as it is): 0x21-0x2F, 0x3A-0x40, 0x5B-0x60, 0x7B-0x7E.
    let marks = (
      Lanes(repeating: droppingPunctuation ? 15 : 0), Lanes(repeating: droppingPunctuation ? 7 : 0),
      Lanes(repeating: droppingPunctuation ? 6 : 0), Lanes(repeating: droppingPunctuation ? 4 : 0)
    )
    for line in block[(timing + 1)...] {
      var at = line.lowerBound
      while at < line.upperBound {
        // The bytes up to the first the loop below must look at (white space but a space, `<`,
        // `&`, above ASCII, upper case when folding case, a space after a space) go out as they
        // are: sixteen are copied at once and the count moved past those. `n` never passes
        // `at` + 1, so the sixteen fit; the byte before the first is the last one out.
        if inTag && at + 16 <= line.upperBound {
          // The rest of a tag (an inline timestamp is fourteen bytes): up to its `>`.
          let bytes = UnsafeRawPointer(base + at).loadUnaligned(as: Lanes.self)
          let end = Self.firstLane(bytes .== greater)
          at += min(end + 1, 16)
          inTag = end == 16
          continue
        }
        if !inTag && at > 0 && at + 16 <= line.upperBound {
          let bytes = UnsafeRawPointer(base + at).loadUnaligned(as: Lanes.self)
          var before = UnsafeRawPointer(base + at - 1).loadUnaligned(as: Lanes.self)
          before[0] = into[n - 1]
          let looked =
            (bytes .< space) .| (bytes .== less) .| (bytes .== ampersand) .| (bytes .>= high)
            .| (bytes &- upperA .< letters) .| ((bytes .== space) .& (before .== space))
            .| (bytes &- Lanes(repeating: 0x21) .< marks.0) .| (bytes &- Lanes(repeating: 0x3A) .< marks.1)
            .| (bytes &- Lanes(repeating: 0x5B) .< marks.2) .| (bytes &- Lanes(repeating: 0x7B) .< marks.3)
          UnsafeMutableRawPointer(into + n).storeBytes(of: bytes, as: Lanes.self)
          let plain = Self.firstLane(looked)
          n += plain
          at += plain
          if plain == 16 { continue }
        }
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
        if value == 0x20 || (value >= 0x09 && value <= 0x0D)
          || (droppingPunctuation && SearchFolding.isPunctuation(UInt32(value)))
        {
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

  /// Whether `haystack` holds `needle` (not empty): each place its first byte is (found by
  /// memchr, which is quicker than a loop over bytes) compared whole.
  static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
    haystack.withUnsafeBytes { h in
      needle.withUnsafeBytes { n in
        guard let hBase = h.baseAddress, let nBase = n.baseAddress, n.count <= h.count else { return false }
        var at = 0
        let last = h.count - n.count
        while at <= last, let found = memchr(hBase + at, Int32(n[0]), last - at + 1) {
          at = UnsafeRawPointer(found) - hBase
          if memcmp(found, nBase, n.count) == 0 { return true }
          at += 1
        }
        return false
      }
    }
  }

  /// The first of sixteen lanes set in `mask`, or 16 for none.
  @inline(__always)
  static func firstLane(_ mask: SIMDMask<SIMD16<Int8>>) -> Int {
    let lanes = SIMD16<UInt8>(repeating: 0).replacing(with: 0xFF, where: mask)
    let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
    return words[0] != 0 ? words[0].trailingZeroBitCount / 8 : 8 + words[1].trailingZeroBitCount / 8
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
