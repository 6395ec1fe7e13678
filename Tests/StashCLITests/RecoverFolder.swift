import Foundation
import StashTestSupport

/// A scratch copy of `SyntheticFixtures/crash` ready for `stash recover`, as its MANIFEST asks: the
/// empty folders made, every file a day old, the capture still recording touched to now.
struct RecoverFolder {
  let root: URL
  let manifest: [String: Any]

  init() throws {
    let source = Fixtures.folder("crash")
    manifest =
      try JSONSerialization.jsonObject(with: Data(contentsOf: source.appendingPathComponent("MANIFEST.json")))
      as! [String: Any]
    root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stash-recover-cli-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: source, to: root)
    for name in manifest["emptyDirectories"] as! [String] {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(name), withIntermediateDirectories: false)
    }
    let now = Date()
    let recent = Set(manifest["recentAtTestTime"] as! [String])
    for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
      let date = recent.contains(String(path.prefix(19))) ? now : now.addingTimeInterval(-86_400)
      try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: root.path + "/" + path)
    }
  }

  func remove() { try? FileManager.default.removeItem(at: root) }

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
