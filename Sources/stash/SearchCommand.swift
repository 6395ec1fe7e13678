import StashFormat
import StashSearch

#if canImport(Glibc)
  import Glibc
#endif

/// `stash search PATTERN [FOLDER...]`: every place the pattern was said (or is in a title), newest
/// memo first, places in order within a memo. Exit 0 something found, 1 nothing, 2 usage or I/O.
enum SearchCommand {

  /// A memo to search: its folder, its place in that folder's listing, and when it was recorded.
  /// Small: at 100,000 memos a copy of each memo's names here was a seventh of the memory.
  struct Place {
    var folder: Int32
    var position: Int32
    var date: Double
  }

  /// What one memo gave: its printed name and reference, the hits, and a warning or an error.
  struct Found {
    var name: String
    var reference: String
    var audio: String?
    var base: String
    var hits: [SearchHit]
    var warning: String?
    var error: String?
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

    // The memos whose files gave something, of every folder, in the listing's order (`stash
    // ls`'s); several folders' memos are merged into that order.
    var trouble = false
    // Each with what its files gave (an index in `kept`), or -1 for a memo to search in its turn.
    var places: [(place: Place, result: Int32)] = []
    var kept: [SearchAhead.Result] = []
    var orders: [MemoFolderOrder<MemoNames>?] = []
    var aheads: [SearchAhead] = []
    for (index, folder) in folders.enumerated() {
      // Each transcript and title is searched as the listing meets it; what they gave is put in
      // the listing's order once the names are read and dated.
      // Every match is kept: `--max-count` counts places, which may hold several.
      let ahead = SearchAhead(folder: folder, pattern: pattern)
      aheads.append(ahead)
      do {
        let read = Result { () throws(FormatError) in try MemoNames(path: folder, seeing: ahead.see) }
        // Whether or not the folder could be read to its end, what was handed on is searched.
        ahead.finish()
        let names = try read.get()
        let order = MemoFolderOrder<MemoNames>(names: names, path: folder) { names, index in
          names.has(index, .transcript) || names.has(index, .title) || names.has(index, .bookmarks)
        }
        guard !ahead.hasOverflowed else {
          // Most memos hold the pattern: each is searched in its turn.
          places += (0..<order.count).map {
            (Place(folder: Int32(index), position: Int32($0), date: order.date(at: $0)), -1)
          }
          orders.append(order)
          continue
        }
        var positions = [Int32](repeating: -1, count: names.count)
        for (position, memo) in order.order.enumerated() { positions[memo] = Int32(position) }
        for (base, result) in ahead.results() {
          // A file of a base that is no memo listed (an orphan) is passed over, as `ls` passes it.
          guard let memo = names.index(of: base), positions[memo] >= 0 else { continue }
          let position = Int(positions[memo])
          places.append(
            (
              Place(folder: Int32(index), position: Int32(position), date: order.date(at: position)),
              Int32(kept.count)
            ))
          kept.append(result)
        }
        orders.append(order)
      } catch {
        standardError("stash search: \(PathText.escaped(folder)): \(error.message)")
        trouble = true
        orders.append(nil)
      }
    }
    places.sort { ($0.place.folder, $0.place.position) < ($1.place.folder, $1.place.position) }
    // Only a folder that was read has places.
    let candidate = { (place: Place) in orders[Int(place.folder)]!.candidate(at: Int(place.position)) }
    if folders.count > 1 {
      places.sort { a, b in
        MemoFolder.listsBefore(a.place.date, candidate(a.place).base, b.place.date, candidate(b.place).base)
      }
    }
    let colour =
      !json && isatty(1) != 0 && (getenv("NO_COLOR").map { String(cString: $0).isEmpty } ?? true)
      && (getenv("TERM").map { String(cString: $0) != "dumb" } ?? false)
    var output = SearchOutput(
      json: json, pattern: patternText, colour: colour, severalFolders: folders.count > 1)
    var memosWithHits = 0
    var start = 0
    // On both cores, a batch at a time (a memo to search in its turn is searched here, and a
    // batch's hits are printed before the next is searched): titles for the names of memos with
    // hits, and those memos.
    while start < places.count {
      let batch = places[start..<min(places.count, start + 2048)]
      start += batch.count
      let found = Parallel.map(batch.count, chunk: 16) { n in
        let (place, result) = batch[batch.startIndex + n]
        return SearchCommand.found(
          place, result < 0 ? nil : kept[Int(result)], in: orders[Int(place.folder)]!,
          ahead: aheads[Int(place.folder)], limit: limit)
      }
      for ((place, _), memo) in zip(batch, found) {
        guard let memo else { continue }
        if let warning = memo.warning { standardError("stash search: warning: \(warning)") }
        if let error = memo.error {
          standardError("stash search: \(error)")
          trouble = true
        }
        guard !memo.hits.isEmpty else { continue }
        memosWithHits += 1
        if listOnly {
          output.write(memo.reference + "\n")
        } else if countOnly {
          // Places, as lines are printed (grep -c counts lines, not matches).
          output.write("\(memo.reference): \(SearchHit.lines(memo.hits).count)\n")
        } else {
          output.hits(memo, folder: folders[Int(place.folder)])
        }
      }
    }
    // Words still in a parts folder are not searched (a recording not yet recovered): counted, with
    // what makes them searchable.
    let unrecovered = orders.reduce(0) { sum, order in
      guard let names = order?.names else { return sum }
      return sum + (0..<names.count).count { names.has($0, .parts) && !names.has($0, .transcript) }
    }
    output.finish(memos: memosWithHits, unrecovered: unrecovered)
    if unrecovered > 0 && !json {
      standardError(
        "stash search: \(Text.count(unrecovered, "memo")) \(unrecovered == 1 ? "has" : "have") a parts folder "
          + "and no finished transcript: what was said there is searched once `stash recover` assembles it")
    }
    if trouble { return 2 }
    return memosWithHits > 0 ? 0 : 1
  }

  /// What one memo gave, from what its files gave as the folder was read (`SearchAhead`), or
  /// searched now when that is nil: nil when that was nothing to print. Its title is read here
  /// when a hit in its transcript needs its name.
  static func found(
    _ place: Place, _ kept: SearchAhead.Result?, in order: MemoFolderOrder<MemoNames>, ahead: SearchAhead,
    limit: Int
  ) -> Found? {
    let candidate = order.candidate(at: Int(place.position))
    let result = kept ?? ahead.memo(candidate)
    var title = result.title?.0
    if title == nil, let slot = candidate.title, slot.kind == .file {
      title = Title.read(order.opened.file(slot.name), listedAsRegularFile: true)
    }
    // The title's hits, the bookmarks', then the transcript's: those of the first `limit` places
    // (a place is a line printed: matches at one time in one text).
    let all = (result.title?.1 ?? []) + result.bookmarks + result.transcript
    let hits = limit == .max ? all : Array(SearchHit.lines(all).prefix(limit).joined())
    guard !hits.isEmpty || result.warning != nil || result.error != nil else { return nil }
    return Found(
      name: Memo.displayName(title: title, base: candidate.base, recordedAt: place.date),
      reference: PathText.join(order.path, candidate.base),
      audio: candidate.audio.map { PathText.join(order.path, $0.name) }, base: candidate.base, hits: hits,
      warning: result.warning, error: result.error)
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
