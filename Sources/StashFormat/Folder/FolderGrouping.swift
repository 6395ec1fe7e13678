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
    package var audio, transcript, route, title, parts, bookmarks: Slot?

    package subscript(kind: MemoFileKind) -> Slot? {
      get {
        switch kind {
        case .audio: audio
        case .transcript: transcript
        case .route: route
        case .title: title
        case .parts: parts
        case .bookmarks: bookmarks
        }
      }
      set {
        switch kind {
        case .audio: audio = newValue
        case .transcript: transcript = newValue
        case .route: route = newValue
        case .title: title = newValue
        case .parts: parts = newValue
        case .bookmarks: bookmarks = newValue
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

  /// Groups the names of one reading of a folder.
  package init(_ entries: [DirectoryEntry]) {
    var builder = Builder(expecting: entries.count)
    for entry in entries {
      guard var name = entry.name else {
        builder.add(entry, nil)
        continue
      }
      name.withUTF8 { builder.add(entry, UnsafeRawBufferPointer($0)) }
    }
    self = builder.finish()
  }

  /// Reads the names of the folder at `path` (one pass, read ahead on a second thread) and groups
  /// them as they come, so the grouping overlaps the reading. Throws only when the folder cannot
  /// be read (`folder-unreadable`), as `DirectoryReader.entries` does.
  package init(path: String) throws(FormatError) {
    var builder = Builder(expecting: 0)
    let prefix = path.hasSuffix("/") ? path : path + "/"
    try DirectoryReader.forEachNameReadingAhead(of: path) { name, type in
      builder.add(
        DirectoryEntry(bytes: name, kind: DirectoryReader.kind(type: type, prefix: prefix, name: name)), name)
    }
    self = builder.finish()
  }

  private init() {}

  /// A grouping of these candidates and collisions alone.
  init(candidates: [Candidate], collisions: [NameCollision]) {
    self.candidates = candidates
    self.collisions = collisions
  }

  /// A grouping made one name at a time. A memo file whose name is plain ASCII
  /// (`MemoNames.plainMemoFile`, nearly every name) goes to its candidate at once, with a look-up
  /// in a `BaseTable` and no string made but a new base's; every other name is classified in
  /// `finish`, on both cores, and the candidates are then put back in the order the folder
  /// listed their first names.
  private struct Builder {
    var grouping = FolderGrouping()
    // Keyed by bytes: NFC and NFD bases are two different names on this file system.
    var groups: BaseTable
    var bases: [Candidate] = []
    /// The position of each candidate's first name.
    var firsts: [Int] = []
    /// The names left for `finish`, with their positions.
    var others: [(Int, DirectoryEntry)] = []
    var count = 0

    init(expecting count: Int) {
      groups = BaseTable(expecting: count / 2)
      bases.reserveCapacity(count / 2)
      firsts.reserveCapacity(count / 2)
    }

    /// Adds the next name; `bytes` are its bytes when it is valid UTF-8.
    mutating func add(_ entry: DirectoryEntry, _ bytes: UnsafeRawBufferPointer?) {
      defer { count += 1 }
      guard let bytes, let (baseCount, kind) = MemoNames.plainMemoFile(bytes) else {
        others.append((count, entry))
        return
      }
      let base = UnsafeRawBufferPointer(rebasing: bytes[..<baseCount])
      place(groups.insert(base), kind, entry, at: count) { String(decoding: base, as: UTF8.self) }
    }

    /// Files `entry`, the name at `position`, in its candidate (`insertion`, from `groups`),
    /// first making the candidate, named `base()`, when the base is new. Returns whether it was.
    @discardableResult
    private mutating func place(
      _ insertion: (index: Int, added: Bool), _ kind: MemoFileKind, _ entry: DirectoryEntry, at position: Int,
      base: () -> String
    ) -> Bool {
      if insertion.added {
        bases.append(Candidate(base: base()))
        firsts.append(position)
      }
      bases[insertion.index][kind] = Slot(name: entry.name!, kind: entry.kind)
      return insertion.added
    }

    consuming func finish() -> FolderGrouping {
      let names = Parallel.map(others.count, chunk: 256) { [others] in FolderName.classify(others[$0].1.name)
      }
      var nearMisses: [(DirectoryEntry, String, String)] = []
      var inOrder = true
      for ((position, entry), name) in zip(others, names) {
        switch name {
        case .hidden:
          grouping.others.append(
            FolderEntry(name: entry.printableName, bytes: entry.bytes, kind: entry.kind, role: .hidden))
        case .unrecognised:
          let reason = entry.name == nil ? "the name is not valid UTF-8" : nil
          grouping.others.append(
            FolderEntry(
              name: entry.printableName, bytes: entry.bytes, kind: entry.kind,
              role: .unrecognised(reason: reason)))
        case .nearMiss(let intended, _, _, let reason):
          nearMisses.append((entry, intended, reason))
        case .memoFile(let base, let kind):
          let previous = firsts.last ?? -1
          if place(groups.insert(base), kind, entry, at: position, base: { base }) {
            inOrder = inOrder && previous < position
          }
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
        grouping.others.append(
          FolderEntry(
            name: entry.printableName, bytes: entry.bytes, kind: entry.kind,
            role: .nearMiss(intended: intended, reason: reason, intendedExists: exists)))
      }
      if !inOrder {
        // A candidate first named by a name classified here goes where its first name was.
        let order = bases.indices.sorted { firsts[$0] < firsts[$1] }
        bases = order.map { bases[$0] }
      }
      grouping.collisions = FolderGrouping.collisions(bases.map(\.base))
      // The candidates are kept in place, moved down over the bases that are not (nearly always
      // there are none), so no candidate is copied.
      var kept = 0
      for index in bases.indices {
        if let slot = bases[index].parts, !slot.kind.isFolder {
          // Only a folder can hold parts; a file of that name is a stranger.
          bases[index].parts = nil
          grouping.others.append(
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
          grouping.others.append(
            FolderEntry(
              name: PathText.escaped(slot.name), bytes: Array(slot.name.utf8), kind: slot.kind,
              role: .orphan(base: bases[index].base, kind: kind)))
        }
      }
      bases.removeLast(bases.count - kept)
      grouping.candidates = bases
      grouping.others.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
      return grouping
    }
  }

  /// Bases equal after lowercasing under Swift's canonical-equivalence comparison, more than one apart.
  static func collisions(_ bases: [String]) -> [NameCollision] {
    // Each base's folded form to the first base with it; a group is made only on a second one,
    // so a folder without collisions (nearly all) allocates nothing per base.
    var groups: [Int: [String]] = [:]
    // Lowercasing is most of the work, and each base's is its own: done on both cores first. A
    // base of ASCII with no capital letter (a phone's timestamp) is its own folded form, kept
    // without making a new string of it.
    let keys = Parallel.map(bases.count, chunk: 1024) { index in
      let base = bases[index]
      return base.utf8.allSatisfy({ $0 < 0x80 && !(0x41...0x5A).contains($0) }) ? base : base.lowercased()
    }
    func collide(_ earlier: Int, _ index: Int) {
      groups[earlier, default: [bases[earlier]]].append(bases[index])
    }
    if keys.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) {
      // Strings of ASCII alone are canonically equivalent exactly when their bytes are equal:
      // their folded forms are looked up by bytes, with no string hashed.
      var table = BaseTable(expecting: keys.count)
      var first: [Int] = []
      first.reserveCapacity(keys.count)
      for (index, key) in keys.enumerated() {
        let (number, added) = table.insert(key)
        if added { first.append(index) } else { collide(first[number], index) }
      }
    } else {
      var first: [String: Int] = [:]
      first.reserveCapacity(bases.count)
      for (index, key) in keys.enumerated() {
        if let earlier = first[key] { collide(earlier, index) } else { first[key] = index }
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
