import Foundation
import StashFormat
import StashRecover
import StashTestSupport

/// A scratch copy of `SyntheticFixtures/crash` made ready to sweep (see `CrashFixtureCopy`), with the
/// sweep and the checks the recovery tests share.
struct CrashFolder {
  let copy: CrashFixtureCopy
  var root: URL { copy.root }
  var manifest: [String: Any] { copy.manifest }
  let now = Date().timeIntervalSince1970

  init() throws {
    copy = try CrashFixtureCopy(label: "stash-recover", now: Date())
  }

  /// The MANIFEST entries of the captures, by base.
  var captures: [String: [String: Any]] {
    Dictionary(
      uniqueKeysWithValues: (manifest["captures"] as! [[String: Any]]).map { ($0["base"] as! String, $0) })
  }

  func remove() { copy.remove() }

  /// Sweeps the copy with the real assembler and repairer.
  func sweep(
    fileSystem: any FileSystem = SystemFileSystem(), options: ((inout SweepOptions) -> Void)? = nil,
    consent: Bool = true, dryRun: Bool = false, workers: Int = Sweeper.defaultWorkers
  ) throws -> SweepReport {
    var sweepOptions = SweepOptions(now: now)
    options?(&sweepOptions)
    var sweeper = Sweeper(
      fileSystem: fileSystem, assembler: FormatAssembler(), audioRepairer: MP4AudioRepairer())
    sweeper.workers = workers
    return try sweeper.run(root.path, options: sweepOptions, dryRun: dryRun, routeConsent: { consent })
  }

  /// The names of `base`'s files after the sweep, parts folder contents as `<base>.parts/<name>`.
  func files(of base: String) throws -> [String] {
    try FolderTree(root).paths.filter { $0.hasPrefix(base) }.sorted()
  }

  /// Every cue (start, end, text) in any .vtt and every track point in any .gpx in the folder.
  func data() throws -> (cues: Set<String>, points: Set<String>) {
    var cues = Set<String>()
    var points = Set<String>()
    for path in try FolderTree(root).paths {
      let full = root.path + "/" + path
      if path.hasSuffix(".vtt") {
        for cue in WebVTTParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: full)))).cues {
          cues.insert("\(path.prefix(19)) \(cue.startTime) \(cue.endTime) \(cue.text)")
        }
      } else if path.hasSuffix(".gpx") {
        let document = GPXReader.read(Array(try Data(contentsOf: URL(fileURLWithPath: full))))
        for point in document.tracks.flatMap({ $0.segments.flatMap(\.points) }) {
          points.insert("\(path.prefix(19)) \(point.latitude) \(point.longitude) \(point.time ?? -1)")
        }
      }
    }
    return (cues, points)
  }
}
