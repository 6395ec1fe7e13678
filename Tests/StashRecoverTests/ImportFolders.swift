import Foundation
import StashFormat
import StashRecover
import StashTestSupport

/// A source (a scratch copy of `SyntheticFixtures/crash`, made ready as for a sweep, plus an orphan)
/// and an empty target, with the import and the checks the import tests share.
struct ImportFolders {
  let sourceCopy: CrashFixtureCopy
  let targetFolder: ScratchFolder
  var source: URL { sourceCopy.root }
  var target: URL { targetFolder.url }
  let now = Date().timeIntervalSince1970

  init() throws {
    sourceCopy = try CrashFixtureCopy(label: "stash-import-source", now: Date())
    targetFolder = try ScratchFolder("stash-import-target")
    try put("said once\n", "2026-05-01T10-00-00_transcription.vtt", in: source)
  }

  func remove() {
    sourceCopy.remove()
    targetFolder.remove()
  }

  /// Imports the whole source folder into the target.
  func run(
    fileSystem: some CopyingFileSystem = SystemFileSystem(), move: Bool = false, dryRun: Bool = false,
    pieceSize: Int = 1 << 20, options: ((inout ImportOptions) -> Void)? = nil
  ) throws -> ImportReport {
    var importOptions = ImportOptions(now: now, settle: 0, move: move, dryRun: dryRun)
    options?(&importOptions)
    var importer = Importer(fileSystem: fileSystem)
    importer.pieceSize = pieceSize
    return try importer.run([.init(folder: source.path)], into: target.path, options: importOptions)
  }

  /// Every path under `root` with its bytes (`<dir>` for a folder) and, for a file, its
  /// modification time to the microsecond.
  static func state(_ root: URL) throws -> [String: String] {
    var out: [String: String] = [:]
    for (path, bytes) in try FolderTree(root).entries {
      let attributes = try FileManager.default.attributesOfItem(atPath: root.path + "/" + path)
      let date = (attributes[.modificationDate] as! Date).timeIntervalSince1970
      out[path] = bytes == "<dir>" ? bytes : "\(bytes.count) \(bytes.hashValue) @\((date * 1e6).rounded())"
    }
    return out
  }

  /// What a whole, uninterrupted import of the source gives: every memo's files (its audio, its
  /// finished files, its Stash parts) and nothing else, with the source's bytes and times.
  func expectedTarget() throws -> [String: String] {
    let all = try Self.state(source)
    return all.filter { path, _ in
      guard let base = path.split(separator: "/").first.map(String.init) else { return false }
      if path.contains("/") {
        // A withdrawn route's parts (and marker) stay behind.
        let name = String(path.split(separator: "/").last!)
        let withdrawn = all.keys.contains(base + "/track.withdrawn")
        return PartName(name) != nil && !(withdrawn && name.hasPrefix("track."))
      }
      guard case .memoFile(let memo, let kind) = FolderName.classify(base) else { return false }
      let withdrawn = all.keys.contains(memo + ".parts/track.withdrawn")
      if kind == .parts {
        // A parts folder comes only with parts in it.
        return all.keys.contains {
          $0.hasPrefix(base + "/") && PartName(String($0.split(separator: "/").last!)) != nil
            && !(withdrawn && $0.hasPrefix(base + "/track."))
        }
      }
      if kind == .route && withdrawn { return false }
      return all.keys.contains(MemoFileKind.audio.name(for: memo))
    }
  }
}
