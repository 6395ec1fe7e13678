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
      guard let n = Int(text), n > 0 else {
        throw UsageError(message: "--max-count takes a number above 0, not '\(text)'")
      }
      limit = n
    }
    let listOnly = arguments.flags.contains("l") || arguments.flags.contains("files-with-matches")
    let countOnly = arguments.flags.contains("count")
    if listOnly && countOnly { throw UsageError(message: "-l and --count ask for different outputs") }
    if getenv("TZ") == nil { setenv("TZ", ":/etc/localtime", 1) }

    // The memos with words to search, of every folder, in the listing's order (`stash ls`'s);
    // several folders' memos are merged into that order.
    var trouble = false
    var places: [Place] = []
    var orders: [MemoFolderOrder<MemoNames>?] = []
    for (index, folder) in folders.enumerated() {
      do {
        let order = try MemoFolderOrder<MemoNames>(path: folder) { names, index in
          names.has(index, .transcript) || names.has(index, .title)
        }
        places += (0..<order.count).map {
          Place(folder: Int32(index), position: Int32($0), date: order.date(at: $0))
        }
        orders.append(order)
      } catch {
        standardError("stash search: \(PathText.escaped(folder)): \(error.message)")
        trouble = true
        orders.append(nil)
      }
    }
    // Only a folder that was read has places.
    let candidate = { (place: Place) in orders[Int(place.folder)]!.candidate(at: Int(place.position)) }
    if folders.count > 1 {
      places.sort { a, b in
        MemoFolder.listsBefore(a.date, candidate(a).base, b.date, candidate(b).base)
      }
    }
    let colour =
      !json && isatty(1) != 0 && (getenv("NO_COLOR").map { String(cString: $0).isEmpty } ?? true)
      && (getenv("TERM").map { String(cString: $0) != "dumb" } ?? false)
    var output = SearchOutput(
      json: json, pattern: patternText, colour: colour, severalFolders: folders.count > 1)
    var memosWithHits = 0
    var start = 0
    while start < places.count {
      let batch = places[start..<min(places.count, start + 2048)]
      let found = Parallel.map(batch.count, chunk: 16) { offset in
        let place = batch[batch.startIndex + offset]
        return search(place, in: orders[Int(place.folder)]!, pattern: pattern, limit: limit)
      }
      for (place, memo) in zip(batch, found) {
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
          output.write("\(memo.reference): \(memo.hits.count)\n")
        } else {
          output.hits(memo, folder: folders[Int(place.folder)])
        }
      }
      start += batch.count
    }
    output.finish(memos: memosWithHits)
    if trouble { return 2 }
    return memosWithHits > 0 ? 0 : 1
  }

  /// Reads and searches one memo: its title and its transcript.
  static func search(
    _ place: Place, in order: MemoFolderOrder<MemoNames>, pattern: SearchPattern, limit: Int
  ) -> Found? {
    let candidate = order.candidate(at: Int(place.position))
    let (folder, opened) = (order.path, order.opened)
    var title: Title?
    if let slot = candidate.title, slot.kind == .file {
      title = Title.read(opened.file(slot.name), listedAsRegularFile: true)
    }
    var (warning, error): (String?, String?) = (nil, nil)
    var transcript: [UInt8]?
    let path = { (name: String) in PathText.escaped(PathText.join(folder, name)) }
    if let slot = candidate.transcript {
      if slot.kind != .file {
        error = "\(path(slot.name)): not a regular file; not searched"
      } else {
        do {
          // Most transcripts fit in one read, with no fstat(2); a longer one is read whole after.
          let location = opened.file(slot.name)
          let start = try ReadOnlyFile.start(sizedUpTo: 1 << 16, of: location, listedAsRegularFile: true)
          transcript =
            start.size <= start.bytes.count
            ? start.bytes : try ReadOnlyFile(location, listedAsRegularFile: true).readAll()
        } catch let failure {
          error = "\(path(slot.name)): \(failure.message)"
        }
      }
    }
    let (hits, damage) = MemoSearch.hits(pattern, title: title?.text, transcript: transcript, limit: limit)
    if let damage, let slot = candidate.transcript {
      let line = damage.location.line.map { ":\($0)" } ?? ""
      warning =
        "\(path(slot.name))\(line): \(damage.message) [\(damage.code.rawValue)]; searched what it holds"
    }
    // Most memos hold no match and say nothing: nothing is made for them.
    guard !hits.isEmpty || warning != nil || error != nil else { return nil }
    return Found(
      name: Memo.displayName(title: title, base: candidate.base, recordedAt: place.date),
      reference: PathText.join(folder, candidate.base),
      audio: candidate.audio.map { PathText.join(folder, $0.name) }, base: candidate.base, hits: hits,
      warning: warning, error: error)
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

  /// The hits of one memo.
  mutating func hits(_ memo: SearchCommand.Found, folder: String) {
    for hit in memo.hits {
      hitCount += 1
      if json {
        var members: [(String, JSONValue)] = [
          ("folder", .string(folder)), ("base", .string(memo.base)), ("audio", .optional(memo.audio)),
          ("displayName", .string(memo.name)),
          ("in", .string(hit.place == .title ? "title" : "transcript")), ("text", .string(hit.text)),
          ("matchStart", .int(hit.match.lowerBound)), ("matchEnd", .int(hit.match.upperBound)),
        ]
        if case .cues = hit.place {
          members += [
            ("cueStart", .double(hit.cueStart!)), ("cueEnd", .double(hit.cueEnd!)),
            ("start", .double(hit.start!)),
          ]
        }
        let value = JSONValue.object(members).serialized(pretty: true).replacingAll("\n", "\n    ")
        write((hitCount == 1 ? "\n    " : ",\n    ") + value)
        continue
      }
      let scalars = Array(hit.text.unicodeScalars)
      func text(_ range: Range<Int>) -> String {
        PathText.escaped(String(String.UnicodeScalarView(scalars[range])))
      }
      let before = text(0..<hit.match.lowerBound)
      let matched = text(hit.match)
      let after = text(hit.match.upperBound..<scalars.count)
      let shown = colour ? "\u{1B}[1;31m\(matched)\u{1B}[0m" : "[\(matched)]"
      let when = hit.start.map { TimeText.clock($0) } ?? "title"
      var name = PathText.escaped(memo.name)
      if severalFolders { name = PathText.escaped(folder) + ": " + name }
      if colour { name = "\u{1B}[1m\(name)\u{1B}[0m" }
      write("\(name)  \(when)  \(before)\(shown)\(after)\n")
    }
  }

  /// Ends the output (the JSON document's summary) and writes what is left.
  mutating func finish(memos: Int) {
    if json {
      buffer +=
        (hitCount == 0 ? "]" : "\n  ]")
        + ",\n  \"summary\": {\"hits\": \(hitCount), \"memos\": \(memos)}\n}\n"
    }
    flush()
  }
}
