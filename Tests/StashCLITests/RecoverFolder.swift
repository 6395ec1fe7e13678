import Foundation
import StashTestSupport

/// A scratch copy of `SyntheticFixtures/crash` ready for `stash recover` (see `CrashFixtureCopy`),
/// with ways to compare folders.
struct RecoverFolder {
  let copy: CrashFixtureCopy
  var root: URL { copy.root }
  var manifest: [String: Any] { copy.manifest }

  init() throws {
    copy = try CrashFixtureCopy(label: "stash-recover-cli", now: Date())
  }

  func remove() { copy.remove() }

  /// Every path under the folder with its bytes (`<dir>` for a folder), to compare whole folders.
  func tree() throws -> [String: Data] {
    var out: [String: Data] = [:]
    for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: root.path + "/" + path, isDirectory: &isDirectory)
      out[path] =
        isDirectory.boolValue ? Data("<dir>".utf8) : try Data(contentsOf: root.appendingPathComponent(path))
    }
    return out
  }

  /// The names of `base`'s files, parts as `<base>.parts/<name>`, sorted.
  func files(of base: String) throws -> [String] {
    try tree().keys.filter { $0.hasPrefix(base) }.sorted()
  }

  /// The MANIFEST's captures.
  var captures: [[String: Any]] { manifest["captures"] as! [[String: Any]] }
}
