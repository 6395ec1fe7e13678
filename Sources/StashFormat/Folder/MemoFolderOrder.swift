/// A folder's memos in the listing's order (`MemoFolder.listsBefore`: newest first, ties by base
/// in byte order), known from the names before any memo is read in full: the dates come from the
/// bases, and only a memo whose base names no date is read first, for its audio's date or its
/// file's. `stash ls`, `stash search` and the memo look-ups of `show` and `export` read a folder
/// through it, then each memo in this order; `stash lint` reads it in name order (`Order.name`),
/// and the browser's first screen dates its undated memos and sorts them as this does.
package struct MemoFolderOrder: Sendable {
  /// The folder as given.
  package let path: String
  /// Its names, grouped into memos.
  package let grouping: FolderGrouping
  /// Indexes into `grouping.candidates`, in the order asked for (the listing's, or by name).
  package let order: [Int]
  /// Each candidate's date, by its index in `grouping.candidates` (empty for the `name` order).
  package let dates: [Double]
  /// The folder held open, its files opened by name in it.
  package let opened: OpenFolder
  /// The time every memo's audio date is judged against (as `MemoFolder.read` takes it once).
  package let now: Double

  /// The orders a folder can be read in.
  package enum Order: Sendable {
    /// The listing's (`MemoFolder.listsBefore`): `stash ls`, `search`, `show`, the browser.
    case listing
    /// By escaped base, byte by byte (`names`), the order lint prints findings in; no memo is
    /// read for its date.
    case name
  }

  /// Each candidate's escaped base as bytes (`PathText.escaped`), by its index in
  /// `grouping.candidates`, for the `name` order (empty for the listing's).
  package let names: [[UInt8]]

  /// Reads the folder's names and puts the memos `including` takes in `order`; throws only when
  /// the folder cannot be read (`folder-unreadable`).
  package init(
    path: String, by order: Order = .listing,
    including: @Sendable (FolderGrouping.Candidate) -> Bool = { _ in true }
  ) throws(FormatError) {
    self.path = path
    grouping = try MemoFolder.group(path: path)
    now = RecordingDate.currentTime()
    opened = OpenFolder(path: path)
    let candidates = grouping.candidates
    var listed = candidates.indices.filter { including(candidates[$0]) }
    switch order {
    case .listing:
      // The date `Memo.read` gives a memo whose base names one is that date.
      var dates = Parallel.map(candidates.count, chunk: 1024) {
        RecordingDate.parse(base: candidates[$0].base)
      }
      let undated = listed.filter { dates[$0] == nil }
      let early = MemoFolderOrder.dates(
        ofUndated: undated.count, folder: path, now: now, opened: opened
      ) { candidates[undated[$0]] }
      for (index, date) in zip(undated, early) { dates[index] = date }
      let keys = dates.map { $0 ?? 0 }
      self.dates = keys
      names = []
      listed.sort { i, j in
        MemoFolderOrder.listsBefore(keys[i], candidates[i].base, keys[j], candidates[j].base)
      }
    case .name:
      dates = []
      let names = Parallel.map(candidates.count, chunk: 1024) {
        Array(PathText.escaped(candidates[$0].base).utf8)
      }
      self.names = names
      // Bases whose escapes are equal stay in the folder's order: Swift's sort keeps equal
      // elements in order, as lint's sort of its sources has always relied on.
      listed.sort { i, j in
        names[i].withUnsafeBytes { a in names[j].withUnsafeBytes { b in ByteOrder.precedes(a, b) } }
      }
    }
    self.order = listed
  }

  /// The one comparator the listing's order is sorted with: whether a memo dated `date` whose base
  /// is `base` lists before one dated `other` whose base is `otherBase` (`MemoFolder.listsBefore`,
  /// a tie by base in byte order; the bases are looked at only for a tie).
  @inlinable
  package static func listsBefore(
    _ date: Double, _ base: @autoclosure () -> String, _ other: Double, _ otherBase: @autoclosure () -> String
  ) -> Bool {
    MemoFolder.listsBefore(date, other, basePrecedes: base().utf8.lexicographicallyPrecedes(otherBase().utf8))
  }

  /// The dates of `count` memos whose bases name none (`candidate` gives each), as `Memo.read`
  /// dates them: the audio's creation time, else a file's modification time. Read on both cores in
  /// small pieces, before the memos are put in order, so an undated memo sorts where it belongs
  /// from the start: the listing's order and the browser's first screen both date them here.
  package static func dates(
    ofUndated count: Int, folder: String, now: Double, opened: OpenFolder,
    candidate: (Int) -> FolderGrouping.Candidate
  ) -> [Double] {
    Parallel.map(count, chunk: 16) { n in
      Memo.read(candidate(n), folder: folder, now: now, opened: opened, baseDate: nil).recordedAt
    }
  }

  /// How many memos are listed.
  package var count: Int { order.count }

  /// The candidate at `position` in the listing's order.
  package func candidate(at position: Int) -> FolderGrouping.Candidate {
    grouping.candidates[order[position]]
  }

  /// The date of the candidate at `position` (in the listing's order).
  package func date(at position: Int) -> Double { dates[order[position]] }

  /// The place in the listing of the first memo whose base is `base`, or nil: as Swift compares
  /// strings (an NFC and an NFD spelling are one, as a person types either), or with `bytes`
  /// byte for byte (a memo already found, which another spelling of its base may collide with).
  package func position(ofBase base: String, bytes: Bool = false) -> Int? {
    let candidates = grouping.candidates
    if bytes { return order.firstIndex { candidates[$0].base.utf8.elementsEqual(base.utf8) } }
    return order.firstIndex { candidates[$0].base == base }
  }

  /// The memo at `position`, read (`Memo.read`).
  package func memo(at position: Int) -> Memo {
    Memo.read(candidate(at: position), folder: path, now: now, opened: opened)
  }

  /// Every memo listed, read on both cores in pieces, in the listing's order: `MemoFolder.read`'s
  /// memos, from names already read.
  package func memos() -> [Memo] {
    Parallel.map(count, chunk: 64) { memo(at: $0) }
  }
}
