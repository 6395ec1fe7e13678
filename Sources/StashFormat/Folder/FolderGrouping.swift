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

  /// Groups the names of one reading of a folder.
  package init(_ entries: [DirectoryEntry]) {
    // Keyed by bytes: NFC and NFD bases are two different names on this file system.
    var groups: [ExactName: Int] = [:]
    groups.reserveCapacity(entries.count / 3)
    var bases: [Candidate] = []
    var nearMisses: [(DirectoryEntry, String, String)] = []
    for (entry, name) in zip(entries, Self.classified(entries)) {
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
      case .memoFile(let base, let kind):
        let key = ExactName(text: base)
        let index: Int
        if let known = groups[key] {
          index = known
        } else {
          index = bases.count
          groups[key] = index
          bases.append(Candidate(base: base))
        }
        bases[index][kind] = Slot(name: entry.name!, kind: entry.kind)
      }
    }
    for (entry, intended, reason) in nearMisses {
      // The intended name is an exact memo name, so it is present exactly when its group has it.
      let exists: Bool
      if case .memoFile(let base, let kind) = FolderName.classify(intended),
        let index = groups[ExactName(text: base)]
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
    for var group in bases {
      if let slot = group.parts, !slot.kind.isFolder {
        // Only a folder can hold parts; a file of that name is a stranger.
        group.parts = nil
        others.append(
          FolderEntry(
            name: PathText.escaped(slot.name), bytes: Array(slot.name.utf8), kind: slot.kind,
            role: .unrecognised(reason: "named like a parts folder, but it is \(slot.kind.words)")))
      }
      if group.audio != nil || group.parts != nil {
        candidates.append(group)
        continue
      }
      for (kind, slot) in group.filled {
        others.append(
          FolderEntry(
            name: PathText.escaped(slot.name), bytes: Array(slot.name.utf8), kind: slot.kind,
            role: .orphan(base: group.base, kind: kind)))
      }
    }
    others.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    collisions = Self.collisions(bases.map(\.base))
  }

  /// Every entry's name classified, on both cores (it is most of the grouping's work), in order.
  static func classified(_ entries: [DirectoryEntry]) -> [FolderName] {
    Parallel.map(entries.count, chunk: 1024) { FolderName.classify(entries[$0].name) }
  }

  /// Bases equal after lowercasing under Swift's canonical-equivalence comparison, more than one apart.
  static func collisions(_ bases: [String]) -> [NameCollision] {
    // Each base's folded form to the first base with it; a group is made only on a second one,
    // so a folder without collisions (nearly all) allocates nothing per base.
    var first: [String: Int] = [:]
    first.reserveCapacity(bases.count)
    var groups: [Int: [String]] = [:]
    for (index, base) in bases.enumerated() {
      let key = base.lowercased()
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
