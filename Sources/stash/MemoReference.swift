import StashFormat
import StashLint

#if canImport(Glibc)
  import Glibc
#endif

/// A memo named on the command line: a base (`2026-03-14T08-05-12`), any file of the memo
/// (`…_audio.m4a`, `….parts`), its name as `stash ls` shows it (a title such as `Morning loop`,
/// or `2026-03-14 08:05` for an untitled memo), the date `ls` starts its line with, a unique part
/// of a title, or any of these with a folder in front. Used by `show` and `export`.
struct MemoReference {
  /// The folder's memos in the listing's order, from its names.
  var folder: MemoFolderOrder<FolderGrouping>
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
    let reading: MemoFolderOrder<FolderGrouping>
    do {
      reading = try MemoFolderOrder<FolderGrouping>(path: directory)
    } catch {
      throw UsageError(message: "\(PathText.escaped(directory)): \(error.message)")
    }
    // A base (or a file of the memo) is found from the names alone; a name or title needs every
    // memo read.
    var found = reading.position(ofBase: base).map(reading.memo)
    let memos = found == nil ? reading.memos() : []
    if found == nil { found = try MemoReference.named(last, in: memos) }
    guard let memo = found else {
      var message =
        "no memo '\(PathText.escaped(last))' in \(PathText.escaped(directory)) "
        + "(give a base, a file of the memo, a title or a part of one, the name or date `stash ls` shows, "
        + "or DIR/ before any of these; `stash ls --bases \(PathText.escaped(directory))` lists them)"
      let near = MemoReference.near(last, in: memos)
      if !near.isEmpty {
        message += "; did you mean " + near.map(MemoReference.described).joined(separator: ", ") + "?"
      }
      throw UsageError(message: message)
    }
    self.folder = reading
    self.memo = memo
  }

  /// How many memos a message names before it counts the rest.
  static let namedInMessages = 5

  /// A memo as a message names it: its name as `stash ls` shows it, and its base.
  static func described(_ memo: Memo) -> String {
    "'\(PathText.escaped(memo.displayName))' [\(PathText.escaped(memo.base))]"
  }

  /// The memo `text` names other than by its base: the name `stash ls` shows (a title, or the
  /// date of an untitled memo), the date `stash ls` starts its line with, then the same ignoring
  /// case, then a part of a title or name, ignoring case. The first of these that some memo
  /// matches decides; two memos matching it are not guessed between: the error names them.
  static func named(_ text: String, in memos: [Memo]) throws(UsageError) -> Memo? {
    let lowered = text.lowercased()
    let tiers: [(words: String, matches: (Memo) -> Bool)] = [
      ("are named", { $0.displayName == text || $0.titleText == text }),
      ("were recorded at", { RecordingDate.localMinute($0.recordedAt) == text }),
      ("are named", { $0.displayName.lowercased() == lowered || $0.titleText?.lowercased() == lowered }),
      (
        "have",
        {
          $0.displayName.lowercased().contains(lowered)
            || $0.titleText?.lowercased().contains(lowered) == true
        }
      ),
    ]
    for (words, matches) in tiers {
      let found = memos.filter(matches)
      if found.count == 1 { return found[0] }
      if found.count > 1 {
        let named = found.prefix(namedInMessages).map(described).joined(separator: ", ")
        let rest = found.count > namedInMessages ? " and \(found.count - namedInMessages) more" : ""
        let what =
          words == "have" ? "'\(PathText.escaped(text))' in their names" : "'\(PathText.escaped(text))'"
        throw UsageError(
          message: "\(found.count) memos \(words) \(what): \(named)\(rest); give more of the name, or a base")
      }
    }
    return nil
  }

  /// Memos whose names share a word with `text` (ignoring case), for a suggestion; at most
  /// `namedInMessages`, newest first as the folder lists them.
  static func near(_ text: String, in memos: [Memo]) -> [Memo] {
    func words(_ s: String) -> Set<String> {
      Set(s.lowercased().split { !$0.isLetter && !$0.isNumber }.filter { $0.count > 1 }.map(String.init))
    }
    let wanted = words(text)
    guard !wanted.isEmpty else { return [] }
    return Array(
      memos.filter { !words($0.displayName).isDisjoint(with: wanted) }.prefix(namedInMessages))
  }

  /// The memo's one account of its problems (what `stash lint` reports for it, with the folder's
  /// `.stashlint`); nil when the folder can no longer be read.
  func account(cached: Bool, warn: (String) -> Void) -> MemoAccount? {
    guard let position = folder.position(ofBase: memo.base, bytes: true) else { return nil }
    let cache = cached ? CacheCommand.open(folder: folder.path, warn: warn) : nil
    let account = MemoAccount.read(
      folder.candidate(at: position), folder: folder.path, now: folder.now, opened: folder.opened,
      configuration: MemoAccount.configuration(of: folder.path, warn: warn),
      collisions: LintEngine.collisionFindings(folder.names, folder: folder.path, now: folder.now),
      cache: cache)
    cache?.save(whole: false, memoCount: folder.count).map(warn)
    return account
  }

  /// The full path of the memo's file of `kind`, or nil when it has none.
  func path(_ kind: MemoFileKind) -> String? {
    memo.files[kind].map { PathText.join(folder.path, $0) }
  }

  /// The memo's transcript, parsed, or nil when it has none; throws when it cannot be read.
  func transcript() throws(FormatError) -> WebVTTDocument? {
    guard let path = path(.transcript) else { return nil }
    return WebVTTParser.parse(try ReadOnlyFile.contents(of: path))
  }

  /// The memo's bookmarks, read (none when it has no bookmarks file); what is wrong with the file
  /// is in their `problems`.
  func bookmarks() -> Bookmarks {
    path(.bookmarks).map { Bookmarks.read(path: $0, audioLength: memo.durationSeconds) } ?? Bookmarks()
  }

  /// The memo's route, read, or nil when it has none; throws when it cannot be read.
  func route() throws(FormatError) -> GPXDocument? {
    guard let path = path(.route) else { return nil }
    return try GPXReader.read(path: path)
  }
}
