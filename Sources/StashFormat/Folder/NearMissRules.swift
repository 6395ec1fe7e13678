/// The small corrections that turn a near-miss name into a Stash name: wrong case, a synonym for the
/// kind word, another separator, stray blanks, or a file manager's copy mark (`name 2.m4a`, `name (1).m4a`).
enum NearMissRules {
  /// The words people and tools use for each kind, lowercased; the first is the right one.
  static let words: [(MemoFileKind, [String], String)] = [
    (.audio, ["audio", "recording", "sound", "voice"], "m4a"),
    (.transcript, ["transcription", "transcript", "captions", "subtitles", "subs"], "vtt"),
    (.route, ["track", "route", "gps", "path", "trk"], "gpx"),
    (.title, ["title", "name", "titles"], "txt"),
    (.bookmarks, ["bookmarks", "bookmark"], "vtt"),
  ]

  /// The intended name when `name` is a near miss, else nil.
  static func match(_ name: String) -> FolderName? {
    var reasons: [String] = []
    var rest = Substring(name)
    // The extension: right letters, maybe in the wrong case, maybe followed by a copy mark.
    guard let dot = rest.lastIndex(of: ".") else { return partsMatch(name) }
    var stem = rest[..<dot]
    let ext = rest[rest.index(after: dot)...]
    if let copy = stripCopyMark(stem) {
      stem = copy
      reasons.append("it carries a copy mark that a file manager adds to duplicates")
    }
    let entries = words.filter { $0.2 == ext.lowercased() }
    guard !entries.isEmpty else { return partsMatch(name) }
    rest = stem
    // The kind word, after a separator.
    guard let separator = rest.lastIndex(where: { $0 == "_" || $0 == "-" || $0 == " " || $0 == "." })
    else { return nil }
    let word = rest[rest.index(after: separator)...]
    // Two kinds share an extension (a transcript and bookmarks are both .vtt): the word decides.
    guard let entry = entries.first(where: { $0.1.contains(word.lowercased()) }) else { return nil }
    if ext != entry.2 { reasons.append("the extension should be lowercase .\(entry.2)") }
    let kind = entry.0
    let right = entry.1[0]
    if word.lowercased() != right {
      reasons.append("Stash names this file \(kind.suffix), not \(rest[separator...])")
    } else if word != right {
      reasons.append("the suffix is case-sensitive: \(kind.suffix)")
    }
    if rest[separator] != "_" { reasons.append("the separator before \"\(right)\" should be \"_\"") }
    let rawBase = String(rest[..<separator])
    var base = rawBase
    if let trimmed = FolderName.trimmedBase(rawBase) {
      base = trimmed
      reasons.append("the base has a space or other blank at its start or end")
    }
    guard !base.isEmpty, !reasons.isEmpty else { return nil }
    return .nearMiss(
      intended: base + kind.suffix, base: base, kind: kind, reason: reasons.joined(separator: "; "))
  }

  /// `<base>.Parts`, `<base>_parts`, `<base>.parts 2`: a parts folder by another spelling.
  static func partsMatch(_ name: String) -> FolderName? {
    var stem = Substring(name)
    var reasons: [String] = []
    if let copy = stripCopyMark(stem) {
      stem = copy
      reasons.append("it carries a copy mark that a file manager adds to duplicates")
    }
    guard stem.count > 6 else { return nil }
    let tail = stem.suffix(6)
    guard tail.lowercased() == ".parts" || tail.lowercased() == "_parts" || tail.lowercased() == "-parts"
    else { return nil }
    if tail != ".parts" { reasons.append("a parts folder is named <base>.parts exactly") }
    var base = String(stem.dropLast(6))
    if let trimmed = FolderName.trimmedBase(base) {
      base = trimmed
      reasons.append("the base has a space or other blank at its start or end")
    }
    guard !base.isEmpty, !reasons.isEmpty else { return nil }
    return .nearMiss(
      intended: base + ".parts", base: base, kind: .parts, reason: reasons.joined(separator: "; "))
  }

  /// `stem 2`, `stem (1)`, `stem copy`, `stem copy 3`, `stem - Copy`: the stem without the mark.
  static func stripCopyMark(_ stem: Substring) -> Substring? {
    var s = stem
    if s.hasSuffix(")"), let open = s.lastIndex(of: "("), s.index(after: open) < s.index(before: s.endIndex),
      s[s.index(after: open)..<s.index(before: s.endIndex)].allSatisfy(\.isASCIIDigit)
    {
      s = s[..<open]
      return s.hasSuffix(" ") ? s.dropLast() : s
    }
    let lower = s.lowercased()
    for mark in [" - copy", " copy"] where lower.hasSuffix(mark) {
      return s.dropLast(mark.count)
    }
    if let space = s.lastIndex(of: " "), s.index(after: space) < s.endIndex,
      s[s.index(after: space)...].allSatisfy(\.isASCIIDigit)
    {
      var t = s[..<space]
      let lowerT = t.lowercased()
      if lowerT.hasSuffix(" copy") { t = t.dropLast(5) }
      return t
    }
    return nil
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
