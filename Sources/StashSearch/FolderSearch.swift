import StashFormat

/// Searching a folder's memos, the one way `stash search`, the browser's `S` and its `/` filter
/// search: over the folder's one order (`MemoFolderOrder`, the listing's), each memo's files read
/// and searched (`MemoFileSearch`), what each memo gave told in the listing's order as it is
/// found, with its damaged or unreadable files. A search made as the folder is read
/// (`init(folder:pattern:scope:wanted:)`) searches files on the other cores as their names are
/// met; one over a listing already read (`init(order:pattern:scope:wanted:)`) searches each memo
/// in its turn, and can be stopped between any two (`FolderSearchNarrowing`, `bases(progress:)`).
package struct FolderSearch: Sendable {
  /// Which of a memo's files are searched.
  package enum Scope: Sendable {
    /// Its title, its bookmarks' notes and its transcript (`stash search`).
    case memo
    /// Its transcript alone (the browser's `/`, which filters by titles apart).
    case transcript
    /// Its transcript and its bookmarks' notes: what was said and what was noted at a moment, each
    /// with a time to play from (the browser's `S`).
    case spoken
  }

  /// What is wanted of each memo.
  package enum Wanted: Sendable, Equatable {
    /// Its first `count` places (a place is a line printed: matches at one time in one text,
    /// `SearchHit.lines`), each with every match in it; `.max` for every place.
    case places(Int)
    /// Whether it holds the pattern: its first hit alone.
    case anyHit
  }

  /// What one memo gave: its hits (title, bookmarks, then transcript), and a warning (a file
  /// searched though damaged) or an error (a transcript that could not be searched).
  package struct Found: Sendable {
    /// Its place in the listing (`order`).
    package var position: Int
    /// Its names.
    package var candidate: FolderGrouping.Candidate
    /// When it was recorded, as the listing dates it.
    package var date: Double
    /// Its title, read when it has hits and the scope holds titles (its printed name).
    package var title: Title?
    package var hits: [SearchHit]
    package var warning: String?
    package var error: String?
  }

  /// A memo to visit: its place in the listing and what its files gave as the folder was read
  /// (an index in `kept`), or -1 to search it in its turn.
  private struct Visit: Sendable {
    var position: Int32
    var kept: Int32
  }

  /// The folder's memos, in the listing's order.
  package let order: MemoFolderOrder<MemoNames>
  package let scope: Scope
  package let wanted: Wanted
  private let files: MemoFileSearch
  /// The memos that may give something, in the listing's order.
  private let visits: [Visit]
  private let kept: [MemoFileSearch.Files]

  /// Reads the folder at `path` and searches it as its names are read; throws when it cannot be
  /// read (`folder-unreadable`). Whether or not the folder could be read to its end, what was
  /// handed on is searched first.
  package init(
    folder path: String, pattern: SearchPattern, scope: Scope = .memo, wanted: Wanted = .places(.max)
  ) throws(FormatError) {
    let files = MemoFileSearch(
      folder: path, opened: OpenFolder(path: path), pattern: pattern, scope: scope,
      hitLimit: wanted == .anyHit ? 1 : .max)
    let ahead = FolderSearchAhead(files)
    let read = Result { () throws(FormatError) in try MemoNames(path: path, seeing: ahead.see) }
    ahead.finish()
    let names = try read.get()
    let order = MemoFolderOrder<MemoNames>(names: names, path: path) { names, index in
      FolderSearch.searches(names, index, scope)
    }
    (self.order, self.scope, self.wanted, self.files) = (order, scope, wanted, files)
    guard !ahead.hasOverflowed else {
      // Most memos hold the pattern: each is searched in its turn.
      visits = (0..<order.count).map { Visit(position: Int32($0), kept: -1) }
      kept = []
      return
    }
    var positions = [Int32](repeating: -1, count: names.count)
    for (position, memo) in order.order.enumerated() { positions[memo] = Int32(position) }
    var visits: [Visit] = []
    var kept: [MemoFileSearch.Files] = []
    for (base, result) in ahead.results() {
      // A file of a base that is no memo listed (an orphan) is passed over, as `ls` passes it.
      guard let memo = names.index(of: base), positions[memo] >= 0 else { continue }
      visits.append(Visit(position: positions[memo], kept: Int32(kept.count)))
      kept.append(result)
    }
    visits.sort { $0.position < $1.position }
    (self.visits, self.kept) = (visits, kept)
  }

  /// A search of the listing `order` already read: every memo with a file searched is searched
  /// in its turn.
  package init(
    order: MemoFolderOrder<MemoNames>, pattern: SearchPattern, scope: Scope, wanted: Wanted = .places(.max)
  ) {
    (self.order, self.scope, self.wanted) = (order, scope, wanted)
    files = MemoFileSearch(
      folder: order.path, opened: order.opened, pattern: pattern, scope: scope,
      hitLimit: wanted == .anyHit ? 1 : .max)
    let names = order.names
    visits = order.order.indices.compactMap { position in
      FolderSearch.searches(names, order.order[position], scope)
        ? Visit(position: Int32(position), kept: -1) : nil
    }
    kept = []
  }

  /// Whether candidate `index` of `names` has a file `scope` searches.
  private static func searches(_ names: MemoNames, _ index: Int, _ scope: Scope) -> Bool {
    names.has(index, .transcript) || (scope == .memo && names.has(index, .title))
      || (scope != .transcript && names.has(index, .bookmarks))
  }

  /// How many memos are to be visited: those that may give something, in the listing's order.
  package var count: Int { visits.count }

  /// What the memo of visit `visit` (in `0..<count`) gave: from what its files gave as the folder
  /// was read, or searched now; nil when that was nothing to tell.
  package func found(visit: Int) -> Found? {
    let visit = visits[visit]
    let position = Int(visit.position)
    let candidate = order.candidate(at: position)
    let result = visit.kept >= 0 ? kept[Int(visit.kept)] : files.memo(candidate)
    // The title's hits, the bookmarks', then the transcript's: those of the first places wanted.
    let all = (result.title?.1 ?? []) + result.bookmarks + result.transcript
    var hits = all
    if case .places(let limit) = wanted, limit != .max {
      hits = Array(SearchHit.lines(all).prefix(limit).joined())
    }
    guard !hits.isEmpty || result.warning != nil || result.error != nil else { return nil }
    var title = result.title?.0
    // A hit in its transcript needs the memo's name.
    if scope == .memo, !hits.isEmpty, title == nil, let slot = candidate.title, slot.kind == .file {
      title = Title.read(order.opened.file(slot.name), listedAsRegularFile: true)
    }
    return Found(
      position: position, candidate: candidate, date: order.date(at: position), title: title, hits: hits,
      warning: result.warning, error: result.error)
  }

  /// How many memos have a parts folder and no finished transcript: what was said there is not
  /// searched (a recording not yet recovered).
  package var unrecovered: Int {
    let names = order.names
    return (0..<names.count).count { names.has($0, .parts) && !names.has($0, .transcript) }
  }

  /// What the memos of `searches` gave, told in the listing's order (several folders' memos
  /// merged into it), searched on both cores a batch at a time: a batch is told before the next
  /// is searched, so memory holds one batch's hits.
  package static func run(_ searches: [FolderSearch], tell: (_ search: Int, _ found: Found) -> Void) {
    var places: [(search: Int32, visit: Int32)] = []
    for (index, search) in searches.enumerated() {
      places += (0..<search.count).map { (Int32(index), Int32($0)) }
    }
    if searches.count > 1 {
      func date(_ place: (search: Int32, visit: Int32)) -> Double {
        let search = searches[Int(place.search)]
        return search.order.date(at: Int(search.visits[Int(place.visit)].position))
      }
      func base(_ place: (search: Int32, visit: Int32)) -> String {
        let search = searches[Int(place.search)]
        return search.order.candidate(at: Int(search.visits[Int(place.visit)].position)).base
      }
      places.sort { a, b in MemoFolder.listsBefore(date(a), base(a), date(b), base(b)) }
    }
    var start = 0
    while start < places.count {
      let batch = places[start..<min(places.count, start + 2048)]
      start += batch.count
      let found = Parallel.map(batch.count, chunk: 16) { n in
        let (search, visit) = batch[batch.startIndex + n]
        return searches[Int(search)].found(visit: Int(visit))
      }
      for ((search, _), memo) in zip(batch, found) {
        if let memo { tell(Int(search), memo) }
      }
    }
  }

  /// How many memos are searched between two progress reports.
  package static let progressStep = 250

  /// The bases of the memos that hold the pattern (`/`: a memo is in as soon as one hit is
  /// found), searched in the listing's order on this thread. `progress` is told how many memos
  /// were looked at, of how many, every `progressStep`; when it returns false the search stops and
  /// gives nil (a newer one superseded it). A file that cannot be read holds nothing; a damaged
  /// one holds what it gives.
  package func bases(progress: (_ done: Int, _ total: Int) -> Bool) -> Set<String>? {
    var bases: Set<String> = []
    for visit in 0..<count {
      if visit % Self.progressStep == 0, visit > 0, !progress(visit, count) { return nil }
      if let found = found(visit: visit), !found.hits.isEmpty { bases.insert(found.candidate.base) }
    }
    return bases
  }
}
