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
      guard var spoken = Self.spokenASCII(raw, foldingCase: folding.foldsCase) else { return true }
      guard asciiPattern else { return false }
      spoken.append(0x20)
      return Self.firstIndex(of: folded.map { UInt8($0) }, in: spoken, from: 0) != nil
    }
  }

  /// The spoken text of an all-ASCII transcript as `mayMatch` reads it, or nil when the file is
  /// not one it can read plainly (a byte above ASCII, ruby text, a reference to something other
  /// than ASCII, a block with two timing lines).
  static func spokenASCII(_ raw: UnsafeBufferPointer<UInt8>, foldingCase: Bool) -> [UInt8]? {
    var text: [UInt8] = [0x20]
    text.reserveCapacity(raw.count)
    var index = 0
    var block: [Range<Int>] = []
    /// Appends a block's cue text, if it is a cue; false when it cannot be read plainly.
    func take(_ block: [Range<Int>]) -> Bool {
      // A block with no timing line is no cue. One with its timing line past an id, a second
      // timing line, or a timing line in a header, note, style or region block is read by the
      // parser's rules for broken files: not decided here.
      guard let timing = block.firstIndex(where: { Self.contains(raw, $0, "-->") }) else { return true }
      guard timing <= 1, !block[(timing + 1)...].contains(where: { Self.contains(raw, $0, "-->") }),
        !["WEBVTT", "NOTE", "STYLE", "REGION"].contains(where: { Self.starts(raw, block[0], $0) })
      else { return false }
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
          if byte == 0x3C {
            // Ruby text is no spoken text; the parse leaves it out.
            if at + 1 < raw.count && raw[at] == 0x72 && raw[at + 1] == 0x74 { return false }
            inTag = true
            continue
          }
          var value = byte
          if byte == 0x26 {
            guard let (decoded, length) = Self.asciiReference(raw, at: at) else { return false }
            value = decoded
            at += length
          } else if foldingCase && byte >= 0x41 && byte <= 0x5A {
            value = byte + 0x20
          }
          if value == 0x20 || (value >= 0x09 && value <= 0x0D) {
            if text.last != 0x20 { text.append(0x20) }
          } else {
            text.append(value)
          }
        }
        if text.last != 0x20 { text.append(0x20) }
      }
      return true
    }
    var lineStart = 0
    while index <= raw.count {
      let end = index == raw.count
      let byte = end ? 0x0A : raw[index]
      if !end && (byte >= 0x80 || byte == 0) { return nil }
      if byte == 0x0A || byte == 0x0D {
        let line = lineStart..<index
        if line.isEmpty {
          if !block.isEmpty {
            guard take(block) else { return nil }
            block.removeAll(keepingCapacity: true)
          }
        } else {
          block.append(line)
        }
        if !end && byte == 0x0D && index + 1 < raw.count && raw[index + 1] == 0x0A { index += 1 }
        lineStart = index + 1
      }
      index += 1
    }
    if !block.isEmpty { guard take(block) else { return nil } }
    return text
  }

  /// Whether the line `range` of `raw` holds `text`.
  static func contains(_ raw: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard range.count >= count else { return false }
    let bytes = UnsafeBufferPointer(start: text.utf8Start, count: count)
    for start in range.lowerBound...(range.upperBound - count)
    where (0..<count).allSatisfy({ raw[start + $0] == bytes[$0] }) {
      return true
    }
    return false
  }

  /// Whether the line `range` of `raw` starts with `text`.
  static func starts(_ raw: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard range.count >= bytes.count else { return false }
    return (0..<bytes.count).allSatisfy { raw[range.lowerBound + $0] == bytes[$0] }
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
