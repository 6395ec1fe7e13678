import CICU

/// How text is made comparable for a search (FORMAT.md §8): every run of white space becomes one
/// space; canonically equivalent spellings become one (NFD, so `é` and `e` + U+0301 match); case
/// is folded (Unicode's default full folding: `Straße` and `STRASSE` match; the dotless `ı` stays
/// itself, whatever the locale) unless `caseSensitive`; accents are dropped unless `exact` or not
/// `accentInsensitive`. The accents dropped are combining marks that a reader takes as accents on
/// a letter: Latin, Greek and Cyrillic diacritics, Hebrew points (niqqud) and Arabic vowel
/// marks; marks that change a letter (Japanese voicing marks, Indic vowel signs) are kept.
package struct SearchFolding: Sendable {
  /// Whether case is folded.
  package var foldsCase: Bool
  /// Whether accents are dropped.
  package var dropsAccents: Bool
  /// Whether punctuation is no part of the text (a plain search's words, issue 49): each run of
  /// punctuation and white space is one space, so `ill-disposed` reads `ill disposed` and
  /// `man. Unless` reads `man unless` and `don't` reads `don t` (so `dont` is another word, as
  /// `illdisposed` is); where both sides are of a script written without spaces (Han, kana, Thai,
  /// Lao, Khmer, Myanmar) the break is nothing, so `今日は。明日` reads `今日は明日`. Punctuation
  /// is Unicode's general category P (connector, dash, open, close, quote, other). A run of
  /// letters and digits is never changed, so a piece of the words is in the file as it is
  /// (`PieceProbe`).
  package var dropsPunctuation: Bool
  /// What each non-ASCII code point becomes, asked of ICU once.
  private var cache: [UInt32: [UInt32]] = [:]

  /// A folding: case folded unless `caseSensitive`, accents dropped unless `keepAccents`,
  /// punctuation kept unless `dropsPunctuation`.
  package init(caseSensitive: Bool = false, keepAccents: Bool = false, dropsPunctuation: Bool = false) {
    foldsCase = !caseSensitive
    dropsAccents = !keepAccents
    self.dropsPunctuation = dropsPunctuation
  }

  /// Whether `value` is punctuation (general category P).
  static func isPunctuation(_ value: UInt32) -> Bool {
    if value < 0x80 {
      // ! " # % & ' ( ) * , - . / : ; ? @ [ \ ] _ { }
      switch value {
      case 0x21...0x23, 0x25...0x2A, 0x2C...0x2F, 0x3A, 0x3B, 0x3F, 0x40, 0x5B...0x5D, 0x5F, 0x7B, 0x7D:
        return true
      default: return false
      }
    }
    guard let scalar = Unicode.Scalar(value) else { return false }
    switch scalar.properties.generalCategory {
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
      .finalPunctuation, .otherPunctuation:
      return true
    default: return false
    }
  }

  /// Whether `value` is a letter of a script written without spaces between words (Han, kana,
  /// Thai, Lao, Khmer, Myanmar), where a break made of punctuation is no space.
  static func isSpaceless(_ value: UInt32) -> Bool {
    switch value {
    case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF,
      0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3FFFF:
      true
    default: false
    }
  }

  /// Whether `scalar` is a combining mark that reads as an accent (see the type's comment).
  static func isAccent(_ value: UInt32) -> Bool {
    switch value {
    case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: true
    case 0x0591...0x05BD, 0x05BF, 0x05C1...0x05C2, 0x05C4...0x05C5, 0x05C7: true
    case 0x0610...0x061A, 0x064B...0x065F, 0x0670, 0x06D6...0x06DC, 0x06DF...0x06E4, 0x06E7...0x06E8,
      0x06EA...0x06ED:
      true
    default: false
    }
  }

  /// What the code point `value` becomes: case-folded and decomposed (by ICU), accents dropped.
  private mutating func folded(_ value: UInt32) -> [UInt32] {
    if let known = cache[value] { return known }
    var out = [Int32](repeating: 0, count: 32)
    let count = stash_icu_fold(Int32(bitPattern: value), foldsCase ? 1 : 0, &out, Int32(out.count))
    var result = count < 0 ? [value] : out.prefix(Int(count)).map { UInt32(bitPattern: $0) }
    if dropsAccents { result.removeAll(where: Self.isAccent) }
    cache[value] = result
    return result
  }

  /// Appends `text` folded to `out`; `origin` gets, for each scalar appended, the index of the
  /// scalar of `text` it came from plus `offset`. A run of white space becomes one space (none
  /// after a space `out` already ends with).
  package mutating func fold(
    _ text: String, into out: inout [UInt32], origin: inout [Int32], offset: Int = 0
  ) {
    if text.utf8.withContiguousStorageIfAvailable({
      foldASCII($0, into: &out, origin: &origin, offset: offset)
    })
      == true
    {
      return
    }
    if dropsPunctuation {
      foldDroppingPunctuation(text, into: &out, origin: &origin, offset: offset)
      return
    }
    var index = Int32(offset)
    for scalar in text.unicodeScalars {
      defer { index += 1 }
      let value = scalar.value
      if value < 0x80 {
        if value == 0x20 || (value >= 0x09 && value <= 0x0D) {
          if out.last != 0x20 {
            out.append(0x20)
            origin.append(index)
          }
        } else {
          out.append(foldsCase && value >= 0x41 && value <= 0x5A ? value + 0x20 : value)
          origin.append(index)
        }
        continue
      }
      if SpokenText.isWhiteSpace(scalar) {
        if out.last != 0x20 {
          out.append(0x20)
          origin.append(index)
        }
        continue
      }
      for folded in folded(value) {
        out.append(folded)
        origin.append(index)
      }
    }
  }

  /// `fold` when punctuation is no part of the text (`dropsPunctuation`): a run of punctuation and
  /// white space is one space, or nothing between two letters of a spaceless script.
  private mutating func foldDroppingPunctuation(
    _ text: String, into out: inout [UInt32], origin: inout [Int32], offset: Int
  ) {
    // Where a break after a spaceless letter starts, until the next letter says whether it is one.
    var pending: Int32?
    func breakHere(_ index: Int32) {
      if out.last != 0x20 {
        out.append(0x20)
        origin.append(index)
      }
    }
    var index = Int32(offset)
    for scalar in text.unicodeScalars {
      defer { index += 1 }
      let value = scalar.value
      let isSpace =
        value < 0x80 ? (value == 0x20 || (value >= 0x09 && value <= 0x0D)) : SpokenText.isWhiteSpace(scalar)
      if isSpace || Self.isPunctuation(value) {
        if pending == nil {
          if let last = out.last, Self.isSpaceless(last) { pending = index } else { breakHere(index) }
        }
        continue
      }
      let folded =
        value < 0x80 ? [foldsCase && value >= 0x41 && value <= 0x5A ? value + 0x20 : value] : folded(value)
      if let held = pending, let first = folded.first {
        if !Self.isSpaceless(first) { breakHere(held) }
        pending = nil
      }
      for value in folded {
        out.append(value)
        origin.append(index)
      }
    }
    if let held = pending { breakHere(held) }
  }

  /// `fold` for text that is all ASCII, given as its bytes, written through pointers (appending
  /// scalar by scalar was most of the time a search spends on a transcript that matches); false,
  /// with nothing appended, when a byte is above ASCII.
  private func foldASCII(
    _ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt32], origin: inout [Int32], offset: Int
  ) -> Bool {
    var high: UInt8 = 0
    for byte in bytes { high |= byte }
    guard high < 0x80 else { return false }
    if dropsPunctuation, bytes.contains(where: { Self.isPunctuation(UInt32($0)) }) { return false }
    let first = out.count
    var afterSpace = out.last == 0x20
    out.append(contentsOf: repeatElement(0, count: bytes.count))
    origin.append(contentsOf: repeatElement(0, count: bytes.count))
    var count = first
    let foldsCase = foldsCase
    out.withUnsafeMutableBufferPointer { out in
      origin.withUnsafeMutableBufferPointer { origin in
        for (index, byte) in bytes.enumerated() {
          if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
            if afterSpace { continue }
            out[count] = 0x20
            afterSpace = true
          } else {
            out[count] = UInt32(foldsCase && byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            afterSpace = false
          }
          origin[count] = Int32(offset + index)
          count += 1
        }
      }
    }
    out.removeLast(out.count - count)
    origin.removeLast(origin.count - count)
    return true
  }

  /// `text` folded, as text: for comparing words the way a search compares them.
  package mutating func folded(_ text: String) -> String {
    String(String.UnicodeScalarView(fold(text).compactMap(Unicode.Scalar.init)))
  }

  /// `text` folded, on its own.
  package mutating func fold(_ text: String) -> [UInt32] {
    var out: [UInt32] = []
    var origin: [Int32] = []
    fold(text, into: &out, origin: &origin)
    return out
  }
}
