#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The W3C "WebVTT cue text tokenizer" over UTF-8 bytes. Tokens carry byte ranges of the raw text;
/// character references are decoded only when a caller asks for the text, so validating a cue
/// allocates nothing.
struct WebVTTCueTextTokenizer {
  /// One token, as the spec defines them, with the byte ranges it came from.
  enum Token {
    /// Raw text up to the next `<` (references not yet decoded).
    case text(Range<Int>)
    /// `<name.classes annotation>`: `classes` is the raw text after the first `.` (split on `.`
    /// later), `annotation` the raw text after the separator (decoded and trimmed later).
    case startTag(name: Range<Int>, classes: Range<Int>?, annotation: Range<Int>?, start: Int)
    /// `</name>`.
    case endTag(name: Range<Int>, start: Int)
    /// `<digits...>`: the tag value, to be parsed as a timestamp.
    case timestamp(Range<Int>, start: Int)
  }

  let bytes: UnsafeBufferPointer<UInt8>
  /// The next byte to read.
  var position: Int
  /// One past the last byte of the cue text.
  let end: Int

  init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>) {
    self.bytes = bytes
    self.position = range.lowerBound
    self.end = range.upperBound
  }

  /// The next token, or nil at the end of the text.
  mutating func next() -> Token? {
    guard position < end else { return nil }
    let start = position
    if bytes[position] != UInt8(ascii: "<") {
      // Data state: everything up to `<` is one string token (references decode later).
      if let found = memchr(bytes.baseAddress! + position, 0x3C, end - position) {
        position = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
      } else {
        position = end
      }
      return .text(start..<position)
    }
    // Tag state: `position` is at `<`.
    position += 1
    guard position < end else {
      return .startTag(name: position..<position, classes: nil, annotation: nil, start: start)
    }
    let c = bytes[position]
    switch c {
    case 0x09, 0x0A, 0x0C, 0x20:
      position += 1
      return annotationState(name: position - 1..<position - 1, classes: nil, start: start)
    case UInt8(ascii: "."):
      position += 1
      return classState(name: position - 1..<position - 1, start: start)
    case UInt8(ascii: "/"):
      position += 1
      let nameStart = position
      while position < end && bytes[position] != UInt8(ascii: ">") { position += 1 }
      let name = nameStart..<position
      if position < end { position += 1 }
      return .endTag(name: name, start: start)
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      let valueStart = position
      while position < end && bytes[position] != UInt8(ascii: ">") { position += 1 }
      let value = valueStart..<position
      if position < end { position += 1 }
      return .timestamp(value, start: start)
    case UInt8(ascii: ">"):
      position += 1
      return .startTag(name: position - 1..<position - 1, classes: nil, annotation: nil, start: start)
    default:
      // Start tag state.
      let nameStart = position
      position += 1
      while position < end {
        switch bytes[position] {
        case 0x09, 0x0A, 0x0C, 0x20:
          let name = nameStart..<position
          position += 1
          return annotationState(name: name, classes: nil, start: start)
        case UInt8(ascii: "."):
          let name = nameStart..<position
          position += 1
          return classState(name: name, start: start)
        case UInt8(ascii: ">"):
          let name = nameStart..<position
          position += 1
          return .startTag(name: name, classes: nil, annotation: nil, start: start)
        default:
          position += 1
        }
      }
      return .startTag(name: nameStart..<position, classes: nil, annotation: nil, start: start)
    }
  }

  /// Start tag class state: `position` is just after the first `.`.
  private mutating func classState(name: Range<Int>, start: Int) -> Token {
    let classStart = position
    while position < end {
      switch bytes[position] {
      case 0x09, 0x0A, 0x0C, 0x20:
        let classes = classStart..<position
        position += 1
        return annotationState(name: name, classes: classes, start: start)
      case UInt8(ascii: ">"):
        let classes = classStart..<position
        position += 1
        return .startTag(name: name, classes: classes, annotation: nil, start: start)
      default:
        position += 1
      }
    }
    return .startTag(name: name, classes: classStart..<position, annotation: nil, start: start)
  }

  /// Start tag annotation state: runs to `>` (no reference can contain one) or the end.
  private mutating func annotationState(name: Range<Int>, classes: Range<Int>?, start: Int) -> Token {
    let annotationStart = position
    while position < end && bytes[position] != UInt8(ascii: ">") { position += 1 }
    let annotation = annotationStart..<position
    if position < end { position += 1 }
    return .startTag(name: name, classes: classes, annotation: annotation, start: start)
  }
}
