import StashFormat

/// Adds and removes a memo's bookmarks, `<base>_bookmarks.vtt` (FORMAT.md §8). Each change is
/// made under the folder's lock and written atomically (`AtomicFile`); a file stash did not write,
/// or one it cannot read whole, is never replaced: the change fails with `foreign` and says so.
public enum MemoBookmarks {
  /// Adds `bookmark` (its note made one line, its moment rounded to the millisecond) and returns
  /// it as written. `audioLength` (seconds), when known, bounds the moment and ends the last cue.
  @discardableResult
  public static func add(
    _ bookmark: Bookmark, base: String, in folder: String, audioLength: Double?,
    fileSystem: some FileSystem = SystemFileSystem()
  ) throws -> Bookmark {
    var added = bookmark
    added.at = Bookmarks.rounded(bookmark.at)
    added.note = MemoTitle.normalized(bookmark.note)
    guard added.at.isFinite, added.at >= 0 else {
      throw RecoverError(code: .outOfRange, message: "a bookmark's moment is a time from the audio's start")
    }
    if let audioLength, audioLength.isFinite, added.at >= audioLength {
      throw RecoverError(
        code: .outOfRange,
        message:
          "\(TimeText.preciseClock(added.at)) is not within the audio, which is \(TimeText.preciseClock(audioLength)) long",
        path: folder + "/" + MemoFileKind.audio.name(for: base))
    }
    try change(base: base, in: folder, audioLength: audioLength, fileSystem: fileSystem) { bookmarks, path in
      guard bookmarks.add(added) else {
        throw RecoverError(
          code: .duplicate, message: "a bookmark is at \(TimeText.preciseClock(added.at)) already", path: path
        )
      }
    }
    return added
  }

  /// Removes the bookmark nearest `time` within half a second (`Bookmarks.reach`) and returns it;
  /// throws `notFound` when none is. The file is removed with the last bookmark.
  @discardableResult
  public static func remove(
    near time: Double, base: String, in folder: String, audioLength: Double?,
    fileSystem: some FileSystem = SystemFileSystem()
  ) throws -> Bookmark {
    var removed: Bookmark?
    try change(base: base, in: folder, audioLength: audioLength, fileSystem: fileSystem) { bookmarks, path in
      removed = bookmarks.remove(near: time)
      if removed == nil { throw noBookmark(near: time, path: path) }
    }
    return removed!
  }

  /// Gives the bookmark nearest `time` within half a second (`Bookmarks.reach`) the note `note`
  /// (made one line; empty removes it) and returns it as written; throws `notFound` when none is.
  @discardableResult
  public static func annotate(
    near time: Double, note: String, base: String, in folder: String, audioLength: Double?,
    fileSystem: some FileSystem = SystemFileSystem()
  ) throws -> Bookmark {
    var changed: Bookmark?
    try change(base: base, in: folder, audioLength: audioLength, fileSystem: fileSystem) { bookmarks, path in
      changed = bookmarks.annotate(near: time, note: MemoTitle.normalized(note))
      if changed == nil { throw noBookmark(near: time, path: path) }
    }
    return changed!
  }

  /// The error of a change that found no bookmark within reach of `time`.
  private static func noBookmark(near time: Double, path: String) -> RecoverError {
    RecoverError(
      code: .notFound, message: "no bookmark within half a second of \(TimeText.preciseClock(time))",
      path: path)
  }

  /// Writes the bookmarks again as stash writes them: in time order, each cue chained to the next
  /// and the last to the audio's end (what `stash lint --fix` does). Returns whether the file changed.
  @discardableResult
  public static func rechain(
    base: String, in folder: String, audioLength: Double?, fileSystem: some FileSystem = SystemFileSystem()
  ) throws -> Bool {
    var changed = false
    try change(base: base, in: folder, audioLength: audioLength, fileSystem: fileSystem, always: false) {
      bookmarks, _ in changed = bookmarks.needsRechaining
    }
    return changed
  }

  /// Reads the memo's bookmarks under the lock, lets `body` change them, and writes them back
  /// (removing the file when none is left). `always` false writes only when the file is not as
  /// stash writes it.
  private static func change(
    base: String, in folder: String, audioLength: Double?, fileSystem: some FileSystem, always: Bool = true,
    _ body: (inout Bookmarks, String) throws -> Void
  ) throws {
    try MemoBase.validate(base)
    let lock = try FolderLock.acquire(folder, wait: true, fileSystem: fileSystem)
    defer { lock.release() }
    let name = MemoFileKind.bookmarks.name(for: base)
    let path = folder + "/" + name
    if try fileSystem.status(folder + "/" + MemoFileKind.audio.name(for: base)) == nil {
      throw RecoverError(
        code: .notFound, message: "no memo has this name here (its audio is gone)", path: folder + "/" + base)
    }
    let status = try fileSystem.status(path)
    var bookmarks = Bookmarks()
    if let status {
      guard status.kind == .regular || status.kind == .symbolicLink else {
        throw RecoverError(code: .notAFile, message: "this is not a file; it is left as it is", path: path)
      }
      let bytes = try fileSystem.read(path, limit: Bookmarks.maximumBytes)
      bookmarks = Bookmarks.parse(bytes, audioLength: audioLength)
      if !bookmarks.writtenByStash {
        throw RecoverError(
          code: .foreign,
          message:
            "stash did not write this file (its first line is not `WEBVTT \(Bookmarks.header)`); it is left as it is",
          path: path)
      }
      if let broken = bookmarks.problems.first(where: { $0.code == .bookmarksBroken }) {
        let line = broken.location.line.map { "line \($0): " } ?? ""
        throw RecoverError(
          code: .foreign,
          message: "\(line)\(broken.message); the file is left as it is (`stash lint` says what is wrong)",
          path: path)
      }
    }
    let before = bookmarks
    try body(&bookmarks, path)
    guard always || before.needsRechaining else { return }
    if bookmarks.items.isEmpty {
      guard status != nil else { return }
      try fileSystem.unlink(path)
      try fileSystem.syncDirectory(folder)
      return
    }
    try AtomicFile.write(
      bookmarks.bytes(audioLength: audioLength), named: name, in: folder,
      mode: status == nil ? .createNew : .replace, fileSystem: fileSystem)
  }
}
