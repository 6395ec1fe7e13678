/// A memo's title, read from `<base>_title.txt`: UTF-8 text, trimmed, shown on one line.
public struct Title: Sendable, Equatable {
  /// The longest title shown whole, in characters; a longer one is cut with `…` and reported.
  public static let maximumCharacters = 200
  /// How many bytes are read at most: a title file is a line of text, not a document.
  public static let maximumBytes = 16 * 1024

  /// The file's text, trimmed (line breaks inside are kept); nil when there is none or it is unreadable.
  public var text: String?
  /// The text as a memo is shown by it: one line, every white-space run made one space, at most
  /// `maximumCharacters`; nil when there is no text.
  public var displayText: String?
  /// The file's size in bytes, or nil when it could not be read.
  public var byteCount: Int?
  /// What is wrong with the file; `title-` codes.
  public var problems: [Diagnostic]

  /// Creates a title from its parts.
  public init(text: String?, displayText: String?, byteCount: Int?, problems: [Diagnostic]) {
    self.text = text
    self.displayText = displayText
    self.byteCount = byteCount
    self.problems = problems
  }

  /// Reads the title file at `path`; a file that cannot be read becomes a problem, never a throw.
  public static func read(path: String) -> Title {
    read(FileLocation(path: path))
  }

  /// Reads the title file at `location` (see `read(path:)`); `listedAsRegularFile` as
  /// `ReadOnlyFile` takes it.
  package static func read(_ location: FileLocation, listedAsRegularFile: Bool = false) -> Title {
    do {
      // A title is a line: one read, usually to its end, and no fstat when the listing said "file".
      let (bytes, size) = try ReadOnlyFile.start(
        sizedUpTo: maximumBytes, of: location, listedAsRegularFile: listedAsRegularFile)
      return parse(bytes, totalSize: size)
    } catch {
      return Title(
        text: nil, displayText: nil, byteCount: nil,
        problems: [
          Diagnostic(
            code: .titleUnreadable, severity: .error, message: "the title cannot be read: \(error.message)")
        ])
    }
  }

  /// Reads the title from an open file, at most `maximumBytes` of it.
  public static func read(_ file: ReadOnlyFile) throws(FormatError) -> Title {
    parse(try file.read(at: 0, count: maximumBytes), totalSize: file.size)
  }

  /// Interprets the bytes of a title file; `totalSize` is the file's size when only a prefix was read.
  public static func parse(_ input: [UInt8], totalSize: Int? = nil) -> Title {
    parse(input, totalSize: totalSize, plainLines: true)
  }

  /// `parse(_:totalSize:)`; with `plainLines` false every title takes the full reading (the
  /// tests check that the quick way for a plain line gives the same title).
  package static func parse(_ input: [UInt8], totalSize: Int?, plainLines: Bool) -> Title {
    var problems: [Diagnostic] = []
    let size = totalSize ?? input.count
    var bytes = input[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      bytes = bytes.dropFirst(3)
      problems.append(
        Diagnostic(
          code: .titleByteOrderMark, severity: .info,
          message: "the title starts with a byte order mark, which the phone does not write; it is ignored",
          location: SourceLocation(line: 1, column: 1, offset: 0)))
    }
    if size > input.count {
      // Cut at the last whole UTF-8 sequence so the cut is not mistaken for bad encoding.
      var end = bytes.endIndex
      var back = 0
      while end > bytes.startIndex, back < 4, (bytes[end - 1] & 0xC0) == 0x80 {
        end -= 1
        back += 1
      }
      if end > bytes.startIndex, bytes[end - 1] >= 0xC0 { end -= 1 }
      bytes = bytes[..<end]
    }
    // The common title, a line of plain letters with single spaces, is its own display text:
    // the Unicode checks below would find nothing in it, and cost a listing more than its reads.
    if plainLines, size <= maximumBytes, let plain = plainLine(bytes) {
      return Title(text: plain, displayText: plain, byteCount: size, problems: problems)
    }
    var decoded: String
    if let valid = String(validating: bytes, as: UTF8.self) {
      decoded = valid
    } else {
      let offset = firstInvalidOffset(bytes)
      problems.append(
        Diagnostic(
          code: .titleNotUTF8, severity: .error,
          message: "the title is not valid UTF-8; bad bytes are shown as \u{FFFD}. Save it as UTF-8",
          location: SourceLocation(offset: offset)))
      decoded = String(decoding: bytes, as: UTF8.self)
    }
    if decoded.unicodeScalars.contains("\0") {
      decoded = String(String.UnicodeScalarView(decoded.unicodeScalars.filter { $0 != "\0" }))
    }
    let full = Text.trimmed(decoded)
    if full.isEmpty {
      problems.append(
        Diagnostic(
          code: .titleEmpty, severity: .warning,
          message:
            "the title file holds no text; the memo shows its date. Remove the file or write a name in it"))
      return Title(text: nil, displayText: nil, byteCount: size, problems: problems)
    }
    if full.unicodeScalars.contains(where: Text.isLineBreak) {
      problems.append(
        Diagnostic(
          code: .titleSpansLines, severity: .warning,
          message: "the title spans more than one line; it is shown on one line. A title is one line"))
    }
    var line = Text.collapsingWhiteSpace(full)
    if line.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
      problems.append(
        Diagnostic(
          code: .titleControlCharacter, severity: .warning,
          message: "the title holds control characters; they are shown escaped"))
    }
    // Fewer UTF-8 bytes than the limit means fewer characters too; only a long title is counted.
    let tooLong = line.utf8.count > maximumCharacters && line.count > maximumCharacters
    if size > maximumBytes || tooLong {
      problems.append(
        Diagnostic(
          code: .titleTooLong, severity: .warning,
          message:
            "the title is \(size > maximumBytes ? "\(size) bytes" : "\(line.count) characters") long; "
            + "it is shown cut to \(maximumCharacters) characters. Shorten it"))
      if tooLong { line = String(line.prefix(maximumCharacters - 1)) + "…" }
    }
    return Title(text: full, displayText: line, byteCount: size, problems: problems)
  }

  /// The text of `bytes` when it is a plain line: printable ASCII and letters of the scripts in
  /// `plainLetter`, single spaces between words, at most `maximumCharacters` bytes, then only ASCII
  /// white space to the end. Nil for anything else, which the full reading handles.
  static func plainLine(_ bytes: ArraySlice<UInt8>) -> String? {
    var end = bytes.endIndex
    while end > bytes.startIndex, (0x09...0x0D).contains(bytes[end - 1]) || bytes[end - 1] == 0x20 {
      end -= 1
    }
    guard end > bytes.startIndex, end - bytes.startIndex <= maximumCharacters, bytes[bytes.startIndex] != 0x20
    else { return nil }
    var previous: UInt8 = 0
    var index = bytes.startIndex
    while index < end {
      let byte = bytes[index]
      if byte >= 0x80 {
        guard let length = plainLetter(bytes, at: index, end: end) else { return nil }
        index += length
        previous = 0
        continue
      }
      guard byte >= 0x20, byte <= 0x7E, byte != 0x20 || previous != 0x20 else { return nil }
      previous = byte
      index += 1
    }
    return String(decoding: bytes[..<end], as: UTF8.self)
  }

  /// The length of the UTF-8 sequence at `index` when it is a letter of Latin-1 to Hebrew
  /// (U+00C0–U+05FF), kana (U+3040–U+30FF) or a CJK ideograph (U+4E00–U+9FFF): none of them is
  /// white space, a control, a line break or a prefix that joins the space after it into one
  /// character (Unicode's Prepend), so a line of them and single spaces is its own display text.
  static func plainLetter(_ bytes: ArraySlice<UInt8>, at index: Int, end: Int) -> Int? {
    let lead = bytes[index]
    let length = lead >= 0xE0 && lead < 0xF0 ? 3 : lead >= 0xC0 && lead < 0xE0 ? 2 : 0
    guard length > 0, index + length <= end else { return nil }
    var value = UInt32(lead & (length == 2 ? 0x1F : 0x0F))
    for next in bytes[(index + 1)..<(index + length)] {
      guard next & 0xC0 == 0x80 else { return nil }
      value = value << 6 | UInt32(next & 0x3F)
    }
    switch value {
    case 0x00C0...0x05FF where length == 2: return 2
    case 0x3040...0x30FF, 0x4E00...0x9FFF: return 3
    default: return nil
    }
  }

  /// The offset of the first byte that does not start or continue a valid UTF-8 sequence.
  static func firstInvalidOffset(_ bytes: ArraySlice<UInt8>) -> Int {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let lead = bytes[index]
      let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
      guard length > 0, index + length <= bytes.endIndex,
        String(validating: bytes[index..<index + length], as: UTF8.self) != nil
      else { return index }
      index += length
    }
    return bytes.endIndex
  }
}
