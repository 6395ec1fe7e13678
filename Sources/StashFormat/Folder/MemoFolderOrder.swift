/// A folder's memos in the listing's order (`MemoFolder.listsBefore`: newest first, ties by base
/// in byte order), known from the names before any memo is read in full: the dates come from the
/// bases, and only a memo whose base names no date is read first, for its audio's date or its
/// file's. Every reader of a folder as memos goes through it: `MemoFolder.read`, `stash ls`,
/// `stash search` and the memo look-ups of `show` and `export` over every name
/// (`FolderGrouping`), `stash lint` in name order (`Order.name`), and the browser over its memos'
/// names alone (`MemoNames`, compact for its first screen at 100,000 memos).
package struct MemoFolderOrder<Names: FolderNames>: Sendable {
  /// The folder as given.
  package let path: String
  /// Its names, grouped into memos.
  package let names: Names
  /// Indexes into `names`, in the order asked for (the listing's, or by name).
  package let order: [Int]
  /// Each candidate's date, by its index in `names` (empty for the `name` order): the date its
  /// base names, else the one it was read for.
  package let dates: [Double]
  /// Each candidate's escaped base as bytes (`PathText.escaped`), by its index in `names`, for the
  /// `name` order (empty for the listing's).
  package let escapedBases: [[UInt8]]
  /// The folder held open, its files opened by name in it.
  package let opened: OpenFolder
  /// The time every memo's audio date is judged against (as `MemoFolder.read` takes it once).
  package let now: Double

  /// The orders a folder can be read in.
  package enum Order: Sendable {
    /// The listing's (`MemoFolder.listsBefore`): `stash ls`, `search`, `show`, the browser.
    case listing
    /// By escaped base, byte by byte (`escapedBases`), the order lint prints findings in; no memo
    /// is read for its date.
    case name
  }

  /// Reads the folder's names and puts the memos `including` takes (given the names and a
  /// candidate's index) in `order`; throws only when the folder cannot be read
  /// (`folder-unreadable`).
  package init(
    path: String, by order: Order = .listing, including: (Names, Int) -> Bool = { _, _ in true }
  ) throws(FormatError) {
    self.init(names: try Names(path: path), path: path, by: order, including: including)
  }

  /// `init(path:by:including:)` over names already read from the folder at `path`.
  package init(
    names: Names, path: String, by order: Order = .listing, including: (Names, Int) -> Bool = { _, _ in true }
  ) {
    self.path = path
    self.names = names
    now = RecordingDate.currentTime()
    opened = OpenFolder(path: path)
    let listed = (0..<names.count).filter { including(names, $0) }
    switch order {
    case .listing:
      // The date `Memo.read` gives a memo whose base names one is that date; on both cores, as
      // with a zone file each local time is three look-ups in it.
      var dates = Parallel.map(names.count, chunk: 1024) { names.date($0) }
      let undated = listed.filter { dates[$0] == nil }
      let (now, opened) = (now, opened)
      let early = Parallel.map(undated.count, chunk: 16) { n in
        Memo.read(names.candidate(undated[n]), folder: path, now: now, opened: opened, baseDate: nil)
          .recordedAt
      }
      for (index, date) in zip(undated, early) { dates[index] = date }
      let keys = dates.map { $0 ?? 0 }
      // Sorted with each key beside its index, so a comparison looks nothing up but a tie's bases.
      // Plain bases come from `MemoNames` in byte order, which is nearly date order: given newest
      // first, they are nearly sorted already, and the sort finds the runs.
      var keyed = listed.reversed().map { (date: keys[$0], index: $0) }
      keyed.sort { a, b in
        MemoFolder.listsBefore(a.date, b.date, basePrecedes: names.basePrecedes(a.index, b.index))
      }
      self.order = keyed.map(\.index)
      self.dates = keys
      escapedBases = []
    case .name:
      dates = []
      let escaped = Parallel.map(names.count, chunk: 1024) { Array(PathText.escaped(names.base($0)).utf8) }
      escapedBases = escaped
      // Bases whose escapes are equal stay in the order of `names`: Swift's sort keeps equal
      // elements in order, as lint's sort of its sources has always relied on.
      self.order = listed.sorted { i, j in
        escaped[i].withUnsafeBytes { a in escaped[j].withUnsafeBytes { b in ByteOrder.precedes(a, b) } }
      }
    }
  }

  /// How many memos are listed.
  package var count: Int { order.count }

  /// The candidate at `position` in the order.
  package func candidate(at position: Int) -> FolderGrouping.Candidate {
    names.candidate(order[position])
  }

  /// The date of the candidate at `position` (in the listing's order).
  package func date(at position: Int) -> Double { dates[order[position]] }

  /// The place in the order of the first memo whose base is `base`, or nil: as Swift compares
  /// strings (an NFC and an NFD spelling are one, as a person types either), or with `bytes`
  /// byte for byte (a memo already found, which another spelling of its base may collide with).
  package func position(ofBase base: String, bytes: Bool = false) -> Int? {
    if bytes { return names.index(of: base).flatMap { order.firstIndex(of: $0) } }
    return order.firstIndex { names.base($0) == base }
  }

  /// The memo at `position`, read (`Memo.read`).
  package func memo(at position: Int) -> Memo {
    Memo.read(candidate(at: position), folder: path, now: now, opened: opened)
  }

  /// How many memos a core is handed at a time: reading one takes 20 to 100 µs, and a long
  /// recording's index more, so pieces this small keep both cores busy to the end.
  package static var piece: Int { 8 }

  /// What `body` makes of each memo at `positions` from its names, on both cores a `piece` at a
  /// time, in the order of `positions`.
  package func read<Result>(
    _ positions: [Int], _ body: (FolderGrouping.Candidate) -> Result
  ) -> [Result] {
    Parallel.map(positions.count, chunk: Self.piece) { body(candidate(at: positions[$0])) }
  }

  /// Every memo listed, read, in the order.
  package func memos() -> [Memo] {
    read(Array(0..<count)) { Memo.read($0, folder: path, now: now, opened: opened) }
  }
}

/// A folder's names grouped into memo candidates, in the form a reader needs: every name
/// (`FolderGrouping`: the candidates, the other names and the collisions) or the memos' names
/// alone, held compactly (`MemoNames`). `MemoFolderOrder` puts either in order.
package protocol FolderNames: Sendable {
  /// Reads and groups the names of the folder at `path`; throws only when it cannot be read.
  init(path: String) throws(FormatError)
  /// How many candidates there are.
  var count: Int { get }
  /// Candidate `index`, as `Memo.read` takes it.
  func candidate(_ index: Int) -> FolderGrouping.Candidate
  /// Candidate `index`'s base.
  func base(_ index: Int) -> String
  /// Whether candidate `index` has a name of `kind`.
  func has(_ index: Int, _ kind: MemoFileKind) -> Bool
  /// The recording date candidate `index`'s base names (`RecordingDate.parse`), or nil.
  func date(_ index: Int) -> Double?
  /// Whether candidate `index`'s base sorts before candidate `other`'s, in byte order.
  func basePrecedes(_ index: Int, _ other: Int) -> Bool
  /// The candidate whose base is `base`, byte for byte, or nil.
  func index(of base: String) -> Int?
}

extension MemoNames: FolderNames {}

extension FolderGrouping: FolderNames {
  package var count: Int { candidates.count }
  package func candidate(_ index: Int) -> Candidate { candidates[index] }
  package func base(_ index: Int) -> String { candidates[index].base }
  package func has(_ index: Int, _ kind: MemoFileKind) -> Bool { candidates[index][kind] != nil }
  package func date(_ index: Int) -> Double? { RecordingDate.parse(base: candidates[index].base) }
  package func basePrecedes(_ index: Int, _ other: Int) -> Bool {
    candidates[index].base.utf8.lexicographicallyPrecedes(candidates[other].base.utf8)
  }
  package func index(of base: String) -> Int? {
    candidates.firstIndex { $0.base.utf8.elementsEqual(base.utf8) }
  }
}
