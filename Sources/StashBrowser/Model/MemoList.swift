import StashFormat

/// The rows of a listing before they are read: what the folder's names alone say about each memo,
/// made on demand, so a listing of 100,000 memos holds no row per memo until it is read or shown.
/// Its rows are in listing order; a position here is a row's place in the listing as first made.
package protocol PendingRows: AnyObject, Sendable {
  /// How many memos the listing has.
  var count: Int { get }
  /// The row of the memo at `index`, from its names (`pending`).
  func row(_ index: Int) -> MemoRow
  /// The base of the memo at `index`.
  func base(_ index: Int) -> String
  /// The shown name of the memo at `index` (as `row(index).displayName`).
  func displayName(_ index: Int) -> String
  /// The date of the memo at `index` (as `row(index).recordedAt`).
  func recordedAt(_ index: Int) -> Double
  /// Whether the base at `index` sorts before the one at `other`, in byte order.
  func basePrecedes(_ index: Int, _ other: Int) -> Bool
  /// The memo whose base is `base`, or nil.
  func index(ofBase base: String) -> Int?
  /// The parts folders of the listing's memos (to watch).
  var partsFolders: [String] { get }
}

/// Every memo of a listing, newest first: the rows read so far, and the others as their names
/// give them (`PendingRows`), made when asked for. Filling a row in copies a block of rows, not
/// the list, and the totals the header shows are kept as rows come in.
package struct MemoList: RandomAccessCollection, ExpressibleByArrayLiteral, Equatable, Sendable {
  /// Rows that are read, a block of `blockSize` listing positions each.
  private final class Block: Sendable {
    let rows: [MemoRow?]
    init(_ rows: [MemoRow?]) { self.rows = rows }

    /// One field of row `index`, read where the row is: copying the row out to read a name
    /// retained each of its fields, which was most of what a filter spent on each memo.
    func field(_ index: Int, _ field: (borrowing MemoRow) -> String) -> String? {
      rows.withUnsafeBufferPointer { rows in rows[index].map(field) }
    }
  }
  private static let blockSize = 1024

  private let names: any PendingRows
  /// The read rows by position in `names`, a block at a time (nil: none of that block read).
  private var blocks: [Block?]
  /// Positions in `names` in the list's order, when a date read from a memo moved it; nil: the same.
  private var order: [Int]?
  /// The inverse of `order`.
  private var place: [Int]?
  /// How many rows still wait for their memos to be read.
  package private(set) var pendingCount: Int
  /// How many rows have no known length.
  package private(set) var unknownLengths: Int
  /// How many of the rows read are memos needing recovery (parts left by a recording).
  package private(set) var needingRecovery = 0

  /// A list of the rows `names` gives, none read yet.
  package init(_ names: any PendingRows) {
    self.names = names
    blocks = Array(repeating: nil, count: (names.count + MemoList.blockSize - 1) / MemoList.blockSize)
    pendingCount = names.count
    unknownLengths = names.count
  }

  /// A list of rows known in full (a test's, or a folder read before it is shown), in this order.
  package init(_ rows: [MemoRow]) {
    self.init(RowArray(rows))
    fill(rows.indices.map { ($0, rows[$0]) })
  }

  /// An empty list.
  package init() { self.init([MemoRow]()) }

  package init(arrayLiteral rows: MemoRow...) { self.init(rows) }

  package var startIndex: Int { 0 }
  package var endIndex: Int { names.count }

  package subscript(position: Int) -> MemoRow {
    let at = listingIndex(at: position)
    return read(at) ?? names.row(at)
  }

  private func read(_ at: Int) -> MemoRow? {
    blocks[at / MemoList.blockSize]?.rows[at % MemoList.blockSize]
  }

  /// The base of the row at `position`.
  package func base(at position: Int) -> String {
    let at = listingIndex(at: position)
    return blocks[at / MemoList.blockSize]?.field(at % MemoList.blockSize) { $0.base } ?? names.base(at)
  }

  /// The shown name of the row at `position`.
  package func displayName(at position: Int) -> String {
    let at = listingIndex(at: position)
    return blocks[at / MemoList.blockSize]?.field(at % MemoList.blockSize) { $0.displayName }
      ?? names.displayName(at)
  }

  /// When the memo of the row at `position` was recorded.
  package func recordedAt(at position: Int) -> Double {
    let at = listingIndex(at: position)
    return read(at)?.recordedAt ?? names.recordedAt(at)
  }

  /// Whether the row at `position` waits for its memo to be read.
  package func isPending(at position: Int) -> Bool {
    read(listingIndex(at: position))?.pending ?? true
  }

  /// The sum of the known lengths, added in the list's order (a row not read has none), made
  /// again by each `fill` rather than by each screen drawn.
  package private(set) var totalSeconds = 0.0

  /// The position of the memo `base`, or nil when it is not in the list.
  package func position(ofBase base: String) -> Int? {
    guard let at = names.index(ofBase: base) else { return nil }
    return place?[at] ?? at
  }

  /// The row of the memo `base`, or nil.
  package func row(ofBase base: String) -> MemoRow? {
    position(ofBase: base).map { self[$0] }
  }

  /// The listing's parts folders.
  package var partsFolders: [String] { names.partsFolders }

  /// Which memo the row at `position` is, as `fill` takes it (its position in the listing as first
  /// made).
  package func listingIndex(at position: Int) -> Int { order?[position] ?? position }

  /// Puts read rows in place: each with the listing index (`listingIndex`) of its memo. The order
  /// changes only when a memo's date did (a base that names no date, dated by its audio or file
  /// before the listing was shown, and changed since).
  package mutating func fill(_ rows: [(index: Int, row: MemoRow)]) {
    // A row of another listing's index is not this list's (the fill checks; so does this).
    let sorted = rows.filter { $0.index >= 0 && $0.index < names.count }.sorted { $0.index < $1.index }
    guard !sorted.isEmpty else { return }
    var moved = false
    var index = 0
    while index < sorted.count {
      let block = sorted[index].index / MemoList.blockSize
      var contents = blocks[block]?.rows ?? Array(repeating: nil, count: MemoList.blockSize)
      while index < sorted.count, sorted[index].index / MemoList.blockSize == block {
        let (at, row) = sorted[index]
        let old = contents[at % MemoList.blockSize]
        let before = old?.recordedAt ?? names.recordedAt(at)
        if old?.pending ?? true { pendingCount -= 1 }
        if old?.durationSeconds == nil { unknownLengths -= 1 }
        if old?.needsRecovery == true { needingRecovery -= 1 }
        if row.pending { pendingCount += 1 }
        if row.durationSeconds == nil { unknownLengths += 1 }
        if row.needsRecovery { needingRecovery += 1 }
        moved = moved || before != row.recordedAt
        contents[at % MemoList.blockSize] = row
        index += 1
      }
      blocks[block] = Block(contents)
    }
    if moved { reorder() }
    totalSeconds = 0
    for position in indices {
      let at = listingIndex(at: position)
      guard let block = blocks[at / MemoList.blockSize] else { continue }
      // Through the buffer, so only the length is read, not the whole row copied.
      if let seconds = block.rows.withUnsafeBufferPointer({ $0[at % MemoList.blockSize]?.durationSeconds }) {
        totalSeconds += seconds
      }
    }
  }

  /// Sorts the list again, in the listing's order (`MemoFolder.listsBefore`).
  private mutating func reorder() {
    let names = self.names
    let dates = (0..<names.count).map { read($0)?.recordedAt ?? names.recordedAt($0) }
    var sorted = order ?? Array(0..<names.count)
    sorted.sort { i, j in MemoFolder.listsBefore(dates[i], dates[j], basePrecedes: names.basePrecedes(i, j)) }
    var inverse = Array(repeating: 0, count: sorted.count)
    for (position, at) in sorted.enumerated() { inverse[at] = position }
    order = sorted
    place = inverse
  }

  package static func == (lhs: MemoList, rhs: MemoList) -> Bool {
    guard lhs.count == rhs.count else { return false }
    if lhs.names === rhs.names && lhs.order == rhs.order
      && lhs.blocks.indices.allSatisfy({ lhs.blocks[$0] === rhs.blocks[$0] })
    {
      return true
    }
    return lhs.indices.allSatisfy { lhs[$0] == rhs[$0] }
  }
}

/// Rows known in full, as `PendingRows` (a test's rows; `MemoList.init(_: [MemoRow])` fills them in).
private final class RowArray: PendingRows {
  let rows: [MemoRow]
  init(_ rows: [MemoRow]) { self.rows = rows }
  var count: Int { rows.count }
  func row(_ index: Int) -> MemoRow { rows[index] }
  func base(_ index: Int) -> String { rows[index].base }
  func displayName(_ index: Int) -> String { rows[index].displayName }
  func recordedAt(_ index: Int) -> Double { rows[index].recordedAt }
  func basePrecedes(_ index: Int, _ other: Int) -> Bool {
    rows[index].base.utf8.lexicographicallyPrecedes(rows[other].base.utf8)
  }
  func index(ofBase base: String) -> Int? { rows.firstIndex { $0.base == base } }
  var partsFolders: [String] { rows.compactMap(\.partsFolder) }
}
