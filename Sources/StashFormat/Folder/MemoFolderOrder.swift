/// A folder's memos in the listing's order (`MemoFolder.listsBefore`: newest first, ties by base
/// in byte order), known from the names before any memo is read in full: the dates come from the
/// bases, and only a memo whose base names no date is read first, for its audio's date or its
/// file's. `stash ls`, `stash search` and the memo look-ups of `show` and `export` read a folder
/// through it, then each memo in this order.
package struct MemoFolderOrder: Sendable {
  /// The folder as given.
  package let path: String
  /// Its names, grouped into memos.
  package let grouping: FolderGrouping
  /// Indexes into `grouping.candidates`, in listing order.
  package let order: [Int]
  /// Each candidate's date, by its index in `grouping.candidates`.
  package let dates: [Double]
  /// The folder held open, its files opened by name in it.
  package let opened: OpenFolder
  /// The time every memo's audio date is judged against (as `MemoFolder.read` takes it once).
  package let now: Double

  /// Reads the folder's names and puts the memos `including` takes in order; throws only when the
  /// folder cannot be read (`folder-unreadable`).
  package init(
    path: String, including: @Sendable (FolderGrouping.Candidate) -> Bool = { _ in true }
  ) throws(FormatError) {
    self.path = path
    grouping = try MemoFolder.group(path: path)
    now = RecordingDate.currentTime()
    opened = OpenFolder(path: path)
    let candidates = grouping.candidates
    // The date `Memo.read` gives a memo whose base names one is that date.
    var dates = Parallel.map(candidates.count, chunk: 1024) { RecordingDate.parse(base: candidates[$0].base) }
    let undated = dates.indices.filter { dates[$0] == nil && including(candidates[$0]) }
    let (path, now, opened) = (path, now, opened)
    let early = Parallel.map(undated.count, chunk: 16) { n in
      Memo.read(candidates[undated[n]], folder: path, now: now, opened: opened, baseDate: nil).recordedAt
    }
    for (index, date) in zip(undated, early) { dates[index] = date }
    let keys = dates.map { $0 ?? 0 }
    self.dates = keys
    var order = candidates.indices.filter { including(candidates[$0]) }
    order.sort { i, j in
      MemoFolder.listsBefore(
        keys[i], keys[j],
        basePrecedes: candidates[i].base.utf8.lexicographicallyPrecedes(candidates[j].base.utf8))
    }
    self.order = order
  }

  /// How many memos are listed.
  package var count: Int { order.count }

  /// The candidate at `position` in the listing's order.
  package func candidate(at position: Int) -> FolderGrouping.Candidate {
    grouping.candidates[order[position]]
  }

  /// The date of the candidate at `position`.
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
