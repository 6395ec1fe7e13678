#if canImport(Glibc)
  import Glibc
#endif

/// The memo folder a person names (on the command line, or to the browser), resolved once. The
/// writers here never follow a symbolic link (they lock and fsync a folder with `O_NOFOLLOW`), so a
/// command follows the links in the name it was given, through this, and hands the writers the
/// folder itself; nothing inside that folder is ever followed.
public enum MemoFolderPath {
  /// `realpath(3)`: `path` made absolute with every symbolic link and `.`/`..` resolved. Throws
  /// `RecoverError` (code `io`, with `errno`) when a part of it is missing or cannot be searched.
  public static func resolve(_ path: String) throws(RecoverError) -> String {
    guard let resolved = realpath(path, nil) else {
      throw RecoverError.io(errno, doing: "find the folder", path: path)
    }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
