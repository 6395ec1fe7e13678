/// The text the WebVTT parser algorithm reads: the bytes UTF-8-decoded with replacement, the BOM
/// dropped, NUL as U+FFFD and every CR or CRLF as LF. Clean input (the usual case) is used as it
/// is; only input that needs a change is copied.
struct WebVTTInput {
  /// The normalized UTF-8 bytes, or nil when the original (after the BOM) is already normal.
  var rewritten: [UInt8]?
  /// Bytes dropped from the front (the BOM).
  var skipped: Int
  /// Problems met while normalizing, with offsets in the normalized text.
  var issues: [WebVTTIssue] = []
  /// Whether any bytes were not UTF-8.
  var wasNotUTF8 = false
  /// About how many LFs the text has (estimated only for clean input): the parser sizes its cue
  /// list by it.
  var lineFeeds = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    skipped = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    let body = UnsafeBufferPointer(rebasing: bytes[skipped...])
    if Self.isNormal(body) {
      rewritten = nil
      lineFeeds = Self.estimatedLineFeeds(body)
    } else {
      rewritten = []
      normalize(body)
    }
  }

  /// Whether `bytes` is valid UTF-8 with no NUL and no CR: sixteen ASCII bytes at a time.
  static func isNormal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let n = bytes.count
    let high: UInt64 = 0x8080_8080_8080_8080
    let ones: UInt64 = 0x0101_0101_0101_0101
    let suspects: UInt64 = 0xF2F2_F2F2_F2F2_F2F2
    // High bits where an ASCII word may hold a NUL or a CR: bytes with none of the bits of 0xF2 are
    // NUL, CR and a few other controls (tab among them) but never LF, so one test covers both,
    // and only a block with a tab or such takes the byte-by-byte path below.
    @inline(__always) func nullsOrCRs(_ word: UInt64) -> UInt64 {
      let masked = word & suspects
      return (masked &- ones) & ~masked
    }
    var i = 0
    while i < n {
      if i + 16 <= n {
        let first = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        let second = UnsafeRawPointer(base + i + 8).loadUnaligned(as: UInt64.self)
        if (first | second) & high == 0 {
          if (nullsOrCRs(first) | nullsOrCRs(second)) & high == 0 {
            i += 16
            continue
          }
        }
      }
      let b = base[i]
      if b < 0x80 {
        if b == 0 || b == 0x0D { return false }
        i += 1
        continue
      }
      let length = sequenceLength(bytes, at: i)
      if length == 0 { return false }
      i += length
    }
    return true
  }

  /// The LFs of the first 16 KiB, scaled to the whole text: a guess at its line count that costs
  /// little however big the file. (A file whose start is unlike the rest only makes the parser's
  /// first reservation too big or too small, and the parser caps it by the file's size.)
  static func estimatedLineFeeds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    let sample = min(bytes.count, 1 << 14)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let lineFeeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    var count = 0
    var i = 0
    while i + 8 <= sample {
      // Exactly the bytes equal to LF: the high bit of each byte of `lf` that is zero, summed by
      // a multiply (cheaper than a bit count on CPUs without POPCNT, the baseline).
      let lf = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) ^ lineFeeds
      let marks = ~(((lf & low) &+ low) | lf | low) >> 7
      count += Int((marks &* ones) >> 56)
      i += 8
    }
    while i < sample {
      if base[i] == 0x0A { count += 1 }
      i += 1
    }
    return sample == bytes.count ? count : Int(Double(count) * Double(bytes.count) / Double(sample))
  }

  /// The length of the valid UTF-8 sequence at `i`, or 0 when the bytes there are not one.
  @inline(__always)
  static func sequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
    let n = bytes.count
    let b0 = bytes[i]
    func continuation(_ j: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
      j < n && bytes[j] >= low && bytes[j] <= high
    }
    switch b0 {
    case 0xC2...0xDF: return continuation(i + 1) ? 2 : 0
    case 0xE0: return continuation(i + 1, 0xA0) && continuation(i + 2) ? 3 : 0
    case 0xE1...0xEC, 0xEE...0xEF: return continuation(i + 1) && continuation(i + 2) ? 3 : 0
    case 0xED: return continuation(i + 1, 0x80, 0x9F) && continuation(i + 2) ? 3 : 0
    case 0xF0: return continuation(i + 1, 0x90) && continuation(i + 2) && continuation(i + 3) ? 4 : 0
    case 0xF1...0xF3: return continuation(i + 1) && continuation(i + 2) && continuation(i + 3) ? 4 : 0
    case 0xF4: return continuation(i + 1, 0x80, 0x8F) && continuation(i + 2) && continuation(i + 3) ? 4 : 0
    default: return 0
    }
  }

  /// The length of the longest prefix of a valid sequence at `i` (at least 1): WHATWG's decoder
  /// replaces exactly that many bytes with one U+FFFD.
  static func invalidLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
    let n = bytes.count
    let b0 = bytes[i]
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    let needed: Int
    switch b0 {
    case 0xC2...0xDF: needed = 1
    case 0xE0: (needed, low) = (2, 0xA0)
    case 0xE1...0xEC, 0xEE...0xEF: needed = 2
    case 0xED: (needed, high) = (2, 0x9F)
    case 0xF0: (needed, low) = (3, 0x90)
    case 0xF1...0xF3: needed = 3
    case 0xF4: (needed, high) = (3, 0x8F)
    default: return 1
    }
    var length = 1
    while length <= needed, i + length < n {
      let b = bytes[i + length]
      guard b >= low && b <= high else { break }
      low = 0x80
      high = 0xBF
      length += 1
    }
    return length
  }

  private mutating func normalize(_ bytes: UnsafeBufferPointer<UInt8>) {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + 16)
    let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
    var invalid = 0
    var nulls = 0
    var firstInvalid = -1
    var firstNull = -1
    var i = 0
    let n = bytes.count
    while i < n {
      let b = bytes[i]
      if b < 0x80 {
        switch b {
        case 0:
          if firstNull < 0 { firstNull = out.count }
          nulls += 1
          out += replacement
        case 0x0D:
          out.append(0x0A)
          if i + 1 < n && bytes[i + 1] == 0x0A { i += 1 }
        default:
          out.append(b)
        }
        i += 1
        continue
      }
      let length = Self.sequenceLength(bytes, at: i)
      if length > 0 {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<i + length]))
        i += length
      } else {
        if firstInvalid < 0 { firstInvalid = out.count }
        invalid += 1
        out += replacement
        i += Self.invalidLength(bytes, at: i)
      }
    }
    rewritten = out
    if invalid > 0 {
      wasNotUTF8 = true
      issues.append(
        WebVTTIssue(
          code: .vttNotUTF8, offset: firstInvalid,
          message:
            "the file is not valid UTF-8: \(invalid) byte sequence\(invalid == 1 ? " was" : "s were") read as U+FFFD (save it as UTF-8)"
        ))
    }
    if nulls > 0 {
      issues.append(
        WebVTTIssue(
          code: .vttNullCharacter, offset: firstNull,
          message: "\(nulls) NUL character\(nulls == 1 ? " was" : "s were") read as U+FFFD"))
    }
  }
}
