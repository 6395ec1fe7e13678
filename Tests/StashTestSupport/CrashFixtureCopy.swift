import Foundation

/// A scratch copy of `SyntheticFixtures/crash` made ready to sweep as its MANIFEST asks: the empty
/// folders it lists are made (git keeps none), every file is made a day old, and the captures it
/// names as still recording are touched to a second before `now`. A fresh checkout's files all look
/// like a live recording to the sweep's two-minute guard, so every test that sweeps the fixture
/// starts from this.
public struct CrashFixtureCopy {
  /// The copy's folder, removed by `remove()`.
  public let folder: ScratchFolder
  public var root: URL { folder.url }
  /// `MANIFEST.json`, parsed.
  public let manifest: [String: Any]

  /// Copies the fixture to a fresh folder named after `label` and ages it relative to `now`.
  public init(label: String, now: Date) throws {
    let source = Fixtures.folder("crash")
    let data = try Data(contentsOf: source.appendingPathComponent("MANIFEST.json"))
    manifest = try JSONSerialization.jsonObject(with: data) as! [String: Any]
    folder = try ScratchFolder(label)
    let root = folder.url
    for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
      try FileManager.default.copyItem(
        at: source.appendingPathComponent(name), to: root.appendingPathComponent(name))
    }
    for name in manifest["emptyDirectories"] as! [String] {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(name), withIntermediateDirectories: false)
    }
    let recent = Set(manifest["recentAtTestTime"] as! [String])
    for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
      let date =
        recent.contains(String(path.prefix(19)))
        ? now.addingTimeInterval(-1) : now.addingTimeInterval(-86_400)
      try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: root.path + "/" + path)
    }
  }

  /// Removes the copy.
  public func remove() { folder.remove() }
}
