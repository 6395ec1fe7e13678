/// A quick pass that recognizes the cue text nearly every transcript holds and the full check
/// would find nothing wrong with, so the linter's check costs one scan for it.
extension WebVTTCueTextParser {
  /// Whether the full check of the cue text at `range` would certainly report nothing: text
  /// without `&`, `<c>`, `<i>`, `<b>` and `<u>` tags (with classes, no annotation, at most 8
  /// deep) each closed by its own end tag in order, and inline timestamps that read whole,
  /// strictly later than the one before and inside the cue. False means "not sure": anything else,
  /// clean or not, is left to the full check, which alone words the diagnostics.
  static func isCertainlyClean(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, cueStart: Double, cueEnd: Double
  ) -> Bool {
    let end = range.upperBound
    var open: UInt64 = 0  // The open tags' names, one byte each, innermost lowest.
    var depth = 0
    var last = cueStart
    var i = range.lowerBound
    while i < end {
      i = nextMarkup(bytes, from: i, end: end)
      guard i < end else { break }
      if bytes[i] == UInt8(ascii: "&") { return false }
      i += 1
      guard i < end else { return false }
      let c = bytes[i]
      if c &- 0x30 < 10 {
        var position = i
        var shortHours = false
        guard
          case .success(let time) = WebVTTTimestamp.collect(
            bytes, &position, end: end, shortHours: &shortHours),
          position < end, bytes[position] == UInt8(ascii: ">"), time > last, time < cueEnd
        else { return false }
        last = time
        i = position + 1
      } else if c == UInt8(ascii: "/") {
        guard depth > 0, i + 2 < end, bytes[i + 2] == UInt8(ascii: ">"), UInt64(bytes[i + 1]) == open & 0xFF
        else { return false }
        open >>= 8
        depth -= 1
        i += 3
      } else {
        guard isSimpleTag(c), depth < 8, i + 1 < end else { return false }
        var next = i + 1
        if bytes[next] == UInt8(ascii: ".") {
          // Classes run to `>`; whitespace would start an annotation.
          while next < end && bytes[next] != UInt8(ascii: ">") {
            if isWhitespace(bytes[next]) { return false }
            next += 1
          }
          guard next < end else { return false }
        }
        guard bytes[next] == UInt8(ascii: ">") else { return false }
        open = open << 8 | UInt64(c)
        depth += 1
        i = next + 1
      }
    }
    return depth == 0
  }

  /// The offset of the first `<` or `&` at or after `i` (or `end`): eight bytes at a time, since
  /// most of a cue's text is words between tags.
  @inline(__always)
  static func nextMarkup(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Int {
    guard let base = bytes.baseAddress else { return end }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    var i = start
    while i + 8 <= end {
      let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
      let lt = word ^ (ones &* 0x3C)
      let amp = word ^ (ones &* 0x26)
      // The high bit of a byte is set where `lt` or `amp` has a zero byte; bytes above the first
      // such one may be marked wrongly, but the lowest mark is exact.
      let marks = ((lt &- ones) & ~lt | (amp &- ones) & ~amp) & high
      if marks != 0 { return i + marks.trailingZeroBitCount >> 3 }
      i += 8
    }
    while i < end && base[i] != 0x3C && base[i] != 0x26 { i += 1 }
    return i
  }

  /// `c`, `i`, `b` or `u`: tags that take classes but no annotation and need no parent.
  private static func isSimpleTag(_ c: UInt8) -> Bool {
    c == UInt8(ascii: "c") || c == UInt8(ascii: "i") || c == UInt8(ascii: "b") || c == UInt8(ascii: "u")
  }
}
