#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The memo candidates of one reading of a folder's names, held compactly: every base's bytes end
/// to end in one buffer, each candidate's files packed in one integer, and a hash table from a
/// base to its candidate. The same candidates as `FolderGrouping` (the same bases, files, kinds and
/// order), made without a string or a value per name, for a reader that needs the memos only (the
/// browser's first screen at 100,000 memos). The other names (orphans, near misses, strangers)
/// and the collisions are not kept. Nothing is opened.
package struct MemoNames: Sendable {
  /// Every candidate's base, end to end, in candidate order.
  private var bytes: [UInt8] = []
  /// Where each candidate's base starts in `bytes`, and one more entry: where the last ends.
  private var starts: [Int32] = [0]
  /// Each candidate's names: four bits per `MemoFileKind` (in its order), 0 for none, else the
  /// position of the name's `DirectoryEntry.Kind` in `MemoNames.kinds`, plus one.
  private var slots: [UInt32] = []
  /// An open-addressed table of the candidates by the hash of the base. Each entry holds what a
  /// look-up needs, so it touches the entry and the base's bytes and nothing else.
  private var table: [Entry] = []
  /// Each candidate's hash.
  private var hashes: [UInt64] = []

  private struct Entry {
    /// The high half of the base's hash, compared before its bytes.
    var tag: UInt32 = 0
    /// The candidate's position plus one; 0 for an empty entry.
    var index: Int32 = 0
    /// Where the base is in `bytes`.
    var start: Int32 = 0
    var count: Int32 = 0
  }

  /// How many candidates there are.
  package var count: Int { slots.count }

  private init() {}

  /// Groups the names of the folder at `path` (one pass of `readdir(3)`); throws only when the
  /// folder cannot be read (`folder-unreadable`), as `DirectoryReader.entries` does.
  package init(path: String) throws(FormatError) {
    var groups = MemoNames()
    groups.table = Array(repeating: Entry(), count: 1 << 12)
    let prefix = path.hasSuffix("/") ? path : path + "/"
    try DirectoryReader.forEachName(of: path) { name, type in
      guard let (baseCount, kind) = MemoNames.memoFile(name) else { return }
      let entryKind = DirectoryReader.kind(type: type, prefix: prefix, name: name)
      groups.add(UnsafeRawBufferPointer(rebasing: name[..<baseCount]), kind, entryKind)
    }
    self.init(candidatesOf: groups)
  }

  /// The candidates of `groups` (every base with a memo file): the bases with audio or a parts
  /// folder, in the same order. A parts name that is not a folder is dropped, as `FolderGrouping`
  /// drops it (it is a stranger there).
  private init(candidatesOf groups: MemoNames) {
    var kept = groups
    var dropped = false
    for index in 0..<groups.count {
      if let parts = MemoNames.kind(kept.slots[index], .parts), !parts.isFolder {
        kept.slots[index] &= ~(0xF << MemoNames.shift(.parts))
      }
      let packed = kept.slots[index]
      dropped = dropped || (MemoNames.kind(packed, .audio) == nil && MemoNames.kind(packed, .parts) == nil)
    }
    // Nearly always every base has its audio: the groups are the candidates as they are.
    if !dropped {
      self = kept
      return
    }
    var size = 1 << 12
    while size < groups.count * 2 { size <<= 1 }
    table = Array(repeating: Entry(), count: size)
    bytes.reserveCapacity(groups.bytes.count)
    starts.reserveCapacity(groups.count + 1)
    slots.reserveCapacity(groups.count)
    for index in 0..<kept.count {
      let packed = kept.slots[index]
      guard MemoNames.kind(packed, .audio) != nil || MemoNames.kind(packed, .parts) != nil else { continue }
      kept.withBase(index) { base in
        _ = insert(base, kept.hashes[index], packed)
      }
    }
  }

  /// The base and kind of a name that is exactly a memo file (`FolderName.classify` says
  /// `.memoFile`), as the base's length in bytes; nil for every other name. A plain ASCII name is
  /// judged from its bytes; any other is decoded and classified.
  static func memoFile(_ name: UnsafeRawBufferPointer) -> (Int, MemoFileKind)? {
    guard let first = name.first, first != UInt8(ascii: ".") else { return nil }
    for (kind, suffix) in MemoFileKind.suffixBytes where name.count > suffix.count {
      let baseCount = name.count - suffix.count
      guard suffix.withUnsafeBytes({ memcmp(name.baseAddress! + baseCount, $0.baseAddress!, $0.count) }) == 0
      else { continue }
      // Printable ASCII at both ends and ASCII throughout: valid UTF-8, not hidden, no blank to trim.
      let (head, tail) = (name[0], name[baseCount - 1])
      var ascii = true
      for at in 0..<baseCount where name[at] >= 0x80 { ascii = false }
      if ascii, head > 0x20, head < 0x7F, tail > 0x20, tail < 0x7F { return (baseCount, kind) }
      break
    }
    guard case .memoFile(let base, let kind) = FolderName.classify(String(validating: name, as: UTF8.self))
    else { return nil }
    return (base.utf8.count, kind)
  }

  /// Adds the name of `kind` (which is `entryKind`) to the group of `base`, making the group on its
  /// first name.
  private mutating func add(
    _ base: UnsafeRawBufferPointer, _ kind: MemoFileKind, _ entryKind: DirectoryEntry.Kind
  ) {
    if count * 2 >= table.count { grow() }
    let index = insert(base, MemoNames.hash(base), 0)
    slots[index] |= UInt32(MemoNames.kinds.firstIndex(of: entryKind)! + 1) << MemoNames.shift(kind)
  }

  /// The candidate of `base` (whose hash is `hash`), added with `packed` when there is none yet.
  private mutating func insert(_ base: UnsafeRawBufferPointer, _ hash: UInt64, _ packed: UInt32) -> Int {
    let (found, at) = find(base, hash)
    if let found { return found }
    let index = count
    let start = bytes.count
    bytes.append(contentsOf: base)
    starts.append(Int32(bytes.count))
    slots.append(packed)
    hashes.append(hash)
    table[at] = Entry(
      tag: UInt32(truncatingIfNeeded: hash >> 32), index: Int32(index + 1), start: Int32(start),
      count: Int32(base.count))
    return index
  }

  /// The candidate of `base` (whose hash is `hash`) if there is one, and the entry where the
  /// search for it ended (the empty one it would go in, when there is none).
  private func find(_ base: UnsafeRawBufferPointer, _ hash: UInt64) -> (index: Int?, slot: Int) {
    let mask = table.count - 1
    let tag = UInt32(truncatingIfNeeded: hash >> 32)
    var at = MemoNames.slot(hash, mask)
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

  /// Doubles the hash table.
  private mutating func grow() {
    var grown = Array(repeating: Entry(), count: table.count * 2)
    let mask = grown.count - 1
    for entry in table where entry.index != 0 {
      var at = MemoNames.slot(hashes[Int(entry.index) - 1], mask)
      while grown[at].index != 0 { at = (at + 1) & mask }
      grown[at] = entry
    }
    table = grown
  }

  /// FNV-1a over the bytes.
  private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return value
  }

  /// The table slot a hash starts at.
  private static func slot(_ hash: UInt64, _ mask: Int) -> Int {
    Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
  }

  /// Calls `body` with the bytes of candidate `index`'s base.
  package func withBase<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    let (start, end) = (Int(starts[index]), Int(starts[index + 1]))
    return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
  }

  /// Candidate `index`'s base.
  package func base(_ index: Int) -> String {
    withBase(index) { String(decoding: $0, as: UTF8.self) }
  }

  /// Whether candidate `index`'s base sorts before candidate `other`'s, in byte order.
  package func basePrecedes(_ index: Int, _ other: Int) -> Bool {
    withBase(index) { a in
      withBase(other) { b in
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
        return order != 0 ? order < 0 : a.count < b.count
      }
    }
  }

  /// The candidate whose base is `base`, byte for byte, or nil.
  package func index(of base: String) -> Int? {
    guard !table.isEmpty else { return nil }
    var text = base
    return text.withUTF8 { utf8 in
      let key = UnsafeRawBufferPointer(utf8)
      return find(key, MemoNames.hash(key)).index
    }
  }

  /// What candidate `index`'s name of `kind` is, or nil when it has none.
  package func kind(_ index: Int, _ kind: MemoFileKind) -> DirectoryEntry.Kind? {
    MemoNames.kind(slots[index], kind)
  }

  /// Whether candidate `index` has a name of `kind`.
  package func has(_ index: Int, _ kind: MemoFileKind) -> Bool {
    slots[index] >> MemoNames.shift(kind) & 0xF != 0
  }

  /// Candidate `index` as `FolderGrouping` gives it, for `Memo.read`.
  package func candidate(_ index: Int) -> FolderGrouping.Candidate {
    let base = self.base(index)
    var candidate = FolderGrouping.Candidate(base: base)
    for kind in MemoFileKind.allCases {
      if let entryKind = self.kind(index, kind) {
        candidate[kind] = FolderGrouping.Slot(name: base + kind.suffix, kind: entryKind)
      }
    }
    return candidate
  }

  /// The recording date candidate `index`'s base names (`RecordingDate.parse`), or nil.
  package func date(_ index: Int) -> Double? {
    withBase(index) { base in
      if let plain = MemoNames.plainDate(base) { return plain }
      var reader = TimestampReader(Array(base))
      return reader.timestamp()
    }
  }

  /// The date of a base that is only the phone's own timestamp, `YYYY-MM-DDTHH-MM-SS` (a `T`,
  /// blank, `_` or `t` after the day; `-`, `:` or `.` twice in the time), local time, read as
  /// `TimestampReader` reads it but without its work per byte; nil for any other base (and for an
  /// impossible date, which `TimestampReader` refuses as well).
  static func plainDate(_ base: UnsafeRawBufferPointer) -> Double? {
    guard base.count == 19, base[4] == UInt8(ascii: "-"), base[7] == UInt8(ascii: "-"),
      "T _t".utf8.contains(base[10]), ":-.".utf8.contains(base[13]), base[16] == base[13]
    else { return nil }
    func number(_ at: Int, _ count: Int) -> Int? {
      var value = 0
      for offset in at..<at + count {
        let c = base[offset]
        guard c >= 0x30, c <= 0x39 else { return nil }
        value = value * 10 + Int(c - 0x30)
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
      let minute = number(14, 2), let second = number(17, 2),
      let parts = TimestampReader.wallClock(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    else { return nil }
    let local = RecordingDate.localSeconds(parts)
    return local == -1 && year != 1969 ? nil : Double(local)
  }

  private static func kind(_ packed: UInt32, _ kind: MemoFileKind) -> DirectoryEntry.Kind? {
    let code = Int(packed >> shift(kind) & 0xF)
    return code == 0 ? nil : kinds[code - 1]
  }

  private static func shift(_ kind: MemoFileKind) -> UInt32 {
    switch kind {
    case .audio: 0
    case .transcript: 4
    case .route: 8
    case .title: 12
    case .parts: 16
    }
  }

  /// Every kind of entry, each packed as its position here plus one.
  private static let kinds: [DirectoryEntry.Kind] = [
    .file, .folder, .symlinkToFile, .symlinkToFolder, .brokenSymlink, .fifo, .socket, .device, .other,
  ]
}
