import StashFormat

/// What a sweep sees of a memo folder before it plans: the names that matter to recovery and their
/// `lstat(2)`s, read once. Building it reads the folder and nothing else.
public struct FolderSnapshot: Sendable, Equatable {
  /// One entry of a parts folder.
  public struct Entry: Sendable, Equatable {
    /// The name inside the parts folder (escaped when not UTF-8).
    public var name: String
    /// Stash's name, or nil for a stranger's file.
    public var part: PartName?
    /// What the name is.
    public var status: FileStatus
  }

  /// One `<base>` that has a parts folder, or audio the sweep may repair.
  public struct Capture: Sendable, Equatable {
    /// The memo's base name.
    public var base: String
    /// The parts folder's status, or nil when the capture has none.
    public var partsFolder: FileStatus?
    /// The parts folder's entries, when it is a folder.
    public var entries: [Entry]
    /// The memo's files that exist beside it, by kind.
    public var files: [MemoFileKind: FileStatus]
    /// Why the parts folder, or one of the memo's files, could not be read (an I/O error, a
    /// permission), with its path; or nil.
    public var problem: String?
    /// The name, relative to the folder swept, of what could not be read, with `problem`.
    public var problemName: String?
    /// The recording date (the base's, else the audio's creation time), read only for a capture
    /// that changed within the recent window, to tell a copy from a recording still running.
    public var recordedAt: Double? = nil
    /// The audio's playable length in seconds, read with `recordedAt`; nil when unreadable.
    public var audioSeconds: Double? = nil

    /// The latest modification time of the audio and of every entry of the parts folder.
    public var newestChange: Double {
      (entries.map(\.status.modificationTime) + [files[.audio]?.modificationTime ?? 0]).max() ?? 0
    }

    /// Reads `recordedAt` and `audioSeconds` (the audio's summary through StashFormat's MP4 reader,
    /// which reads boxes only and changes nothing) for the capture in `folder`.
    public mutating func readRecordingTimes(in folder: String) {
      let audio =
        files[.audio]?.kind == .regular
        ? AudioSummary.read(path: folder + "/" + base + MemoFileKind.audio.suffix) : nil
      audioSeconds = audio?.durationSeconds
      if let date = RecordingDate.parse(base: base) {
        recordedAt = date
      } else if let created = audio?.creationTime, RecordingDate.isPlausible(created) {
        recordedAt = created
      }
    }
  }

  /// The folder swept.
  public var folder: String
  /// Every capture with a parts folder, or with audio when audio is considered, sorted by base.
  public var captures: [Capture]
  /// Hidden temporary files a killed write left (`.<name>.stash-tmp-XXXXXX`), regular files only:
  /// beside the memos (for a memo's file) and in parts folders (for a part), relative to `folder`.
  public var temporaries: [String]

  /// Reads `folder`. With `includeAllAudio`, every memo with audio is a capture (for repair);
  /// otherwise only bases with a parts folder are.
  public static func read(
    _ folder: String, includeAllAudio: Bool = false, fileSystem fs: some FileSystem
  ) throws -> FolderSnapshot {
    let names = try fs.list(folder)
    var bases = Set<String>()
    var temporaries: [String] = []
    for name in names {
      // The folder reader's rule decides what is a memo's name: a sweep never touches a name it would
      // call a near miss (blanks around the base) or hidden.
      if case .memoFile(let base, let kind) = FolderName.classify(name) {
        if kind == .parts || (includeAllAudio && kind == .audio) { bases.insert(base) }
      } else if let final = TemporaryName.finalName(of: name),
        case .memoFile(_, let kind) = FolderName.classify(final), kind != .parts,
        // One that cannot be looked at is left where it is.
        (try? fs.status(PathText.join(folder, name)))??.kind == .regular
      {
        temporaries.append(name)
      }
    }
    let present = Set(names)
    var captures: [Capture] = []
    for base in bases.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      var capture = Capture(
        base: base, partsFolder: nil, entries: [], files: [:], problem: nil, problemName: nil)
      let partsPath = PathText.join(folder, MemoFileKind.parts.name(for: base))
      // One name that cannot be read (an I/O error, a permission) stops its own capture, not the
      // sweep.
      do {
        if present.contains(base + MemoFileKind.parts.suffix) {
          capture.partsFolder = try fs.status(partsPath)
        }
        if capture.partsFolder?.kind == .directory {
          let prefix = partsPath + "/"
          for name in try fs.list(partsPath) {
            guard let status = try fs.status(prefix + name) else { continue }
            // What a killed write of a part left (an import's, §7.3) is a leftover, not a stranger's.
            if status.kind == .regular, let final = TemporaryName.finalName(of: name), PartName(final) != nil
            {
              temporaries.append(MemoFileKind.parts.name(for: base) + "/" + name)
              continue
            }
            // A part that is not a regular file (a link, a FIFO) is not one the phone wrote.
            let part = status.kind == .regular ? PartName(name) : nil
            capture.entries.append(Entry(name: name, part: part, status: status))
          }
        }
        for kind in MemoFileKind.allCases where kind != .parts && present.contains(kind.name(for: base)) {
          if let status = try fs.status(PathText.join(folder, kind.name(for: base))) {
            capture.files[kind] = status
          }
        }
      } catch {
        guard error.code == .io else { throw error }
        capture.entries = []
        capture.problem = error.description
        capture.problemName = error.name(in: folder)
      }
      captures.append(capture)
    }
    return FolderSnapshot(folder: folder, captures: captures, temporaries: temporaries)
  }
}
