#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The memo candidates of one reading of a folder's names, held compactly. The same candidates
/// as `FolderGrouping` (the same bases, files and kinds), made without a string or a value per
/// name, for a reader that needs the memos only (the browser's first screen at 100,000 memos).
/// The other names (orphans, near misses, strangers) are not kept, and the collisions are found
/// only when asked (`collidingGrouping`). Nothing is opened.
///
/// A base of the phone's own form (`PlainBase`, nearly all of them) is held as an integer: those
/// names are collected as integers, radix-sorted and grouped in one pass, with no look-up per
/// name. Every other base goes through a hash table over its bytes. So the candidates come in
/// this order: first the plain bases in byte order, then the others in the order the folder
/// listed them.
package struct MemoNames: Sendable {
  /// The plain candidates' keys, ascending (their bases' byte order).
  private var plainKeys: [UInt64] = []
  /// Each plain candidate's names, packed as `Hashed.slots` packs them.
  private var plainSlots: [UInt32] = []
  /// Each plain candidate's date (`PlainBase.date`), NaN for none.
  private var plainDates: [Double] = []
  /// The other candidates.
  private var hashed = Hashed()
  /// The bases with memo files but no audio or parts folder (their files are orphans), kept for
  /// the collisions alone: a memo's base can collide with an orphan's. Plain ones as keys,
  /// ascending; the others (few) as strings.
  private var orphanKeys: [UInt64] = []
  private var orphanBases: [String] = []

  /// How many candidates there are.
  package var count: Int { plainKeys.count + hashed.count }

  private init() {}

  /// Groups the names of the folder at `path` (one pass of `readdir(3)`); throws only when the
  /// folder cannot be read (`folder-unreadable`), as `DirectoryReader.entries` does.
  package init(path: String) throws(FormatError) {
    try self.init(path: path, seeing: nil)
  }

  /// `init(path:)`, telling `seeing` of each memo file's name as it is read (on this thread, in
  /// the folder's order): the name, how many of its bytes are the base, its kind and the entry's
  /// kind. A reader can start on a file before the folder has been read to its end.
  package init(
    path: String,
    seeing: ((_ name: UnsafeRawBufferPointer, _ baseCount: Int, MemoFileKind, DirectoryEntry.Kind) -> Void)?
  ) throws(FormatError) {
    var plain: [UInt64] = []
    // The date of each plain name of audio (NaN for any other name), made while the folder is
    // still being read: once per memo, on this thread, which would otherwise wait for the names.
    var dates: [Double] = []
    var hashed = Hashed()
    let prefix = path.hasSuffix("/") ? path : path + "/"
    try DirectoryReader.forEachNameReadingAhead(of: path) { name, type in
      guard let (baseCount, kind) = MemoNames.memoFile(name) else { return }
      let entryKind = DirectoryReader.kind(type: type, prefix: prefix, name: name)
      seeing?(name, baseCount, kind, entryKind)
      let base = UnsafeRawBufferPointer(rebasing: name[..<baseCount])
      if let key = PlainBase.key(base) {
        plain.append(MemoNames.name(key, kind, entryKind))
        dates.append(kind == .audio ? PlainBase.date(key) ?? .nan : .nan)
      } else {
        hashed.add(base, kind, entryKind)
      }
    }
    self.init()
    group(plain, dates)
    orphanBases = hashed.orphanBases()
    self.hashed = hashed.candidates()
  }

  /// One plain name as an integer: the base's key, then the kind, then the entry's kind (sorting
  /// these sorts by base, the names of one base side by side).
  private static func name(_ key: UInt64, _ kind: MemoFileKind, _ entryKind: DirectoryEntry.Kind) -> UInt64 {
    key << 7 | UInt64(shift(kind) / 4) << 4 | UInt64(code(entryKind))
  }

  /// The plain candidates of `names` (each made by `name`): sorted by base, each base's names
  /// packed together, kept when the base is a candidate (`isCandidate`).
  /// `dates` are the names' own (`PlainBase.date` for audio, NaN for the others).
  private mutating func group(_ names: [UInt64], _ dates: [Double]) {
    var (sorted, dated) = (names, dates)
    PlainBase.sort(&sorted, carrying: &dated, bitsFrom: 7, count: PlainBase.bits)
    plainKeys.reserveCapacity(sorted.count / 2)
    plainSlots.reserveCapacity(sorted.count / 2)
    plainDates.reserveCapacity(sorted.count / 2)
    var at = 0
    while at < sorted.count {
      let key = sorted[at] >> 7
      var packed: UInt32 = 0
      var date = Double.nan
      while at < sorted.count, sorted[at] >> 7 == key {
        let name = sorted[at]
        packed |= UInt32(name & 0xF) << (UInt32(name >> 4 & 0x7) * 4)
        if !dated[at].isNaN { date = dated[at] }
        at += 1
      }
      packed = MemoNames.droppingStrayParts(packed)
      guard MemoNames.isCandidate(packed) else {
        if packed != 0 { orphanKeys.append(key) }
        continue
      }
      plainKeys.append(key)
      plainSlots.append(packed)
      // A memo without audio (only its parts folder) is dated now.
      plainDates.append(MemoNames.kind(packed, .audio) != nil ? date : PlainBase.date(key) ?? .nan)
    }
  }

  /// The base and kind of a name that is exactly a memo file (`FolderName.classify` says
  /// `.memoFile`), as the base's length in bytes; nil for every other name. A plain ASCII name is
  /// judged from its bytes; any other is decoded and classified.
  static func memoFile(_ name: UnsafeRawBufferPointer) -> (Int, MemoFileKind)? {
    if let plain = plainMemoFile(name) { return plain }
    guard let first = name.first, first != UInt8(ascii: "."),
      case .memoFile(let base, let kind) = FolderName.classify(String(validating: name, as: UTF8.self))
    else { return nil }
    return (base.utf8.count, kind)
  }

  /// `memoFile` for a name judged from its bytes alone: a memo file's name whose base is ASCII,
  /// with a printable character at both ends (so valid UTF-8, not hidden, no blank to trim).
  /// Nil for every other name, memo file or not: `FolderName.classify` judges those.
  static func plainMemoFile(_ name: UnsafeRawBufferPointer) -> (Int, MemoFileKind)? {
    guard let first = name.first, first != UInt8(ascii: ".") else { return nil }
    for (kind, suffix) in MemoFileKind.suffixBytes where name.count > suffix.count {
      let baseCount = name.count - suffix.count
      guard suffix.withUnsafeBytes({ memcmp(name.baseAddress! + baseCount, $0.baseAddress!, $0.count) }) == 0
      else { continue }
      let (head, tail) = (name[0], name[baseCount - 1])
      var ascii = true
      for at in 0..<baseCount where name[at] >= 0x80 { ascii = false }
      if ascii, head > 0x20, head < 0x7F, tail > 0x20, tail < 0x7F { return (baseCount, kind) }
      return nil
    }
    return nil
  }

  /// Calls `body` with the bytes of candidate `index`'s base.
  package func withBase<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    index < plainKeys.count
      ? PlainBase.withBytes(plainKeys[index], body) : hashed.withBase(index - plainKeys.count, body)
  }

  /// Candidate `index`'s base.
  package func base(_ index: Int) -> String {
    withBase(index) { String(decoding: $0, as: UTF8.self) }
  }

  /// Whether candidate `index`'s base sorts before candidate `other`'s, in byte order.
  package func basePrecedes(_ index: Int, _ other: Int) -> Bool {
    // The plain bases are in byte order already.
    if index < plainKeys.count && other < plainKeys.count { return index < other }
    return withBase(index) { a in withBase(other) { b in ByteOrder.precedes(a, b) } }
  }

  /// The candidate whose base is `base`, byte for byte, or nil.
  package func index(of base: String) -> Int? {
    var text = base
    return text.withUTF8 { utf8 in
      let key = UnsafeRawBufferPointer(utf8)
      guard let plain = PlainBase.key(key) else { return hashed.index(of: key).map { $0 + plainKeys.count } }
      return plainIndex(of: plain)
    }
  }

  private func packed(_ index: Int) -> UInt32 {
    index < plainKeys.count ? plainSlots[index] : hashed.slots[index - plainKeys.count]
  }

  /// What candidate `index`'s name of `kind` is, or nil when it has none.
  package func kind(_ index: Int, _ kind: MemoFileKind) -> DirectoryEntry.Kind? {
    MemoNames.kind(packed(index), kind)
  }

  /// Whether candidate `index`'s name of `kind` is a file or a link to one (what the `T` and `R`
  /// marks say, as `Memo.hasTranscript` does once the memo is read).
  package func isFile(_ index: Int, _ kind: MemoFileKind) -> Bool {
    let entryKind = self.kind(index, kind)
    return entryKind == .file || entryKind == .symlinkToFile
  }

  /// Whether candidate `index` has a name of `kind`.
  package func has(_ index: Int, _ kind: MemoFileKind) -> Bool {
    packed(index) >> MemoNames.shift(kind) & 0xF != 0
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
    if index < plainKeys.count { return plainDates[index].isNaN ? nil : plainDates[index] }
    return withBase(index) { base in
      var reader = TimestampReader(Array(base))
      return reader.timestamp()
    }
  }

  /// `packed` without its parts name when that is not a folder: `FolderGrouping` drops such a
  /// name (it is a stranger there).
  fileprivate static func droppingStrayParts(_ packed: UInt32) -> UInt32 {
    guard let parts = kind(packed, .parts), !parts.isFolder else { return packed }
    return packed & ~(0xF << shift(.parts))
  }

  /// Whether the base whose names are `packed` is a candidate: it has audio or a parts folder
  /// (after `droppingStrayParts`).
  fileprivate static func isCandidate(_ packed: UInt32) -> Bool {
    kind(packed, .audio) != nil || kind(packed, .parts) != nil
  }

  fileprivate static func kind(_ packed: UInt32, _ kind: MemoFileKind) -> DirectoryEntry.Kind? {
    let code = Int(packed >> shift(kind) & 0xF)
    return code == 0 ? nil : kinds[code - 1]
  }

  fileprivate static func shift(_ kind: MemoFileKind) -> UInt32 {
    switch kind {
    case .audio: 0
    case .transcript: 4
    case .route: 8
    case .title: 12
    case .parts: 16
    case .bookmarks: 20
    }
  }

  /// The code an entry's kind is packed as: its position in `kinds` plus one.
  fileprivate static func code(_ kind: DirectoryEntry.Kind) -> Int {
    kinds.firstIndex(of: kind)! + 1
  }

  /// Every kind of entry, each packed as its position here plus one.
  private static let kinds: [DirectoryEntry.Kind] = [
    .file, .folder, .symlinkToFile, .symlinkToFolder, .brokenSymlink, .fifo, .socket, .device, .other,
    .unfollowableSymlink,
  ]
}

/// The candidates whose base is not plain: their bases in a `BaseTable` (numbered in the order
/// the folder listed them) and each candidate's files packed in one integer (four bits per
/// `MemoFileKind`, in its order: 0 for none, else `MemoNames.code` of the name's entry kind).
private struct Hashed: Sendable {
  /// Every candidate's base, numbered as the candidates are.
  private var bases = BaseTable()
  /// Each candidate's names.
  private(set) var slots: [UInt32] = []

  var count: Int { slots.count }

  /// Adds the name of `kind` (which is `entryKind`) to the group of `base`, making the group on its
  /// first name.
  mutating func add(_ base: UnsafeRawBufferPointer, _ kind: MemoFileKind, _ entryKind: DirectoryEntry.Kind) {
    let (index, added) = bases.insert(base)
    if added { slots.append(0) }
    slots[index] |= UInt32(MemoNames.code(entryKind)) << MemoNames.shift(kind)
  }

  /// The bases that are no candidate: every memo file of theirs is an orphan.
  func orphanBases() -> [String] {
    (0..<count).filter { !MemoNames.isCandidate(MemoNames.droppingStrayParts(slots[$0])) }.map { index in
      withBase(index) { String(decoding: $0, as: UTF8.self) }
    }
  }

  /// The candidates (every base with a memo file): the bases with audio or a parts folder, in the
  /// same order. A parts name that is not a folder is dropped, as `FolderGrouping` drops it.
  func candidates() -> Hashed {
    var kept = self
    var dropped = false
    for index in 0..<count {
      kept.slots[index] = MemoNames.droppingStrayParts(kept.slots[index])
      dropped = dropped || !MemoNames.isCandidate(kept.slots[index])
    }
    // Nearly always every base has its audio: the groups are the candidates as they are.
    guard dropped else { return kept }
    var result = Hashed()
    result.bases = BaseTable(expecting: count)
    for index in 0..<kept.count {
      let packed = kept.slots[index]
      guard MemoNames.isCandidate(packed) else { continue }
      kept.withBase(index) { base in
        _ = result.bases.insert(base, hash: kept.bases.hashes[index])
      }
      result.slots.append(packed)
    }
    return result
  }

  /// The candidate whose base is `base`, byte for byte, or nil.
  func index(of base: UnsafeRawBufferPointer) -> Int? {
    bases.index(of: base)
  }

  /// Calls `body` with the bytes of candidate `index`'s base.
  func withBase<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    bases.withBase(index, body)
  }
}

extension MemoNames {
  /// The bases that collide (equal but for case or canonical equivalence, as
  /// `FolderGrouping.collisions` finds them), as a grouping of their candidates alone with its
  /// collisions: empty when none do, as nearly always. An orphan's base (no audio, no parts) is
  /// compared too, as lint compares it, though it is no candidate. A plain base can collide only
  /// with another plain one written with `t` for `T` or `z` for `Z`, found among the sorted keys
  /// with no string made; the other bases, few in a phone's folder, are compared as
  /// `FolderGrouping` compares them.
  package func collidingGrouping() -> FolderGrouping {
    var suspects = Array(plainKeys.count..<count)
    // A key's zone is its last digit (none, Z, z) and its day separator (blank, T, _, t) is worth
    // this much; keys with a lower-case letter are rare, and only they are looked at.
    let daySeparator: UInt64 = 9_000_000
    var suspectPlain = Set<Int>()
    var suspectOrphans = Set<UInt64>()
    // Looks for the other spellings of `key` (candidate `index`'s, or an orphan's when nil).
    func look(_ key: UInt64, candidate index: Int?) {
      let (zone, day) = (key % 3, key / daySeparator % 4)
      guard day == 3 || zone == 2 else { return }
      let days: [UInt64] = day == 1 || day == 3 ? [1, 3] : [day]
      let zones: [UInt64] = zone == 0 ? [0] : [1, 2]
      for otherDay in days {
        for otherZone in zones {
          let other = key - day * daySeparator - zone + otherDay * daySeparator + otherZone
          guard other != key else { continue }
          let found = plainIndex(of: other)
          let orphan = Self.position(of: other, in: orphanKeys) != nil
          guard found != nil || orphan else { continue }
          if let found { suspectPlain.insert(found) }
          if orphan { suspectOrphans.insert(other) }
          if let index { suspectPlain.insert(index) } else { suspectOrphans.insert(key) }
        }
      }
    }
    for (index, key) in plainKeys.enumerated() { look(key, candidate: index) }
    for key in orphanKeys { look(key, candidate: nil) }
    suspects += suspectPlain.sorted()
    let orphans =
      orphanBases
      + suspectOrphans.sorted().map { PlainBase.withBytes($0) { String(decoding: $0, as: UTF8.self) } }
    guard suspects.count + orphans.count > 1 else { return FolderGrouping(candidates: [], collisions: []) }
    let bases = suspects.map(base)
    let collisions = FolderGrouping.collisions(bases + orphans)
    let colliding = Set(collisions.flatMap(\.bases))
    let candidates = suspects.indices.filter { colliding.contains(PathText.escaped(bases[$0])) }
      .map { candidate(suspects[$0]) }
    return FolderGrouping(candidates: candidates, collisions: collisions)
  }

  /// The position of `key` in the ascending `keys`, or nil.
  private static func position(of key: UInt64, in keys: [UInt64]) -> Int? {
    var (low, high) = (0, keys.count)
    while low < high {
      let mid = (low + high) / 2
      if keys[mid] < key { low = mid + 1 } else { high = mid }
    }
    return low < keys.count && keys[low] == key ? low : nil
  }

  /// The position of the plain key `key`, or nil.
  private func plainIndex(of key: UInt64) -> Int? { Self.position(of: key, in: plainKeys) }
}
