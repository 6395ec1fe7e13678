// The body of Benchmarks/scripts/recover-sweep: builds a memo folder of crashed captures, then
// times one sweep of it with fsync on and one (of an identical copy) with fsync off, through the
// file-system seam. Arguments: SCRATCH CAPTURES PARTS.
import Foundation
import StashRecover

let arguments = CommandLine.arguments
guard arguments.count == 4, let captures = Int(arguments[2]), let parts = Int(arguments[3]) else {
  FileHandle.standardError.write("usage: recover-sweep SCRATCH CAPTURES PARTS\n".data(using: .utf8)!)
  exit(2)
}
let scratch = arguments[1]

func fixed(_ value: Double) -> String { String(format: "%.3f", value) }

func timestamp(_ seconds: Double) -> String {
  let ms = Int((seconds * 1000).rounded())
  return String(format: "%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
}

/// One transcript part: eight cues over its minute, opened by its `NOTE stash part`.
func transcriptPart(_ number: Int) -> String {
  let start = Double(number - 1) * 60
  var text = "WEBVTT\n\nNOTE stash part \(timestamp(start)) \(timestamp(start + 60))\n\n"
  for cue in 0..<8 {
    let t = start + Double(cue) * 7.5
    text +=
      "\(timestamp(t + 0.2)) --> \(timestamp(t + 7))\nWords spoken in part \(number), sentence \(cue + 1), as a walk goes on.\n\n"
  }
  return text
}

/// One route part: a point every ten seconds over its minute, as GPX 1.1.
func routePart(_ number: Int, capture: Int) -> String {
  var text = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" xmlns:stash="urn:stash:gpx:1">
      <trk>
        <trkseg>

    """
  for point in 0..<6 {
    let seconds = (number - 1) * 60 + point * 10
    let lat = -47.3 + Double(seconds) * 1e-5
    let lon = -129.1 + Double(capture) * 1e-4
    text +=
      "      <trkpt lat=\"\(lat)\" lon=\"\(lon)\"><ele>12.0</ele>"
      + "<time>2026-04-01T\(String(format: "%02d:%02d:%02d", 9 + seconds / 3600, seconds / 60 % 60, seconds % 60))Z</time>"
      + "<extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>1.2</gpxtpx:speed><gpxtpx:course>10.0</gpxtpx:course>"
      + "</gpxtpx:TrackPointExtension><stash:horizontalAccuracy>5.0</stash:horizontalAccuracy></extensions></trkpt>\n"
  }
  return text + "    </trkseg>\n  </trk>\n</gpx>\n"
}

func makeFolder(_ path: String) throws {
  let manager = FileManager.default
  try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
  for capture in 0..<captures {
    let base = String(format: "2026-04-01T09-%02d-%02d_%04d", capture / 60 % 60, capture % 60, capture)
    let partsFolder = path + "/" + base + ".parts"
    try manager.createDirectory(atPath: partsFolder, withIntermediateDirectories: false)
    try Data("audio".utf8).write(to: URL(fileURLWithPath: path + "/" + base + "_audio.m4a"))
    for number in 1...parts {
      let digits = String(format: "%04d", number)
      try Data(transcriptPart(number).utf8).write(
        to: URL(fileURLWithPath: partsFolder + "/transcription.\(digits).vtt"))
      try Data(routePart(number, capture: capture).utf8).write(
        to: URL(fileURLWithPath: partsFolder + "/track.\(digits).gpx"))
    }
  }

}

/// CPU seconds this process has used, user and system (`getrusage(2)`).
func cpuSeconds() -> (user: Double, system: Double) {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
  return (seconds(usage.ru_utime), seconds(usage.ru_stime))
}

/// Counts the fsyncs a sweep asks for.
final class CountingFileSystem: FileSystem {
  let base: SystemFileSystem
  var fileSyncs = 0
  var folderSyncs = 0
  init(_ base: SystemFileSystem) { self.base = base }
  func status(_ p: String) throws -> FileStatus? { try base.status(p) }
  func list(_ d: String) throws -> [String] { try base.list(d) }
  func read(_ p: String, limit: Int) throws -> [UInt8] { try base.read(p, limit: limit) }
  func createExclusive(_ p: String) throws -> Int32 { try base.createExclusive(p) }
  func write(_ d: Int32, _ b: [UInt8]) throws { try base.write(d, b) }
  func sync(_ d: Int32) throws {
    fileSyncs += 1
    try base.sync(d)
  }
  func close(_ d: Int32) throws { try base.close(d) }
  func renameNoReplace(_ s: String, _ d: String) throws { try base.renameNoReplace(s, d) }
  func rename(_ s: String, _ d: String) throws { try base.rename(s, d) }
  func unlink(_ p: String) throws { try base.unlink(p) }
  func removeDirectory(_ p: String) throws { try base.removeDirectory(p) }
  func makeDirectory(_ p: String) throws { try base.makeDirectory(p) }
  func syncDirectory(_ p: String) throws {
    folderSyncs += 1
    try base.syncDirectory(p)
  }
  func openDirectory(_ p: String) throws -> Int32 { try base.openDirectory(p) }
  func lock(_ d: Int32, wait: Bool) throws -> Bool { try base.lock(d, wait: wait) }
}

struct Run {
  var seconds: Double
  var user: Double
  var system: Double
  var fs: CountingFileSystem
  var report: SweepReport
}

func sweep(_ path: String, synchronizes: Bool) throws -> Run {
  let fs = CountingFileSystem(SystemFileSystem(synchronizes: synchronizes))
  let sweeper = Sweeper(fileSystem: fs, assembler: FormatAssembler())
  // The files were just made: "now" is set a day ahead so none counts as still recording.
  let options = SweepOptions(now: Date().timeIntervalSince1970 + 86_400)
  let cpu = cpuSeconds()
  let start = DispatchTime.now().uptimeNanoseconds
  let report = try sweeper.run(path, options: options)
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  let after = cpuSeconds()
  return Run(seconds: seconds, user: after.user - cpu.user, system: after.system - cpu.system, fs: fs, report: report)
}

let withSync = scratch + "/fsync-on"
let withoutSync = scratch + "/fsync-off"
try makeFolder(withSync)
try makeFolder(withoutSync)
// Settle what making the folders left in the page cache, so both sweeps start alike.
sync()
let off = try sweep(withoutSync, synchronizes: false)
let on = try sweep(withSync, synchronizes: true)
let published = on.report.captures.flatMap(\.events).filter { $0.action == .published }.count
print("captures: \(captures), parts per kind: \(parts) (transcript: 8 cues a part; route: 6 points a part)")
print("published: \(published) files; fsyncs asked: \(on.fs.fileSyncs) of files, \(on.fs.folderSyncs) of folders")
for (label, run) in [("with fsync   ", on), ("without fsync", off)] {
  print(
    "sweep \(label): \(fixed(run.seconds)) s wall, \(fixed(run.user + run.system)) s CPU "
      + "(\(fixed(run.user)) user + \(fixed(run.system)) system)")
}
print("fsync's share of the wall time: \(fixed(on.seconds - off.seconds)) s")
