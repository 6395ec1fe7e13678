/// The names of a folder sorted into memo candidates (by base) and everything else, from names and
/// `d_type` alone: nothing is opened here. A reader that goes memo by memo (lint) starts here.
package struct FolderGrouping: Sendable {
  /// One name of a memo and what it points at.
  package struct Slot: Sendable {
    package var name: String
    package var kind: DirectoryEntry.Kind
  }

  /// The names of one base; a fixed slot per kind keeps grouping free of per-memo allocations.
  package struct Candidate: Sendable {
    package var base: String
    package var audio, transcript, route, title, parts: Slot?

    package subscript(kind: MemoFileKind) -> Slot? {
      get {
        switch kind {
        case .audio: audio
        case .transcript: transcript
        case .route: route
        case .title: title
        case .parts: parts
        }
      }
      set {
        switch kind {
        case .audio: audio = newValue
        case .transcript: transcript = newValue
        case .route: route = newValue
        case .title: title = newValue
        case .parts: parts = newValue
        }
      }
    }

    /// The slots that are filled, in kind order.
    package var filled: [(MemoFileKind, Slot)] {
      MemoFileKind.allCases.compactMap { kind in self[kind].map { (kind, $0) } }
    }
  }

  /// Every base with audio or a parts folder, in the order the folder listed them.
  package var candidates: [Candidate] = []
  /// Every other name, in byte order (as `MemoFolder.others`).
  package var others: [FolderEntry] = []
  /// Groups of bases that the phone's file system would merge.
  package var collisions: [NameCollision] = []

  /// Groups the names of one reading of a folder. Every name is classified, and every base
  /// hashed, on both cores; what is left on one thread is a look-up per name in a `BaseTable`.
  package init(_ entries: [DirectoryEntry]) {
    let names = Self.classified(entries)
    // Keyed by bytes: NFC and NFD bases are two different names on this file system.
    var groups = BaseTable(expecting: entries.count / 2)
    var bases: [Candidate] = []
    bases.reserveCapacity(entries.count / 2)
    var nearMisses: [(DirectoryEntry, String, String)] = []
    for (entry, (name, hash)) in zip(entries, names) {
      switch name {
      case .hidden:
        others.append(
          FolderEntry(name: entry.printableName, bytes: entry.bytes, kind: entry.kind, role: .hidden))
      case .unrecognised:
        let reason = entry.name == nil ? "the name is not valid UTF-8" : nil
        others.append(
          FolderEntry(
            name: entry.printableName, bytes: entry.bytes, kind: entry.kind,
            role: .unrecognised(reason: reason)))
      case .nearMiss(let intended, _, _, let reason):
        nearMisses.append((entry, intended, reason))
      case .memoFile(var base, let kind):
        let (index, added) = base.withUTF8 { groups.insert(UnsafeRawBufferPointer($0), hash: hash) }
        if added { bases.append(Candidate(base: base)) }
        bases[index][kind] = Slot(name: entry.name!, kind: entry.kind)
      }
    }
    for (entry, intended, reason) in nearMisses {
      // The intended name is an exact memo name, so it is present exactly when its group has it.
      let exists: Bool
      if case .memoFile(var base, let kind) = FolderName.classify(intended),
        let index = base.withUTF8({ groups.index(of: UnsafeRawBufferPointer($0)) })
      {
        exists = bases[index][kind] != nil
      } else {
        exists = false
      }
      others.append(
        FolderEntry(
          name: entry.printableName, bytes: entry.bytes, kind: entry.kind,
          role: .nearMiss(
            intended: intended, reason: reason, intendedExists: exists)))
    }
    collisions = Self.collisions(bases.map(\.base))
    // The candidates are kept in place, moved down over the bases that are not (nearly always
    // there are none), so no candidate is copied.
    var kept = 0
    for index in bases.indices {
      if let slot = bases[index].parts, !slot.kind.isFolder {
        // Only a folder can hold parts; a file of that name is a stranger.
        bases[index].parts = nil
        others.append(
          FolderEntry(
            name: PathText.escaped(slot.name), bytes: Array(slot.name.utf8), kind: slot.kind,
            role: .unrecognised(reason: "named like a parts folder, but it is \(slot.kind.words)")))
      }
      if bases[index].audio != nil || bases[index].parts != nil {
        if kept != index { bases.swapAt(kept, index) }
        kept += 1
        continue
      }
      for (kind, slot) in bases[index].filled {
        others.append(
          FolderEntry(
            name: PathText.escaped(slot.name), bytes: Array(slot.name.utf8), kind: slot.kind,
            role: .orphan(base: bases[index].base, kind: kind)))
      }
    }
    bases.removeLast(bases.count - kept)
    candidates = bases
    others.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
  }

  /// Every entry's name classified, with the hash of its base for a memo file (else 0), on both
  /// cores (it is most of the grouping's work), in order.
  static func classified(_ entries: [DirectoryEntry]) -> [(FolderName, UInt64)] {
    Parallel.map(entries.count, chunk: 1024) { index in
      let name = FolderName.classify(entries[index].name)
      guard case .memoFile(let base, _) = name else { return (name, 0) }
      return (name, BaseTable.hash(base))
    }
  }

  /// Bases equal after lowercasing under Swift's canonical-equivalence comparison, more than one apart.
  static func collisions(_ bases: [String]) -> [NameCollision] {
    // Each base's folded form to the first base with it; a group is made only on a second one,
    // so a folder without collisions (nearly all) allocates nothing per base.
    var first: [String: Int] = [:]
    first.reserveCapacity(bases.count)
    var groups: [Int: [String]] = [:]
    // Lowercasing is most of the work, and each base's is its own: done on both cores first. A
    // base of ASCII with no capital letter (a phone's timestamp) is its own folded form, kept
    // without making a new string of it.
    let keys = Parallel.map(bases.count, chunk: 1024) { index in
      let base = bases[index]
      return base.utf8.allSatisfy({ $0 < 0x80 && !(0x41...0x5A).contains($0) }) ? base : base.lowercased()
    }
    for (index, base) in bases.enumerated() {
      let key = keys[index]
      if let earlier = first[key] {
        groups[earlier, default: [bases[earlier]]].append(base)
      } else {
        first[key] = index
      }
    }
    return groups.values
      .map { group in
        NameCollision(
          bases: group.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map(PathText.escaped))
      }
      .sorted { $0.bases[0].utf8.lexicographicallyPrecedes($1.bases[0].utf8) }
  }
}
