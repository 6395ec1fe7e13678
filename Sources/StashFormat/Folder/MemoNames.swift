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
  /// An open-addressed table of candidate positions plus one (0: empty), by the hash of the base.
  private var table: [Int32] = []

  /// How many candidates there are.
  package var count: Int { slots.count }

  private init() {}

  /// Groups the names of the folder at `path` (one pass of `readdir(3)`); throws only when the
  /// folder cannot be read (`folder-unreadable`), as `DirectoryReader.entries` does.
  package init(path: String) throws(FormatError) {
    var groups = MemoNames()
    groups.table = Array(repeating: 0, count: 1 << 12)
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
    var size = 1 << 12
    while size < groups.count * 2 { size <<= 1 }
    table = Array(repeating: 0, count: size)
    bytes.reserveCapacity(groups.bytes.count)
    starts.reserveCapacity(groups.count + 1)
    slots.reserveCapacity(groups.count)
    for index in 0..<groups.count {
      var packed = groups.slots[index]
      if let parts = MemoNames.kind(packed, .parts), !parts.isFolder {
        packed &= ~(0xF << MemoNames.shift(.parts))
      }
      guard MemoNames.kind(packed, .audio) != nil || MemoNames.kind(packed, .parts) != nil else { continue }
      groups.withBase(index) { base in
        _ = insert(base, packed)
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
      guard name[baseCount...].elementsEqual(suffix) else { continue }
      // Printable ASCII at both ends and ASCII throughout: valid UTF-8, not hidden, no blank to trim.
      let (head, tail) = (name[0], name[baseCount - 1])
      if head > 0x20, head < 0x7F, tail > 0x20, tail < 0x7F, !name[..<baseCount].contains(where: { $0 >= 0x80 }) {
        return (baseCount, kind)
      }
      break
    }
    guard case .memoFile(let base, let kind) = FolderName.classify(String(validating: name, as: UTF8.self))
    else { return nil }
    return (base.utf8.count, kind)
  }

  /// Adds the name of `kind` (which is `entryKind`) to the group of `base`, making the group on its
  /// first name.
  private mutating func add(_ base: UnsafeRawBufferPointer, _ kind: MemoFileKind, _ entryKind: DirectoryEntry.Kind) {
    if count * 2 >= table.count { grow() }
    let index = insert(base, 0)
    slots[index] |= UInt32(MemoNames.kinds.firstIndex(of: entryKind)! + 1) << MemoNames.shift(kind)
  }

  /// The candidate of `base`, added with `packed` when there is none yet.
  private mutating func insert(_ base: UnsafeRawBufferPointer, _ packed: UInt32) -> Int {
    let mask = table.count - 1
    var at = MemoNames.hash(base) & mask
    while table[at] != 0 {
      let index = Int(table[at]) - 1
      if equals(index, base) { return index }
      at = (at + 1) & mask
    }
    let index = count
    bytes.append(contentsOf: base)
    starts.append(Int32(bytes.count))
    slots.append(packed)
    table[at] = Int32(index + 1)
    return index
  }

  /// Doubles the hash table.
  private mutating func grow() {
    table = Array(repeating: 0, count: table.count * 2)
    let mask = table.count - 1
    for index in 0..<count {
      var at = withBase(index) { MemoNames.hash($0) } & mask
      while table[at] != 0 { at = (at + 1) & mask }
      table[at] = Int32(index + 1)
    }
  }

  /// FNV-1a over the bytes.
  private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return Int(truncatingIfNeeded: value ^ (value >> 29))
  }

  /// Whether candidate `index`'s base is `base`, byte for byte.
  private func equals(_ index: Int, _ base: UnsafeRawBufferPointer) -> Bool {
    withBase(index) { mine in
      mine.count == base.count && (base.isEmpty || memcmp(mine.baseAddress!, base.baseAddress!, base.count) == 0)
    }
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
      let mask = table.count - 1
      var at = MemoNames.hash(key) & mask
      while table[at] != 0 {
        let index = Int(table[at]) - 1
        if equals(index, key) { return index }
        at = (at + 1) & mask
      }
      return nil
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
      var reader = TimestampReader(Array(base))
      return reader.timestamp()
    }
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
