#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Lines and columns of byte offsets in a UTF-8 document held whole in memory, counted as expat
/// counts them: a line ends at LF, CR or CR LF, and a column is a character (a UTF-8 sequence
/// counts once), from 1. It only moves forward, so each byte is looked at about once however
/// many offsets are asked for.
///
/// Why not ask expat: `XML_GetCurrentLineNumber` walks every byte since the last position through
/// a per-byte table, about twelve instructions a byte. When a document is parsed in one final
/// call expat never walks it otherwise (it does at the end of every non-final call), so counting
/// here, a fraction of an instruction a byte, removes about a seventh of the reading's work.
struct GPXLineCounter {
  /// The document; it must outlive the counter (the reader keeps both for one parse).
  private let text: UnsafeBufferPointer<UInt8>
  /// Without a CR anywhere, lines end only at LF, which a simple count finds.
  private let hasCarriageReturn: Bool
  /// Bytes before this offset are counted.
  private var counted = 0
  private var line = 1
  /// Characters between the start of the current line and `counted`.
  private var column = 0

  /// A counter over `text`.
  init(_ text: UnsafeBufferPointer<UInt8>) {
    self.text = text
    hasCarriageReturn = text.count > 0 && memchr(text.baseAddress!, 0x0D, text.count) != nil
  }

  /// The line and column (both from 1) of the byte at `offset`. Offsets asked in increasing order
  /// cost one pass over the text in all; an earlier one starts the count again from the top.
  mutating func position(of offset: Int) -> (line: Int, column: Int) {
    let end = min(max(offset, 0), text.count)
    if end < counted { self = GPXLineCounter(text) }
    guard let base = text.baseAddress, end > counted else { return (line, column + 1) }
    var i = counted
    if hasCarriageReturn {
      while i < end {
        let byte = base[i]
        if byte == 0x0A {
          // The LF of a CR LF ends the line the CR already ended.
          if i == 0 || base[i - 1] != 0x0D { line += 1 }
          column = 0
        } else if byte == 0x0D {
          line += 1
          column = 0
        } else if byte & 0xC0 != 0x80 {
          column += 1
        }
        i += 1
      }
    } else {
      // Count line ends in one branch-free pass (the compiler vectorises it), then find the last
      // one from the end: the columns are counted from there.
      var ends = 0
      var j = i
      while j < end {
        // A byte-wide count over at most 255 bytes, so the vector lanes stay bytes.
        let stop = min(end, j + 255)
        var block: UInt8 = 0
        while j < stop {
          block &+= base[j] == 0x0A ? 1 : 0
          j += 1
        }
        ends += Int(block)
      }
      if ends > 0 {
        line += ends
        column = 0
        var last = end - 1
        while base[last] != 0x0A { last -= 1 }
        i = last + 1
      }
      // Continuation bytes (10xxxxxx) belong to the character their lead byte started.
      while i < end {
        if base[i] & 0xC0 != 0x80 { column += 1 }
        i += 1
      }
    }
    counted = end
    return (line, column + 1)
  }
}
