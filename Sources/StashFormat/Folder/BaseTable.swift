#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Bases, each numbered in the order it was first added, found again by their bytes (never by
/// canonical equivalence: NFC and NFD spellings are two names on this file system). Every base's
/// bytes lie end to end in one buffer, and an open-addressed table leads from a base's hash to its
/// number, so a look-up touches one entry and one base's bytes: no string, no reference count.
/// The grouping of a folder's names (`FolderGrouping`, `MemoNames`) looks up every name here.
struct BaseTable: Sendable {
  /// Every base, end to end, in the order added.
  private var bytes: [UInt8] = []
  /// Where each base starts in `bytes`, and one more entry: where the last ends.
  private var starts: [Int32] = [0]
  /// Each base's hash (`BaseTable.hash`), by number.
  private(set) var hashes: [UInt64] = []
  /// The table, at least twice as large as the bases in it. Each entry holds what a look-up
  /// needs, so it touches the entry and the base's bytes and nothing else.
  private var table: [Entry]

  private struct Entry {
    /// The high half of the base's hash, compared before its bytes.
    var tag: UInt32 = 0
    /// The base's number plus one; 0 for an empty entry.
    var index: Int32 = 0
    /// Where the base is in `bytes`.
    var start: Int32 = 0
    var count: Int32 = 0
  }

  /// How many bases there are.
  var count: Int { hashes.count }

  /// An empty table sized for about `expected` bases (it grows past them).
  init(expecting expected: Int = 0) {
    var size = 1 << 8
    while size < expected * 2 { size <<= 1 }
    table = Array(repeating: Entry(), count: size)
  }

  /// The number of `base` (whose hash is `hash`), adding it as the next number when it is new;
  /// `added` says it was.
  mutating func insert(_ base: UnsafeRawBufferPointer, hash: UInt64) -> (index: Int, added: Bool) {
    if count * 2 >= table.count { grow() }
    let (found, at) = find(base, hash)
    if let found { return (found, false) }
    let index = count
    let start = bytes.count
    bytes.append(contentsOf: base)
    starts.append(Int32(bytes.count))
    hashes.append(hash)
    table[at] = Entry(
      tag: UInt32(truncatingIfNeeded: hash >> 32), index: Int32(index + 1), start: Int32(start),
      count: Int32(base.count))
    return (index, true)
  }

  /// `insert(_:hash:)` with the base's own hash (`hash(_:)`).
  mutating func insert(_ base: UnsafeRawBufferPointer) -> (index: Int, added: Bool) {
    insert(base, hash: Self.hash(base))
  }

  /// `insert` of `text`'s UTF-8 bytes.
  mutating func insert(_ text: String) -> (index: Int, added: Bool) {
    var text = text
    return text.withUTF8 { insert(UnsafeRawBufferPointer($0)) }
  }

  /// The number of `base`, byte for byte, or nil.
  func index(of base: UnsafeRawBufferPointer) -> Int? {
    find(base, Self.hash(base)).index
  }

  /// The number of `base` (whose hash is `hash`) if it is here, and the entry where the search
  /// for it ended (the empty one it would go in, when it is not).
  private func find(_ base: UnsafeRawBufferPointer, _ hash: UInt64) -> (index: Int?, slot: Int) {
    let mask = table.count - 1
    let tag = UInt32(truncatingIfNeeded: hash >> 32)
    var at = Self.slot(hash, mask)
    return table.withUnsafeBufferPointer { entries in
      bytes.withUnsafeBytes { stored in
        while entries[at].index != 0 {
          let entry = entries[at]
          if entry.tag == tag, Int(entry.count) == base.count,
            base.isEmpty || memcmp(stored.baseAddress! + Int(entry.start), base.baseAddress!, base.count) == 0
          {
            return (Int(entry.index) - 1, at)
          }
          at = (at + 1) & mask
        }
        return (nil, at)
      }
    }
  }

  /// Doubles the table.
  private mutating func grow() {
    var grown = Array(repeating: Entry(), count: table.count * 2)
    let mask = grown.count - 1
    for entry in table where entry.index != 0 {
      var at = Self.slot(hashes[Int(entry.index) - 1], mask)
      while grown[at].index != 0 { at = (at + 1) & mask }
      grown[at] = entry
    }
    table = grown
  }

  /// FNV-1a over the bytes: what `insert` is given as `hash`.
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return value
  }

  /// The table slot a hash starts at.
  private static func slot(_ hash: UInt64, _ mask: Int) -> Int {
    Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
  }

  /// Calls `body` with the bytes of base `index`.
  func withBase<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    let (start, end) = (Int(starts[index]), Int(starts[index + 1]))
    return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
  }
}
