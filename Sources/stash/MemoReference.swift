import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// A memo named on the command line: a base (`2026-03-14T08-05-12`), any file of the memo
/// (`…_audio.m4a`, `….parts`), or either with a folder in front. Used by `show` and `export`.
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
    guard let memo = reading.memos.first(where: { $0.base == base }) else {
      throw UsageError(
        message: "no memo '\(PathText.escaped(base))' in \(PathText.escaped(directory)) "
          + "(give a base, a file of the memo, or DIR/base; `stash ls \(PathText.escaped(directory))` lists them)"
      )
    }
    self.folder = reading
    self.memo = memo
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
