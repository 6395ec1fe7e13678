/// The names of a folder sorted into memo candidates (by base) and everything else, from names and
/// `d_type` alone: nothing is opened here.
struct FolderGrouping {
  /// The files of one base that has audio or a parts folder.
  struct Candidate: Sendable {
    var base: String
    var files: [MemoFileKind: String] = [:]
    var kinds: [MemoFileKind: DirectoryEntry.Kind] = [:]
  }

  var candidates: [Candidate] = []
  var others: [FolderEntry] = []
  var collisions: [NameCollision] = []

  init(_ entries: [DirectoryEntry]) {
    // Keyed by bytes: String equality is canonical equivalence, which would merge NFC and NFD bases
    // that are two different names on this file system.
    var groups: [[UInt8]: Int] = [:]
    var bases: [Candidate] = []
    var nearMisses: [(DirectoryEntry, String, String)] = []
    for entry in entries {
      switch FolderName.classify(entry.name) {
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
        let key = Array(base.utf8)
        let index: Int
        if let known = groups[key] {
          index = known
        } else {
          index = bases.count
          groups[key] = index
          bases.append(Candidate(base: base))
        }
        bases[index].files[kind] = entry.name!
        bases[index].kinds[kind] = entry.kind
      }
    }
    for (entry, intended, reason) in nearMisses {
      // The intended name is an exact memo name, so it is present exactly when its group has it.
      let exists: Bool
      if case .memoFile(let base, let kind) = FolderName.classify(intended),
        let index = groups[Array(base.utf8)]
      {
        exists = bases[index].files[kind] != nil
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
      if let name = group.files[.parts], let kind = group.kinds[.parts], !kind.isFolder {
        // Only a folder can hold parts; a file of that name is a stranger.
        group.files[.parts] = nil
        others.append(
          FolderEntry(
            name: PathText.escaped(name), bytes: Array(name.utf8), kind: kind,
            role: .unrecognised(reason: "named like a parts folder, but it is \(kind.words)")))
      }
      if group.files[.audio] != nil || group.files[.parts] != nil {
        candidates.append(group)
        continue
      }
      for (kind, name) in group.files {
        others.append(
          FolderEntry(
            name: PathText.escaped(name), bytes: Array(name.utf8), kind: group.kinds[kind]!,
            role: .orphan(base: group.base, kind: kind)))
      }
    }
    others.sort { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    collisions = Self.collisions(bases.map(\.base))
  }

  /// Bases equal after lowercasing under Swift's canonical-equivalence comparison, more than one apart.
  static func collisions(_ bases: [String]) -> [NameCollision] {
    var folded: [String: [String]] = [:]
    for base in bases { folded[base.lowercased(), default: []].append(base) }
    return folded.values.filter { $0.count > 1 }
      .map { group in
        NameCollision(
          bases: group.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map(PathText.escaped))
      }
      .sorted { $0.bases[0].utf8.lexicographicallyPrecedes($1.bases[0].utf8) }
  }
}
