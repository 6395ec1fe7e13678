import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// A memo named on the command line: a base (`2026-03-14T08-05-12`), any file of the memo
/// (`…_audio.m4a`, `….parts`), its title (`Morning loop`, as `stash ls` shows it), or any of these
/// with a folder in front. Used by `show` and `export`.
struct MemoReference {
  /// The folder as read.
  var folder: MemoFolder
  /// The memo found in it.
  var memo: Memo

  /// Finds the memo `argument` names; the error says what was looked for and where.
  init(_ argument: String) throws(UsageError) {
    var text = argument
    while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
    let slash = text.lastIndex(of: "/")
    let directory = slash.map { $0 == text.startIndex ? "/" : String(text[..<$0]) } ?? "."
    let last = slash.map { String(text[text.index(after: $0)...]) } ?? text
    var base = last
    for kind in MemoFileKind.allCases where last.hasSuffix(kind.suffix) && last.count > kind.suffix.count {
      base = String(last.dropLast(kind.suffix.count))
      break
    }
    let reading: MemoFolder
    do {
      reading = try MemoFolder.read(path: directory)
    } catch {
      throw UsageError(message: "\(PathText.escaped(directory)): \(error.message)")
    }
    var found = reading.memos.first { $0.base == base }
    if found == nil { found = try MemoReference.titled(last, in: reading) }
    guard let memo = found else {
      throw UsageError(
        message: "no memo '\(PathText.escaped(last))' in \(PathText.escaped(directory)) "
          + "(give a base, a file of the memo, a title, or DIR/base; "
          + "`stash ls --bases \(PathText.escaped(directory))` lists them)"
      )
    }
    self.folder = reading
    self.memo = memo
  }

  /// The memo whose title is `title`: exactly, else ignoring case; nil when none is. Two memos
  /// with the title are not guessed between: the error names their bases.
  static func titled(_ title: String, in folder: MemoFolder) throws(UsageError) -> Memo? {
    for matches in [
      { (memo: Memo) in memo.titleText == title },
      { (memo: Memo) in memo.titleText.map { $0.lowercased() == title.lowercased() } ?? false },
    ] {
      let found = folder.memos.filter(matches)
      if found.count == 1 { return found[0] }
      if found.count > 1 {
        throw UsageError(
          message: "\(found.count) memos are titled '\(PathText.escaped(title))': give one of their bases ("
            + found.map { PathText.escaped($0.base) }.joined(separator: ", ") + ")")
      }
    }
    return nil
  }

  /// The memo's transcript, parsed, or nil when it has none; throws when it cannot be read.
  func transcript() throws(FormatError) -> WebVTTDocument? {
    guard let path = folder.path(of: memo, .transcript) else { return nil }
    return WebVTTParser.parse(try ReadOnlyFile.contents(of: path))
  }

  /// The memo's route, read, or nil when it has none; throws when it cannot be read.
  func route() throws(FormatError) -> GPXDocument? {
    guard let path = folder.path(of: memo, .route) else { return nil }
    return try GPXReader.read(path: path)
  }
}
