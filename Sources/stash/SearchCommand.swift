import StashFormat
import StashSearch

#if canImport(Glibc)
  import Glibc
#endif

/// `stash search PATTERN [FOLDER...]`: every place the pattern was said (or is in a title), newest
/// memo first, places in order within a memo. Exit 0 something found, 1 nothing, 2 usage or I/O.
enum SearchCommand {

  /// What one memo gave, as printed: its name and reference, and the hits.
  struct Found {
    var name: String
    var reference: String
    var audio: String?
    var base: String
    var hits: [SearchHit]

    /// The memo `found` of the folder at `path`.
    init(_ found: FolderSearch.Found, in path: String) {
      let candidate = found.candidate
      name = Memo.displayName(title: found.title, base: candidate.base, recordedAt: found.date)
      reference = PathText.join(path, candidate.base)
      audio = candidate.audio.map { PathText.join(path, $0.name) }
      base = candidate.base
      hits = found.hits
    }
  }

  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "search")
    if arguments.flags.contains("help") || arguments.flags.contains("h") {
      print(CommandCatalogue.help(for: "search")!, terminator: "")
      return 0
    }
    var positionals = arguments.positionals
    let patternText: String
    if let given = arguments.options["e"] {
      patternText = given
    } else {
      guard !positionals.isEmpty else {
        throw UsageError(message: "give what to look for: stash search PATTERN [FOLDER...]")
      }
      patternText = positionals.removeFirst()
    }
    let folders = positionals.isEmpty ? ["."] : positionals
    let json = try arguments.format(among: ["text", "json"]) == "json"
    let exact = arguments.flags.contains("exact")
    let folding = SearchFolding(
      caseSensitive: exact || arguments.flags.contains("case-sensitive"), keepAccents: exact)
    let pattern: SearchPattern
    do {
      pattern = try SearchPattern(
        patternText, regex: arguments.flags.contains("E") || arguments.flags.contains("regex"),
        wholeWords: arguments.flags.contains("w") || arguments.flags.contains("word"), folding: folding)
    } catch {
      throw UsageError(message: error.message)
    }
    var limit = Int.max
    if let text = arguments.options["max-count"] {
      guard let n = Int(text), n >= 0 else {
        throw UsageError(message: "--max-count takes a number of places, 0 or more, not '\(text)'")
      }
      limit = n
    }
    let listOnly = arguments.flags.contains("l") || arguments.flags.contains("files-with-matches")
    let countOnly = arguments.flags.contains("count")
    if listOnly && countOnly { throw UsageError(message: "-l and --count ask for different outputs") }
    if json && (listOnly || countOnly) {
      throw UsageError(
        message:
          "\(listOnly ? "-l" : "--count") has no JSON form: --format json lists every hit with its memo")
    }
    if getenv("TZ") == nil { setenv("TZ", ":/etc/localtime", 1) }
    if limit == 0 {
      // As grep's `-m 0`: no place is wanted, so nothing is read; the JSON form is an empty result.
      var output = SearchOutput(
        json: json, pattern: patternText, colour: false, severalFolders: folders.count > 1)
      output.finish(memos: 0)
      return 1
    }

    // Each folder's files are searched as its names are read; what they gave is told in the
    // listing's order (`stash ls`'s), several folders' memos merged into it.
    // Every match is kept: `--max-count` counts places, which may hold several.
    var trouble = false
    var searches: [FolderSearch] = []
    var searched: [String] = []
    for folder in folders {
      do {
        searches.append(try FolderSearch(folder: folder, pattern: pattern, wanted: .places(limit)))
        searched.append(folder)
      } catch {
        standardError("stash search: \(PathText.escaped(folder)): \(error.message)")
        trouble = true
      }
    }
    let colour =
      !json && isatty(1) != 0 && (getenv("NO_COLOR").map { String(cString: $0).isEmpty } ?? true)
      && (getenv("TERM").map { String(cString: $0) != "dumb" } ?? false)
    var output = SearchOutput(
      json: json, pattern: patternText, colour: colour, severalFolders: folders.count > 1)
    var memosWithHits = 0
    FolderSearch.run(searches) { index, found in
      if let warning = found.warning { standardError("stash search: warning: \(warning)") }
      if let error = found.error {
        standardError("stash search: \(error)")
        trouble = true
      }
      guard !found.hits.isEmpty else { return }
      memosWithHits += 1
      let memo = Found(found, in: searches[index].order.path)
      if listOnly {
        output.write(memo.reference + "\n")
      } else if countOnly {
        // Places, as lines are printed (grep -c counts lines, not matches).
        output.write("\(memo.reference): \(SearchHit.lines(memo.hits).count)\n")
      } else {
        output.hits(memo, folder: searched[index])
      }
    }
    // Words still in a parts folder are not searched (a recording not yet recovered): counted, with
    // what makes them searchable.
    let unrecovered = searches.reduce(0) { $0 + $1.unrecovered }
    output.finish(memos: memosWithHits, unrecovered: unrecovered)
    if unrecovered > 0 && !json {
      standardError(
        "stash search: \(Text.count(unrecovered, "memo")) \(unrecovered == 1 ? "has" : "have") a parts folder "
          + "and no finished transcript: what was said there is searched once `stash recover` assembles it")
    }
    if trouble { return 2 }
    return memosWithHits > 0 ? 0 : 1
  }

}

/// How `stash search` prints: a line per hit (`NAME  TIME  TEXT`, the match coloured on a terminal
/// and in [brackets] otherwise), or one JSON document.
struct SearchOutput {
  let json: Bool
  let pattern: String
  let colour: Bool
  let severalFolders: Bool
  private var hitCount = 0
  private var buffer = ""

  init(json: Bool, pattern: String, colour: Bool, severalFolders: Bool) {
    (self.json, self.pattern, self.colour, self.severalFolders) = (json, pattern, colour, severalFolders)
    if json {
      buffer =
        "{\n  \"version\": 1,\n  \"pattern\": " + JSONValue.string(pattern).serialized() + ",\n  \"hits\": ["
    }
  }

  mutating func write(_ text: String) {
    buffer += text
    if buffer.utf8.count > 1 << 16 { flush() }
  }

  mutating func flush() {
    Listing.write(Array(buffer.utf8))
    buffer = ""
  }

  /// The hits of one memo: in JSON each on its own; as lines, those at one place and time on one
  /// line with every match shown (`SearchHit.lines`).
  mutating func hits(_ memo: SearchCommand.Found, folder: String) {
    guard !json else {
      for hit in memo.hits { self.hit(hit, of: memo, folder: folder) }
      return
    }
    for line in SearchHit.lines(memo.hits) { self.line(line, of: memo, folder: folder) }
  }

  /// One hit as a member of the JSON document's hits.
  private mutating func hit(_ whole: SearchHit, of memo: SearchCommand.Found, folder: String) {
    hitCount += 1
    let hit = whole.bounded()
    var members: [(String, JSONValue)] = [
      ("folder", .string(folder)), ("base", .string(memo.base)), ("audio", .optional(memo.audio)),
      ("displayName", .string(memo.name)),
      ("in", .string(hit.place.key)), ("text", .string(hit.text)),
      ("matchStart", .int(hit.match.lowerBound)), ("matchEnd", .int(hit.match.upperBound)),
    ]
    switch hit.place {
    case .cues(let first, _):
      members += [
        ("cue", .int(first)), ("cueStart", .seconds(hit.cueStart!)), ("cueEnd", .seconds(hit.cueEnd!)),
        ("start", .seconds(hit.start!)),
      ]
    case .bookmark: members.append(("start", .seconds(hit.start!)))
    case .title: break
    }
    let value = JSONValue.object(members).serialized(pretty: true).replacingAll("\n", "\n    ")
    write((hitCount == 1 ? "\n    " : ",\n    ") + value)
  }

  /// Hits of one text at one time (their matches in order, apart) as one line: `NAME  TIME  TEXT`.
  private mutating func line(_ hits: ArraySlice<SearchHit>, of memo: SearchCommand.Found, folder: String) {
    hitCount += hits.count
    let scalars = Array(hits[hits.startIndex].text.unicodeScalars)
    func text(_ range: Range<Int>) -> String {
      PathText.escaped(String(String.UnicodeScalarView(scalars[range])))
    }
    var shown = ""
    var from = 0
    for hit in hits {
      let matched = text(hit.match)
      shown +=
        text(from..<hit.match.lowerBound) + (colour ? "\u{1B}[1;31m\(matched)\u{1B}[0m" : "[\(matched)]")
      from = hit.match.upperBound
    }
    shown += text(from..<scalars.count)
    let first = hits[hits.startIndex]
    var when = first.start.map { TimeText.clock($0) } ?? "title"
    if case .bookmark = first.place { when += " bookmark" }
    var name = PathText.escaped(memo.name)
    if severalFolders { name = PathText.escaped(folder) + ": " + name }
    if colour { name = "\u{1B}[1m\(name)\u{1B}[0m" }
    write("\(name)  \(when)  \(shown)\n")
  }

  /// Ends the output (the JSON document's summary) and writes what is left.
  /// Ends the output; `unrecovered` is left out when the folders were not read (`-m 0`).
  mutating func finish(memos: Int, unrecovered: Int? = nil) {
    if json {
      buffer +=
        (hitCount == 0 ? "]" : "\n  ]")
        + ",\n  \"summary\": {\"hits\": \(hitCount), \"memos\": \(memos)"
        + (unrecovered.map { ", \"unrecovered\": \($0)" } ?? "") + "}\n}\n"
    }
    flush()
  }
}
