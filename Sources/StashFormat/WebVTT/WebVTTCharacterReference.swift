#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// HTML's "consume a character reference" as the WebVTT cue text tokenizer uses it (not in an
/// attribute), over UTF-8 bytes.
enum WebVTTCharacterReference {
  /// What a reference decoded to, and where reading goes on.
  struct Match {
    /// The characters it stands for.
    var text: String
    /// The byte just after the reference.
    var next: Int
    /// False when HTML calls it a parse error (no `;`, or a number no character may have).
    var wellFormed: Bool
  }

  /// Name → characters, parsed from the generated table on first use.
  static let names: [String: String] = {
    var names: [String: String] = [:]
    names.reserveCapacity(2300)
    for line in WebVTTNamedCharacterReferences.table.split(separator: "\n") {
      let parts = line.split(separator: " ")
      guard parts.count == 2 else { continue }
      var value = ""
      for hex in parts[1].split(separator: ",") {
        if let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) {
          value.unicodeScalars.append(scalar)
        }
      }
      names[String(parts[0])] = value
    }
    return names
  }()

  /// The longest name in the table, so a lookup never reads further.
  static let longestName = 32

  /// Windows-1252's meaning of the C1 range, which HTML substitutes in numeric references.
  private static let windows1252: [UInt32: UInt32] = [
    0x80: 0x20AC, 0x82: 0x201A, 0x83: 0x0192, 0x84: 0x201E, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
    0x88: 0x02C6, 0x89: 0x2030, 0x8A: 0x0160, 0x8B: 0x2039, 0x8C: 0x0152, 0x8E: 0x017D, 0x91: 0x2018,
    0x92: 0x2019, 0x93: 0x201C, 0x94: 0x201D, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02DC,
    0x99: 0x2122, 0x9A: 0x0161, 0x9B: 0x203A, 0x9C: 0x0153, 0x9E: 0x017E, 0x9F: 0x0178,
  ]

  /// Tries to consume a reference whose `&` is just before `position`; nil means the `&` is
  /// literal and nothing is consumed.
  static func consume(
    _ bytes: UnsafeBufferPointer<UInt8>, at position: Int, end: Int, additionalAllowed: UInt8? = nil
  ) -> Match? {
    guard position < end else { return nil }
    let c = bytes[position]
    switch c {
    case 0x09, 0x0A, 0x0C, 0x20, UInt8(ascii: "<"), UInt8(ascii: "&"): return nil
    case UInt8(ascii: "#"): return numeric(bytes, at: position + 1, end: end)
    default:
      if let additionalAllowed, c == additionalAllowed { return nil }
      return named(bytes, at: position, end: end)
    }
  }

  private static func numeric(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> Match? {
    var i = start
    var hex = false
    if i < end && (bytes[i] == UInt8(ascii: "x") || bytes[i] == UInt8(ascii: "X")) {
      hex = true
      i += 1
    }
    let digitsStart = i
    var value: UInt32 = 0
    while i < end {
      let b = bytes[i]
      let digit: UInt32
      switch b {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(b - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(b - UInt8(ascii: "A") + 10)
      default: digit = 99
      }
      if digit == 99 { break }
      // Saturate: anything past U+10FFFF becomes U+FFFD the same way.
      value = value > 0x10FFFF ? value : value * (hex ? 16 : 10) + digit
      i += 1
    }
    // No digits: unconsume `#` (and `x`); the `&` is literal.
    guard i > digitsStart else { return nil }
    var wellFormed = true
    if i < end && bytes[i] == UInt8(ascii: ";") { i += 1 } else { wellFormed = false }
    let scalar: Unicode.Scalar
    if value == 0 {
      scalar = "\u{FFFD}"
      wellFormed = false
    } else if let replaced = windows1252[value] {
      scalar = Unicode.Scalar(replaced)!
      wellFormed = false
    } else if let valid = Unicode.Scalar(value) {
      scalar = valid
    } else {
      scalar = "\u{FFFD}"
      wellFormed = false
    }
    return Match(text: String(Character(scalar)), next: i, wellFormed: wellFormed)
  }

  private static func named(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> Match? {
    // Every name is ASCII letters and digits, some with a final `;`: take the longest run that
    // could be one, then try its prefixes from the longest.
    var i = start
    while i < end && i - start < longestName && isAlphanumeric(bytes[i]) { i += 1 }
    if i < end && i - start < longestName && bytes[i] == UInt8(ascii: ";") { i += 1 }
    // A name ending in `;` is the longest candidate, so when the table has it, it is the match:
    // the few that transcripts use are known without parsing the table (a few milliseconds, once).
    if let text = common(UnsafeBufferPointer(rebasing: bytes[start..<i])) {
      return Match(text: text, next: i, wellFormed: true)
    }
    var length = i - start
    while length > 0 {
      let candidate = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + length]), as: UTF8.self)
      if let value = names[candidate] {
        return Match(
          text: value, next: start + length, wellFormed: bytes[start + length - 1] == UInt8(ascii: ";"))
      }
      length -= 1
    }
    return nil
  }

  /// The references cue text uses most, with their `;`, as the table has them.
  static let commonNames: [(name: StaticString, text: String)] = [
    ("amp;", "&"), ("lt;", "<"), ("gt;", ">"), ("nbsp;", "\u{A0}"), ("quot;", "\""), ("apos;", "'"),
    ("lrm;", "\u{200E}"), ("rlm;", "\u{200F}"),
  ]

  /// The characters of `name` when it is one of `commonNames`.
  static func common(_ name: UnsafeBufferPointer<UInt8>) -> String? {
    guard name.count >= 3, name.count <= 5, name.last == UInt8(ascii: ";") else { return nil }
    for entry in commonNames where entry.name.utf8CodeUnitCount == name.count {
      if memcmp(entry.name.utf8Start, name.baseAddress!, name.count) == 0 { return entry.text }
    }
    return nil
  }

  private static func isAlphanumeric(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
      || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
  }

  /// `range` with every reference decoded (`&` that starts none stays literal).
  static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, additionalAllowed: UInt8? = nil
  ) -> String {
    var out = ""
    var runStart = range.lowerBound
    var i = range.lowerBound
    while i < range.upperBound {
      if bytes[i] == UInt8(ascii: "&"),
        let match = consume(bytes, at: i + 1, end: range.upperBound, additionalAllowed: additionalAllowed)
      {
        out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<i]), as: UTF8.self)
        out += match.text
        i = match.next
        runStart = i
      } else {
        i += 1
      }
    }
    out += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<range.upperBound]), as: UTF8.self)
    return out
  }
}
