import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// The freedesktop.org home Trash (`$XDG_DATA_HOME/Trash`, by default `~/.local/share/Trash`): a
/// file moved there gets a `.trashinfo` beside it so a file manager can put it back. Only a file on
/// the same file system as the Trash can go there; anything else is refused, so the caller can ask
/// whether to delete permanently instead of stash copying a memo across disks.
public struct Trash: Sendable {
  /// The Trash folder, holding `files/` and `info/`.
  public var directory: String

  /// A Trash at `directory` (tests use a scratch folder).
  public init(directory: String) {
    self.directory = directory
  }

  /// The user's home Trash from `XDG_DATA_HOME` or `HOME`, or nil when neither is set.
  public static func home(environment: [String: String]) -> Trash? {
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return Trash(directory: data + "/Trash")
    }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return Trash(directory: home + "/.local/share/Trash")
  }

  /// Makes the Trash, `files/` and `info/` where missing, and the folders above the Trash that are
  /// missing too (a new account may have no `~/.local/share` yet; the XDG base directory
  /// specification has a program make it, private to the user), each made folder fsynced into its
  /// parent so that a power cut cannot take a folder away with the files later moved into it, and
  /// checks the Trash shares `folder`'s file system.
  func prepare(for folder: String, fileSystem fs: some FileSystem) throws {
    var parentsToSync: [String] = []
    var missingAbove: [String] = []
    var above = Self.parent(of: directory)
    while above != "/" && above != "." {
      guard try fs.status(above) == nil else { break }
      missingAbove.insert(above, at: 0)
      above = Self.parent(of: above)
    }
    for path in missingAbove + [directory, directory + "/files", directory + "/info"] {
      switch try fs.status(path)?.kind {
      case .directory: continue
      case nil:
        try fs.makeDirectory(path)
        let parent = Self.parent(of: path)
        if parentsToSync.last != parent { parentsToSync.append(parent) }
      default:
        throw RecoverError(code: .trashUnavailable, message: "the Trash is not a folder here", path: path)
      }
    }
    for parent in parentsToSync { try fs.syncDirectory(parent) }
    guard let trash = try fs.status(directory + "/files"), let memo = try fs.status(folder),
      trash.device == memo.device
    else {
      throw RecoverError(
        code: .trashUnavailable,
        message:
          "the Trash (\(directory)) is on another file system than the memo; delete permanently instead",
        path: folder)
    }
  }

  /// Moves `name` in `folder` to the Trash: claims a free name by creating its `.trashinfo` (with
  /// `O_EXCL`), then renames the file there, never over anything. `absoluteFolder` is what the
  /// `.trashinfo` records as where it came from. The `.trashinfo` and its entry in `info/` are
  /// fsynced before the file moves, as the Trash specification orders it, so a power cut can leave
  /// an info file without its file (which file managers ignore) but never a file without its info.
  func move(
    _ name: String, in folder: String, absoluteFolder: String, date: Double, fileSystem fs: some FileSystem
  ) throws {
    var attempt = 1
    while true {
      let trashName = attempt == 1 ? name : "\(name).\(attempt)"
      attempt += 1
      let info = directory + "/info/" + trashName + ".trashinfo"
      let descriptor: Int32
      do {
        descriptor = try fs.createExclusive(info)
      } catch {
        guard error.number == EEXIST, attempt < 10_000 else { throw error }
        continue
      }
      let text =
        "[Trash Info]\nPath=\(Self.percentEncoded(absoluteFolder + "/" + name))\n"
        + "DeletionDate=\(RecordingDate.localSecond(date))\n"
      do {
        try AtomicFile.finish(descriptor, writing: Array(text.utf8), as: info, fileSystem: fs)
        try fs.syncDirectory(directory + "/info")
        try fs.renameNoReplace(folder + "/" + name, directory + "/files/" + trashName)
      } catch let error as RecoverError where error.number == EEXIST {
        // A file without its info already holds this name in files/: try the next name.
        try? fs.unlink(info)
        continue
      } catch {
        try? fs.unlink(info)
        throw error
      }
      try fs.syncDirectory(directory + "/files")
      return
    }
  }

  /// The folder holding `path` (`/` for a name at the root).
  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// A path escaped as the Trash specification asks (as in a URI): bytes outside the unreserved
  /// set and `/` become `%XX`.
  public static func percentEncoded(_ path: String) -> String {
    let keep = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~!*'()/".utf8)
    var out = ""
    for byte in path.utf8 {
      if keep.contains(byte) {
        out.unicodeScalars.append(UnicodeScalar(byte))
      } else {
        out += "%" + Text.zeroPadded(String(byte, radix: 16, uppercase: true), width: 2)
      }
    }
    return out
  }

}
