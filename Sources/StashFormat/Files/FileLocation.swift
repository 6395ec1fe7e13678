#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A folder held open so that the files in it are opened by their names (`openat(2)`):
/// a listing opens up to four files per memo, and walking the folder's path again for each one
/// was a large part of its system time. Closed when the last reference goes.
package final class OpenFolder: @unchecked Sendable {
  /// The folder's path as given.
  package let path: String
  /// The descriptor, or nil when the folder could not be opened (its files are then opened by
  /// path, and say for themselves why they cannot be read).
  let descriptor: Int32?

  /// Opens the folder at `path`; never fails (see `descriptor`).
  package init(path: String) {
    self.path = path
    let fd = SystemCall.retrying { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    descriptor = fd >= 0 ? fd : nil
  }

  deinit { if let descriptor { close(descriptor) } }

  /// `fstatat(2)` of the file `name` in this folder, following a symbolic link (`stat(2)` of its
  /// path when the folder could not be held open); nil when it cannot be stat'ed.
  package func status(of name: String) -> stat? {
    var info = stat()
    let result =
      descriptor.map { fstatat($0, name, &info, 0) } ?? stat(PathText.join(path, name), &info)
    return result == 0 ? info : nil
  }

  /// The file `name` in this folder.
  package func file(_ name: String) -> FileLocation {
    descriptor == nil
      ? FileLocation(path: PathText.join(path, name)) : FileLocation(path: nil, folder: self, name: name)
  }
}

/// Where a file is: its path (what messages name), and, when its folder is held open, its name in
/// that folder, by which it is opened.
package struct FileLocation: Sendable {
  /// The path as messages give it: for a file in an open folder, made only when it is asked for,
  /// since a listing opens most files without ever naming them.
  package var path: String { givenPath ?? PathText.join(folder!.path, name) }
  /// The path as given, for a file opened by path.
  private let givenPath: String?
  /// The open folder the file is in, when it is opened by `name`.
  let folder: OpenFolder?
  /// The name in `folder`.
  let name: String

  /// A file opened by its path.
  package init(path: String) {
    self.init(path: path, folder: nil, name: path)
  }

  fileprivate init(path: String?, folder: OpenFolder?, name: String) {
    self.givenPath = path
    self.folder = folder
    self.name = name
  }

  /// Calls `body` with the directory descriptor and the path relative to it (`AT_FDCWD` and the
  /// path for a file opened by path), keeping the folder open meanwhile.
  func withRelativePath<T>(_ body: (Int32, String) -> T) -> T {
    guard let folder, let descriptor = folder.descriptor else { return body(AT_FDCWD, path) }
    return withExtendedLifetime(folder) { body(descriptor, name) }
  }
}
