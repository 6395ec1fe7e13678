import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// Deletes a memo: its audio, transcript, track, title, bookmarks and the parts Stash wrote, then
/// the parts folder once empty. Nothing is deleted when the parts folder holds anything Stash did
/// not write; the error (code `strangers`) lists those files so a person can move them out and
/// delete again.
public enum MemoDeletion {
  /// Where the files go.
  public enum Disposal: Sendable {
    /// Into the freedesktop.org Trash, restorable from a file manager.
    case trash(Trash)
    /// Removed for good.
    case permanent
  }

  /// What one deletion removed, by name relative to the memo folder.
  public struct Outcome: Sendable, Equatable {
    /// The names removed or moved to the Trash, in the order it was done.
    public var removed: [String]
  }

  /// Deletes memo `base` in `folder`. A name that is a symbolic link is removed as a link (or moved
  /// to the Trash as one); what it points to is never touched. The audio goes last, so a deletion
  /// cut short leaves a memo that is still listed and can be deleted again.
  public static func delete(
    base: String, in folder: String, disposal: Disposal, now: Double = Double(time(nil)),
    fileSystem fs: some FileSystem = SystemFileSystem()
  ) throws -> Outcome {
    try MemoBase.validate(base)
    let lock = try FolderLock.acquire(folder, wait: true, fileSystem: fs)
    defer { lock.release() }

    let partsName = base + MemoFileKind.parts.suffix
    let partsPath = folder + "/" + partsName
    var parts: [String] = []
    var partsFolderExists = false
    if let status = try fs.status(partsPath) {
      guard status.kind == .directory else {
        throw RecoverError(
          code: .strangers,
          message: "'\(partsName)' is not a folder Stash wrote; move it out and delete again",
          path: partsPath, files: [partsName])
      }
      partsFolderExists = true
      var strangers: [String] = []
      for name in try fs.list(partsPath) {
        if PartName(name) != nil, try fs.status(partsPath + "/" + name)?.kind == .regular {
          parts.append(name)
        } else {
          strangers.append(name)
        }
      }
      guard strangers.isEmpty else {
        throw RecoverError(
          code: .strangers,
          message: "the parts folder holds files Stash did not write (\(strangers.joined(separator: ", "))): "
            + "move them out and delete again; nothing was deleted",
          path: partsPath, files: strangers.map { partsName + "/" + $0 })
      }
    }
    let files = [MemoFileKind.title, .bookmarks, .route, .transcript].map { $0.name(for: base) }
    var present: [String] = []
    var folders: [String] = []
    for name in files {
      guard let status = try fs.status(folder + "/" + name) else { continue }
      if status.kind == .directory { folders.append(name) }
      present.append(name)
    }
    let audio = MemoFileKind.audio.name(for: base)
    let audioStatus = try fs.status(folder + "/" + audio)
    let audioPresent = audioStatus != nil
    if audioStatus?.kind == .directory { folders.append(audio) }
    // A memo file's name on a folder: what it holds is no file of the format, and to the Trash it
    // would go unnamed (permanently it cannot go at all). Nothing is deleted.
    guard folders.isEmpty else {
      throw RecoverError(
        code: .notAFile,
        message: "\(folders.joined(separator: ", ")) \(folders.count == 1 ? "is a folder" : "are folders"), "
          + "not a file Stash writes: move \(folders.count == 1 ? "it" : "them") out, then delete again",
        path: folder + "/" + folders[0], files: folders)
    }
    guard !present.isEmpty || partsFolderExists || audioPresent else {
      throw RecoverError(code: .notFound, message: "no memo has this name here", path: folder + "/" + base)
    }

    var removed: [String] = []
    switch disposal {
    case .permanent:
      for name in present {
        try fs.unlink(folder + "/" + name)
        removed.append(name)
      }
      if partsFolderExists {
        for name in parts {
          try fs.unlink(partsPath + "/" + name)
          removed.append(partsName + "/" + name)
        }
        try fs.removeDirectory(partsPath)
        removed.append(partsName)
      }
      if audioPresent {
        try fs.unlink(folder + "/" + audio)
        removed.append(audio)
      }
    case .trash(let trash):
      try trash.prepare(for: folder, fileSystem: fs)
      let absolute = absolutePath(folder)
      // The parts folder goes whole: it holds only Stash's parts (checked above), and a file
      // manager can then restore it in one piece.
      for name in present + (partsFolderExists ? [partsName] : []) + (audioPresent ? [audio] : []) {
        try trash.move(name, in: folder, absoluteFolder: absolute, date: now, fileSystem: fs)
        removed.append(name)
      }
    }
    try fs.syncDirectory(folder)
    return Outcome(removed: removed)
  }

  /// The folder's real path, for the `.trashinfo`; the path as given when that fails.
  static func absolutePath(_ folder: String) -> String {
    (try? MemoFolderPath.resolve(folder)) ?? folder
  }
}
