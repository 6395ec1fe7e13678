import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A folder of one test's own under the system's temporary folder: made new by `mkdtemp` (so no
/// other test, and no earlier run, can have put anything in it), and removed by `remove()`, which
/// the test calls from a `defer` so that it runs whether the test passed, failed or threw.
///
///     let folder = try ScratchFolder("stash-sweep")
///     defer { folder.remove() }
///
/// `remove()` takes away only what lies inside this folder: links are removed, never followed,
/// and it does not go into another file system mounted inside (a test's leftover mount stays,
/// and so does the folder around it). It never throws: what it could not remove is left.
public struct ScratchFolder: Sendable {
  /// The folder.
  public let url: URL
  public var path: String { url.path }

  /// Makes `<temporary folder>/<label>-XXXXXX`, mode 0755 as a folder made with the usual umask
  /// (a test may run a program as another user in it).
  public init(_ label: String = "stash-test") throws {
    let pattern = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-XXXXXX").path
    var template = Array(pattern.utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: pattern])
    }
    chmod(made, 0o755)
    url = URL(fileURLWithPath: String(cString: made), isDirectory: true)
  }

  /// `name` (a relative path) inside the folder.
  public func appendingPathComponent(_ name: String) -> URL { url.appendingPathComponent(name) }

  /// Removes the folder and what is in it, depth first, without following links or leaving the
  /// folder's file system.
  public func remove() {
    let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard folder >= 0 else { return }
    var info = stat()
    guard fstat(folder, &info) == 0 else {
      close(folder)
      return
    }
    Self.empty(folder, device: info.st_dev)
    rmdir(path)
  }

  /// Removes everything in the folder open at `folder` that is on `device`, and closes it. Names
  /// are kept as the bytes readdir gives (a test may make names that are not UTF-8).
  private static func empty(_ folder: Int32, device: dev_t) {
    guard let stream = fdopendir(folder) else {
      close(folder)
      return
    }
    defer { closedir(stream) }
    var names: [[CChar]] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 }.map { CChar(bitPattern: $0) }) + [0]
      }
      if name == [0x2E, 0] || name == [0x2E, 0x2E, 0] { continue }
      names.append(name)
    }
    for name in names {
      var info = stat()
      guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
      guard (info.st_mode & S_IFMT) == S_IFDIR else {
        unlinkat(folder, name, 0)
        continue
      }
      // Another file system mounted here is not gone into; the folders around it stay.
      guard info.st_dev == device else { continue }
      let child = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard child >= 0 else { continue }
      empty(child, device: device)
      unlinkat(folder, name, AT_REMOVEDIR)
    }
  }
}
