import StashBrowser
import StashFormat
import StashLint
import StashSearch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The memo folder through StashFormat: the folder's names (`MemoNames`) for the list at once,
/// `Memo.read` for each memo's row as it is filled in, `WebVTTParser` and
/// `GPXReader`/`RouteStatistics` for a memo's detail. Keeps the last listing's names to find a
/// memo's files (and `FolderSearch` searches them); memos themselves are not kept.
final class FolderLibrary: MemoLibrary {
  private let folder: String
  /// The last listing; replaced whole by `list`, read from any thread.
  private let listing = Mutex<FolderListing?>(nil)
  /// The folder's `.stashlint` as of the last listing: the marks follow it as lint does.
  private let configuration = Mutex(LintConfiguration())
  /// The last listing's name-collision findings, each memo's own added to its account as `stash
  /// ls` adds them.
  private let collisions = Mutex<[LintFinding]>([])

  /// Whether the findings cache is used (`--no-cache` says not), and the version it is kept for.
  private let cached: Bool
  private let version: String
  /// The last listing's findings cache: opened when its first rows are read (not on the way to the
  /// first screen, which draws from the names), saved when enough rows were checked.
  private let cache = Mutex<(opened: Bool, cache: FindingsCache?)>((false, nil))

  /// A library over `folder`; with `cached`, the marks use the findings cache of this `version`.
  init(folder: String, cached: Bool = false, version: String = StashFormat.version) {
    self.folder = folder
    self.cached = cached
    self.version = version
  }

  func list() -> (rows: MemoList, error: String?) {
    let order: MemoFolderOrder<MemoNames>
    do {
      order = try MemoFolderOrder(path: folder)
    } catch {
      listing.withLock { $0 = nil }
      return (MemoList(), error.message)
    }
    let made = FolderListing(order)
    listing.withLock { $0 = made }
    let found = LintEngine.collisionFindings(order.names.collidingGrouping(), folder: folder, now: order.now)
    collisions.withLock { $0 = found }
    // A configuration that cannot be used leaves the defaults; `stash lint` names its mistake.
    configuration.withLock { $0 = MemoAccount.configuration(of: folder, warn: { _ in }) }
    // What the last listing's rows found is kept; the new listing's rows read the cache anew.
    let previous = cache.withLock { state in
      defer { state = (false, nil) }
      return state.cache
    }
    previous?.save(whole: false, memoCount: made.count)
    return (MemoList(made), nil)
  }

  func read(_ indices: [Int]) -> [(index: Int, row: MemoRow)] {
    guard let listing = listing.withLock({ $0 }) else { return [] }
    let known = indices.filter { $0 >= 0 && $0 < listing.count }
    let configuration = configuration.withLock { $0 }
    let collisions = collisions.withLock { $0 }
    // A cache that cannot be used leaves the browser uncached; `stash cache` and `stash ls` say why.
    let cache = cache.withLock { state in
      if cached && !state.opened {
        state = (
          true,
          FindingsCache.open(
            folder: folder, version: version, directory: FindingsCache.directory(), warn: { _ in })
        )
      }
      return state.cache
    }
    let rows = listing.read(known) { candidate, order in
      FolderLibrary.row(
        MemoAccount.read(
          candidate, folder: order.path, now: order.now, opened: order.opened,
          configuration: configuration, collisions: collisions, cache: cache))
    }
    // Written every few thousand memos checked, and once every row has been looked up, so a
    // browser closed early still keeps most of what it checked.
    if let cache, cache.unsaved >= 4096 || cache.looked >= listing.count {
      cache.save(whole: false, memoCount: listing.count)
    }
    return Array(zip(known, rows))
  }

  /// The row the list shows for a memo, from its one account: `!` and the problems the detail
  /// pane lists are what `stash lint` reports for it.
  static func row(_ account: MemoAccount) -> MemoRow {
    let memo = account.memo
    let audio: MemoRow.Audio
    switch memo.audio?.state {
    case nil: audio = .missing
    case .ok: audio = .ok
    case .cutShort: audio = .cutShort
    case .damaged(let reason): audio = .damaged(reason)
    case .lengthUnreadable(let reason): audio = .lengthUnknown(reason)
    }
    let problems = account.problemLines
    var partFiles: [String] = []
    if let parts = memo.parts {
      partFiles += parts.transcriptParts.map { PartName.transcript($0).fileName }
      partFiles += parts.routeParts.map { PartName.route($0).fileName }
      if parts.routeWithdrawn { partFiles.append(PartName.withdrawn.fileName) }
    }
    let files = MemoFileKind.allCases.filter { $0 != .parts }.compactMap { memo.files[$0] }
    var row = MemoRow(
      base: memo.base, displayName: memo.displayName, title: memo.titleText, recordedAt: memo.recordedAt,
      durationSeconds: memo.durationSeconds, audio: audio, hasTranscript: memo.hasTranscript,
      hasRoute: memo.hasRoute, needsRecovery: memo.needsRecovery, problems: problems, files: files,
      partFiles: partFiles, partsFolder: memo.files[.parts])
    row.hasProblem = account.hasProblem
    return row
  }

  /// The path of the memo's file of `kind`, from the last listing.
  private func path(_ candidate: FolderGrouping.Candidate, _ kind: MemoFileKind) -> String? {
    candidate[kind].map { PathText.join(folder, $0.name) }
  }

  /// The names of the memo `base` in the last listing, or nil.
  private func candidate(_ base: String) -> FolderGrouping.Candidate? {
    listing.withLock { $0 }.flatMap { listing in listing.index(ofBase: base).map(listing.candidate) }
  }

  func detail(of base: String) -> MemoDetail {
    var detail = MemoDetail(
      transcript: .absent("the memo has no transcript file."), missingSpeech: [], transcriptNotes: [],
      route: nil,
      routeProblem: nil)
    guard let candidate = candidate(base) else { return detail }
    if let path = path(candidate, .transcript) {
      readTranscript(path, into: &detail)
    } else if let name = candidate.parts?.name, let partsPath = path(candidate, .parts) {
      let parts = PartsFolder.read(path: partsPath, name: name)
      if !parts.transcriptParts.isEmpty {
        detail.transcript = .absent(
          "it is still in \(parts.transcriptParts.count) part(s) in \(PathText.escaped(parts.name))/: "
            + "the recording was killed before it finished. R recovers it.")
      }
    }
    if let path = path(candidate, .route) { readRoute(path, into: &detail) }
    // Named, not taken from the last listing: a bookmark added since made the file.
    let bookmarksPath = PathText.join(folder, MemoFileKind.bookmarks.name(for: base))
    if access(bookmarksPath, F_OK) == 0 {
      let bookmarks = Bookmarks.read(path: bookmarksPath)
      detail.bookmarks = bookmarks.items
      if let broken = bookmarks.problems.first(where: { $0.code == .bookmarksBroken }) {
        detail.bookmarksProblem = broken.message + (broken.location.line.map { " (line \($0))" } ?? "")
      }
    }
    return detail
  }

  private func readTranscript(_ path: String, into detail: inout MemoDetail) {
    let bytes: [UInt8]
    do {
      bytes = try ReadOnlyFile.contents(of: path, limit: 64 << 20)
    } catch {
      detail.transcript = .unreadable(reason: error.message, line: error.location.line)
      return
    }
    let document = WebVTTParser.parse(bytes)
    let errors = document.diagnostics.filter { $0.severity == .error }
    if document.cues.isEmpty, let first = errors.first {
      detail.transcript = .unreadable(reason: first.message, line: first.location.line)
      return
    }
    detail.missingSpeech = document.missingSpeech.map { .init(start: $0.start, end: $0.end) }
    detail.transcript = .cues(document.cues.map(FolderLibrary.cue))
    if let first = errors.first {
      // Where, not what: the problems themselves are listed above it (the memo's one account).
      let at = first.location.line.map { " at line \($0)" } ?? ""
      let more = errors.count > 1 ? " (and \(Text.count(errors.count - 1, "more place")))" : ""
      detail.transcriptNotes.append("Transcript damaged\(at)\(more): the rest is shown.")
    }
  }

  /// A cue as shown: its words, with their own times only when the cue has inline timestamps
  /// (otherwise every word would carry the cue's start and the last would look spoken).
  static func cue(_ cue: WebVTTCue) -> MemoDetail.Cue {
    let words = cue.words
    let timed = words.contains { $0.startTime != cue.startTime }
    return MemoDetail.Cue(
      start: cue.startTime, end: cue.endTime,
      words: words.map {
        MemoDetail.Word(text: $0.text, start: timed ? $0.startTime : nil, unconfirmed: !$0.confirmed)
      })
  }

  private func readRoute(_ path: String, into detail: inout MemoDetail) {
    let document: GPXDocument
    do {
      document = try GPXReader.read(path: path)
    } catch {
      detail.routeProblem = error.message
      return
    }
    let stats = RouteStatistics(document: document)
    if stats.pointCount == 0 {
      let first = document.diagnostics.first { $0.severity == .error }
      let at = first?.location.line.map { " (line \($0))" } ?? ""
      detail.routeProblem = first.map { $0.message + at } ?? "the route has no points."
      return
    }
    let paths = document.tracks.flatMap { track in
      track.segmentsOnGlobe.map { segment in segment.points.map { ($0.latitude, $0.longitude) } }
    }
    detail.route = MemoDetail.Route(
      distanceMetres: stats.distance, durationSeconds: stats.duration,
      elevationGainMetres: stats.elevationGain, points: stats.pointCount, segments: stats.segmentCount,
      paths: paths)
  }

  func search(_ pattern: SearchPattern, scope: FolderSearch.Scope, wanted: FolderSearch.Wanted)
    -> FolderSearch?
  {
    listing.withLock { $0 }.map { $0.search(pattern, scope: scope, wanted: wanted) }
  }

  func otherFileCount() -> Int? {
    // The names `MemoNames` leaves out, grouped as `stash ls` groups them and counted by the same
    // `FolderSummary` (hidden names left out).
    guard let grouping = try? FolderGrouping(path: folder) else { return nil }
    return FolderSummary(others: grouping.others, collisions: grouping.collisions).otherFiles
  }

  func audioPath(of base: String) -> String {
    if let candidate = candidate(base), let path = path(candidate, .audio) { return path }
    return PathText.join(folder, MemoFileKind.audio.name(for: base))
  }
}

/// One listing of the folder: its memos' names (`MemoNames`) in the list's order, as `stash ls`
/// lists them (`MemoFolderOrder`). A memo's row is made from these when it is asked for, until
/// the memo is read.
final class FolderListing: PendingRows {
  private let order: MemoFolderOrder<MemoNames>
  /// The place in the list of each candidate of `order.names`.
  private let place: [Int32]

  init(_ order: MemoFolderOrder<MemoNames>) {
    self.order = order
    var place = Array(repeating: Int32(0), count: order.names.count)
    for (at, index) in order.order.enumerated() { place[index] = Int32(at) }
    self.place = place
  }

  /// The time a memo's date is judged plausible against, fixed per listing.
  var now: Double { order.now }

  var count: Int { order.count }

  private var names: MemoNames { order.names }

  func row(_ index: Int) -> MemoRow {
    let at = order.order[index]
    let base = names.base(at)
    let files = MemoFileKind.allCases.filter { $0 != .parts && names.has(at, $0) }.map { $0.name(for: base) }
    return MemoRow(
      base: base, displayName: displayName(index), title: nil, recordedAt: recordedAt(index),
      durationSeconds: nil, audio: names.has(at, .audio) ? .ok : .missing,
      hasTranscript: names.isFile(at, .transcript), hasRoute: names.isFile(at, .route), needsRecovery: false,
      problems: [], files: files, partFiles: [],
      partsFolder: names.has(at, .parts) ? MemoFileKind.parts.name(for: base) : nil,
      pending: true)
  }

  func base(_ index: Int) -> String { names.base(order.order[index]) }

  func displayName(_ index: Int) -> String {
    names.date(order.order[index]).map(RecordingDate.localMinute) ?? PathText.escaped(base(index))
  }

  func recordedAt(_ index: Int) -> Double { order.date(at: index) }

  func basePrecedes(_ index: Int, _ other: Int) -> Bool {
    names.basePrecedes(order.order[index], order.order[other])
  }

  func index(ofBase base: String) -> Int? { names.index(of: base).map { Int(place[$0]) } }

  var partsFolders: [String] {
    (0..<count).filter { names.has(order.order[$0], .parts) }.map { MemoFileKind.parts.name(for: base($0)) }
  }

  /// What `body` makes of the memos at `indices`, each from its names and the listing's order,
  /// read on both cores as every reader of a folder reads them (`MemoFolderOrder.read`).
  func read<Result>(
    _ indices: [Int], _ body: (FolderGrouping.Candidate, MemoFolderOrder<MemoNames>) -> Result
  ) -> [Result] {
    order.read(indices) { body($0, order) }
  }

  /// The names of the memo at `index`, as `Memo.read` takes them.
  func candidate(_ index: Int) -> FolderGrouping.Candidate { order.candidate(at: index) }

  /// A search of this listing's memos for `pattern`, in its order.
  func search(_ pattern: SearchPattern, scope: FolderSearch.Scope, wanted: FolderSearch.Wanted)
    -> FolderSearch
  {
    FolderSearch(order: order, pattern: pattern, scope: scope, wanted: wanted)
  }
}
