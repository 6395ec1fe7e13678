#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Finding lines, arrows and keywords in the text, and quoting it in messages.
extension WebVTTFileParser {
  /// The end of the line starting at `from`: the next LF, or the end of the text.
  func lineEnd(from: Int) -> Int {
    guard from < count, let base = bytes.baseAddress else { return count }
    guard let found = memchr(base + from, 0x0A, count - from) else { return count }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }

  /// Moves past the LF at `position`.
  mutating func advanceOverNewline() {
    position += 1
    line += 1
    lineStart = position
  }

  mutating func skipNewlines() {
    while position < count && bytes[position] == 0x0A { advanceOverNewline() }
  }

  /// Whether `range` contains `-->`.
  func containsArrow(_ range: Range<Int>) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    var i = range.lowerBound
    let end = range.upperBound
    while i + 2 < end {
      guard let found = memchr(base + i, 0x2D, end - 2 - i) else { return false }
      i = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      if bytes[i + 1] == 0x2D && bytes[i + 2] == 0x3E { return true }
      i += 1
    }
    return false
  }

  /// Whether `range` is `keyword` followed only by ASCII whitespace.
  func startsWithKeyword(_ range: Range<Int>, _ keyword: StaticString) -> Bool {
    let length = keyword.utf8CodeUnitCount
    guard range.count >= length else { return false }
    let k = keyword.utf8Start
    for i in 0..<length where bytes[range.lowerBound + i] != k[i] { return false }
    for i in (range.lowerBound + length)..<range.upperBound where !WebVTTCueTextParser.isWhitespace(bytes[i])
    {
      return false
    }
    return true
  }

  /// Whether `range` is a NOTE block: `NOTE` then a space, tab, LF or nothing.
  func startsWithNote(_ range: Range<Int>) -> Bool {
    guard range.count >= 4, bytes[range.lowerBound] == 0x4E, bytes[range.lowerBound + 1] == 0x4F,
      bytes[range.lowerBound + 2] == 0x54, bytes[range.lowerBound + 3] == 0x45
    else { return false }
    if range.count == 4 { return true }
    let next = bytes[range.lowerBound + 4]
    return next == 0x20 || next == 0x09 || next == 0x0A
  }

  /// The first characters of `range` for a message: at most 60, control characters shown as
  /// U+FFFD, "…" when cut. Reads no more than it shows, however long the line.
  /// The most spaces and tabs in a row an excerpt quotes; a longer run is described.
  static let blankRunShown = 8

  func excerpt(_ range: Range<Int>) -> String {
    var end = min(range.upperBound, range.lowerBound + 240)
    // Do not cut a UTF-8 sequence in two.
    while end < range.upperBound && end > range.lowerBound && bytes[end] & 0xC0 == 0x80 { end -= 1 }
    var out = ""
    var shown = 0
    // A run of white space is described, not quoted: its width is all there is to see.
    var blank = 0
    var tabs = false
    func flush() {
      if blank > Self.blankRunShown {
        out += "[\(blank) \(tabs ? "spaces and tabs" : "spaces")]"
        shown += 1
      } else {
        out += String(repeating: " ", count: blank)
        shown += blank
      }
      (blank, tabs) = (0, false)
    }
    var index = range.lowerBound
    while index < range.upperBound, bytes[index] == 0x20 || bytes[index] == 0x09 {
      blank += 1
      tabs = tabs || bytes[index] == 0x09
      index += 1
    }
    if index == range.upperBound || index >= end {
      flush()
      return out
    }
    flush()
    for scalar in string(index..<end).unicodeScalars {
      if scalar == " " || scalar == "\t" {
        blank += 1
        tabs = tabs || scalar == "\t"
        continue
      }
      if blank > 0 { flush() }
      if shown >= 60 { return out + "…" }
      out.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? "\u{FFFD}" : scalar)
      shown += 1
    }
    if blank > 0 { flush() }
    return end < range.upperBound ? out + "…" : out
  }

  func string(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  /// The text of `range` without the bytes of `gap` where the two overlap: a block's buffer
  /// around a timing line that failed, which the spec never appends to it.
  func string(_ range: Range<Int>, skipping gap: Range<Int>?) -> String {
    guard let gap, gap.lowerBound >= range.lowerBound, gap.lowerBound < range.upperBound else {
      return string(range)
    }
    return string(range.lowerBound..<gap.lowerBound)
      + string(min(gap.upperBound, range.upperBound)..<range.upperBound)
  }
}
