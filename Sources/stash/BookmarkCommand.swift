import StashFormat
import StashRecover

/// `stash bookmark MEMO AT [NOTE]` adds a bookmark and prints it; `stash bookmark --remove MEMO AT`
/// removes the one within half a second of AT; `stash bookmarks MEMO [--json]` lists them in time
/// order. MEMO is what `show` takes. The file is `<base>_bookmarks.vtt` (FORMAT.md §8), read by
/// StashFormat and written by StashRecover.
enum BookmarkCommand {
  static func add(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "bookmark")
    let remove = arguments.flags.contains("remove")
    let counts = remove ? 2...2 : 2...3
    guard counts.contains(arguments.positionals.count) else {
      throw UsageError(
        message: remove
          ? "give a memo and a moment: stash bookmark --remove MEMO AT"
          : "give a memo, a moment and perhaps a note: stash bookmark MEMO AT [NOTE]")
    }
    let reference = try MemoReference(arguments.positionals[0])
    let at = try moment(arguments.positionals[1])
    let memo = reference.memo
    if remove {
      do {
        let removed = try MemoBookmarks.remove(
          near: at, base: memo.base, in: reference.folder.path, audioLength: memo.durationSeconds)
        print("removed " + line(removed))
        return 0
      } catch let error as RecoverError where error.code == .notFound && memo.hasAudio {
        standardError("stash bookmark: \(error)")
        return 1
      }
    }
    let added = try MemoBookmarks.add(
      Bookmark(at: at, note: arguments.positionals.count == 3 ? arguments.positionals[2] : ""),
      base: memo.base, in: reference.folder.path, audioLength: memo.durationSeconds)
    print(line(added))
    return 0
  }

  static func list(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "bookmarks")
    guard arguments.positionals.count == 1 else {
      throw UsageError(message: "give one memo: stash bookmarks MEMO")
    }
    let json = try arguments.format(among: ["text", "json"]) == "json"
    let reference = try MemoReference(arguments.positionals[0])
    let bookmarks = reference.bookmarks()
    if let path = reference.path(.bookmarks) {
      for problem in bookmarks.problems {
        standardError(
          "stash bookmarks: warning: " + problem.warning(file: path, done: "listed what it holds"))
      }
    }
    if json {
      print(bookmarks.json.serialized(pretty: true))
    } else {
      for bookmark in bookmarks.items { print(line(bookmark)) }
    }
    return bookmarks.isBroken ? 2 : 0
  }

  /// A moment as typed: `83.5`, `1:23`, `1:23.5` or `1:02:03`.
  static func moment(_ text: String) throws(UsageError) -> Double {
    guard let seconds = TimeText.seconds(text) else {
      throw UsageError(
        message: "'\(PathText.escaped(text))' is not a moment: give seconds (83.5) or m:ss (1:23.5)")
    }
    return seconds
  }

  /// One bookmark on a line: its moment to the millisecond, two spaces, its note.
  static func line(_ bookmark: Bookmark) -> String {
    let note = PathText.escaped(bookmark.note)
    return TimeText.preciseClock(bookmark.at) + (note.isEmpty ? "" : "  " + note)
  }
}
