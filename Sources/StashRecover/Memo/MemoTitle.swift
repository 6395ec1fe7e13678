import StashFormat

/// Sets or clears a memo's title, `<base>_title.txt`.
public enum MemoTitle {
  /// Writes `title` as the memo's title, atomically; an empty title (after trimming) removes the
  /// file, and the memo reads as its recording date again. Line breaks and control characters become
  /// spaces, since a title is one line. The title file is replaced as a name: a symbolic link there
  /// is replaced, never written through.
  public static func set(
    _ title: String, base: String, in folder: String, fileSystem: some FileSystem = SystemFileSystem()
  ) throws {
    try MemoBase.validate(base)
    let text = normalized(title)
    let lock = try FolderLock.acquire(folder, wait: true, fileSystem: fileSystem)
    defer { lock.release() }
    let name = MemoFileKind.title.name(for: base)
    // A title beside no audio would be a file of no memo (lint's orphan): the memo's audio may have
    // gone since it was listed. Removing a title is always allowed.
    if !text.isEmpty, try fileSystem.status(folder + "/" + MemoFileKind.audio.name(for: base)) == nil {
      throw RecoverError(
        code: .notFound, message: "no memo has this name here (its audio is gone)", path: folder + "/" + base)
    }
    if text.isEmpty {
      guard try fileSystem.status(folder + "/" + name) != nil else { return }
      try fileSystem.unlink(folder + "/" + name)
      try fileSystem.syncDirectory(folder)
    } else {
      try AtomicFile.write(Array(text.utf8), named: name, in: folder, mode: .replace, fileSystem: fileSystem)
    }
  }

  /// The title as it is stored: one line, no leading or trailing white space.
  public static func normalized(_ title: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in title.unicodeScalars {
      let isControl =
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
        || scalar == "\u{2028}" || scalar == "\u{2029}"
      scalars.append(isControl ? " " : scalar)
    }
    return Text.trimmed(String(scalars))
  }
}
