import StashFormat

/// One memo as a folder holds it, read through the seam: its files' `lstat(2)`s by kind and the
/// entries of its parts folder. Two readings of a memo are equal when nothing about it changed.
package struct MemoSet: Sendable, Equatable {
  /// The memo's base name.
  package var base: String
  /// Its audio, transcript, route, title and bookmarks, those present.
  package var files: [MemoFileKind: FileStatus] = [:]
  /// Its parts folder, when it has one.
  package var partsFolder: FileStatus?
  /// Stash's parts in the parts folder (regular files with a part's name), by name.
  package var parts: [String: FileStatus] = [:]
  /// Every other name in the parts folder: a stranger's, never copied or removed.
  package var strangers: [String] = []
  /// A recording from Apple's Voice Memos brought in as this memo, or nil for a memo the folder
  /// holds by the format's names. Its audio's status is in `files`, as are those of the files
  /// made from it (`VoiceMemoAdoption`).
  package var voiceMemo: VoiceMemoSource?

  /// The name on the source of `name` (a name relative to the folder, as in `names`): itself,
  /// except for a Voice Memos recording's audio.
  package func sourceName(_ name: String) -> String {
    guard let voiceMemo, name == MemoFileKind.audio.name(for: base) else { return name }
    return voiceMemo.name
  }

  /// The bytes of `name` when it is made on import rather than copied (a Voice Memos recording's
  /// transcript and title), else nil.
  package func madeBytes(_ name: String) -> [UInt8]? {
    guard let voiceMemo else { return nil }
    for (kind, bytes) in voiceMemo.made where kind.name(for: base) == name { return bytes }
    return nil
  }

  /// The parts folder's name.
  package var partsName: String { base + MemoFileKind.parts.suffix }

  /// Every name to copy, relative to the folder, with its status: the parts first, the audio
  /// last, so that in the target a memo is only a memo (it has its audio) once all else is there.
  /// A route being withdrawn (the marker is there) is none of these: not its parts, not its
  /// marker, not its finished route, since location was turned off and the route is not to travel.
  package var names: [(name: String, kind: MemoFileKind, status: FileStatus)] {
    let withdrawn = routeWithdrawn
    var out = parts.keys.sorted().filter { name in
      switch PartName(name) {
      case .route?, .withdrawn?: !withdrawn
      default: true
      }
    }.map { (partsName + "/" + $0, MemoFileKind.parts, parts[$0]!) }
    for kind in [MemoFileKind.title, .bookmarks, .transcript, .route, .audio]
    where !(withdrawn && kind == .route) {
      if let status = files[kind] { out.append((kind.name(for: base), kind, status)) }
    }
    return out
  }

  /// The status of each of `names`, by name.
  package var statuses: [String: FileStatus] {
    Dictionary(names.map { ($0.name, $0.status) }, uniquingKeysWith: { first, _ in first })
  }

  /// Whether its parts folder holds `track.withdrawn`: a route withdrawal the phone has not finished.
  package var routeWithdrawn: Bool { parts[PartName.withdrawn.fileName] != nil }

  /// The latest modification time of anything of the memo's, the parts folder included (a part
  /// created or renamed changes it).
  package var newestChange: Double {
    (files.values.map(\.modificationTime) + parts.values.map(\.modificationTime)
      + [partsFolder?.modificationTime ?? 0]).max() ?? 0
  }

  /// Why this memo cannot be imported as it stands on the source, or nil.
  package var incompleteBecause: String? {
    for (kind, status) in files.sorted(by: { $0.key < $1.key }) where status.kind != .regular {
      return "\(kind.name(for: base)) is not a regular file (\(Self.words(status.kind))): it is not copied"
    }
    if let partsFolder, partsFolder.kind != .directory {
      return "\(partsName) is not a folder Stash wrote (\(Self.words(partsFolder.kind)))"
    }
    if files[.audio] == nil {
      return "it has no audio on the source (\(MemoFileKind.audio.name(for: base)) is missing: moved, "
        + "deleted, or not copied there yet); it is imported once its audio is there"
    }
    return nil
  }

  static func words(_ kind: FileStatus.Kind) -> String {
    switch kind {
    case .regular: "a file"
    case .directory: "a folder"
    case .symbolicLink: "a symbolic link"
    case .other: "a FIFO, socket or device"
    }
  }
}

/// A memo folder as an import sees it: its memos, the names that belong to none, and the leftover
/// temporary files of an interrupted write, read once through the seam.
package struct MemoFolderListing: Sendable {
  /// Every base with audio or a parts folder.
  package var memos: [String: MemoSet] = [:]
  /// Names that are no memo's, with why (orphans, near misses, strangers).
  package var others: [(name: String, reason: String)] = []
  /// Leftover temporary files (`.<name>.stash-tmp-XXXXXX`), in the folder and its parts folders,
  /// relative to the folder.
  package var temporaries: [String] = []
  /// Names Stash does not write that end as Apple's Voice Memos recordings do (`.m4a`, `.qta`):
  /// an import looks inside them (`VoiceMemoAdoption`) before it calls them others.
  package var voiceMemoCandidates: [String] = []

  /// Reads `folder`. With `only`, reads just those bases' memos, and reports no other name. With
  /// `orphans`, a base with only a transcript, route or title is read as a memo too (a target's
  /// half of a memo, which a source's memo is compared with).
  package static func read(
    _ folder: String, only: Set<String>? = nil, orphans: Bool = false, fileSystem fs: some FileSystem
  ) throws -> MemoFolderListing {
    var listing = MemoFolderListing()
    let names = try fs.list(folder)
    var byBase: [String: [(String, MemoFileKind)]] = [:]
    for name in names {
      switch FolderName.classify(name) {
      case .memoFile(let base, let kind):
        byBase[base, default: []].append((name, kind))
      case .hidden:
        if let final = TemporaryName.finalName(of: name),
          case .memoFile(_, let kind) = FolderName.classify(final),
          kind != .parts, try fs.status(folder + "/" + name)?.kind == .regular
        {
          listing.temporaries.append(name)
        }
      case .nearMiss(let intended, _, _, let reason):
        if only == nil { listing.others.append((name, "a near miss of \(intended): \(reason)")) }
      case .unrecognised:
        if only == nil {
          if VoiceMemoName.hasVoiceMemoExtension(name) {
            listing.voiceMemoCandidates.append(name)
          } else {
            listing.others.append((name, "not a name Stash writes"))
          }
        }
      }
    }
    for (base, entries) in byBase {
      if let only, !only.contains(base) { continue }
      let kinds = Set(entries.map(\.1))
      guard kinds.contains(.audio) || kinds.contains(.parts) || orphans else {
        for (name, _) in entries {
          listing.others.append((name, "an orphan: no audio or parts folder shares its base"))
        }
        continue
      }
      var memo = MemoSet(base: base)
      for (name, kind) in entries {
        guard let status = try fs.status(folder + "/" + name) else { continue }
        if kind == .parts { memo.partsFolder = status } else { memo.files[kind] = status }
      }
      if memo.partsFolder?.kind == .directory {
        let partsPath = folder + "/" + memo.partsName
        for name in try fs.list(partsPath) {
          guard let status = try fs.status(partsPath + "/" + name) else { continue }
          if status.kind == .regular, PartName(name) != nil {
            memo.parts[name] = status
          } else if status.kind == .regular, let final = TemporaryName.finalName(of: name),
            PartName(final) != nil
          {
            listing.temporaries.append(memo.partsName + "/" + name)
          } else {
            memo.strangers.append(name)
          }
        }
      }
      listing.memos[base] = memo
    }
    listing.others.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    return listing
  }
}
