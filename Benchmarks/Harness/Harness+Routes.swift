import Foundation
import StashFormat

extension Harness {
  /// GPX: the route set (walks of 2,500 points, to `megabytes` in all) through GPXReader, through
  /// a bare expat loop in C that only counts elements (the ceiling), and gpxpy on a part of it.
  mutating func routes(megabytes: Int) throws {
    let folder = Harness.scratch + "/routes"
    try Files.makeFolder(folder)
    var paths: [String] = []
    var total = 0
    while total < megabytes * 1_000_000 {
      let path = folder + "/walk\(paths.count)_track.gpx"
      let text = TextCorpus.route(
        points: 2_500, step: 1, seed: UInt64(paths.count + 1),
        start: 1_780_000_000 + Double(paths.count) * 86_400)
      try Files.write(path, text)
      total += text.utf8.count
      paths.append(path)
    }
    Files.warm(paths)
    let read = { (paths: [String]) throws -> (points: [Int], damaged: Int) in
      var points: [Int] = []
      var damaged = 0
      for path in paths {
        let document = try GPXReader.read(path: path)
        points.append(document.pointCount)
        if document.isDamaged { damaged += 1 }
      }
      return (points, damaged)
    }
    var result: (points: [Int], damaged: Int) = ([], 0)
    var walls: [Double] = []
    var cpus: [Double] = []
    for _ in 0..<runs {
      let time = try Measure.time { result = try read(paths) }
      walls.append(rate(total, time.wall))
      cpus.append(rate(total, time.cpu))
    }
    let wall = Runs(values: walls)
    let cpu = Runs(values: cpus)
    let size = String(format: "%.0f MB route set", Double(total) / 1e6)
    figures.append(
      Figure(
        issue: "#4", name: "GPX reading, \(size)", result: wall.text(0, unit: " MB/s"), target: "≥ 110 MB/s",
        verdict: .verdict(wall.median >= 110),
        note:
          "\(paths.count) files, \(result.points.reduce(0, +)) points, \(result.damaged) damaged; "
          + "by CPU time \(cpu.text(0, unit: " MB/s"))"))

    // The scanner against expat inside GPXReader, on the same bytes in memory, one thread.
    let contents = try paths.map { try ReadOnlyFile.contents(of: $0) }
    var scannedCpus: [Double] = []
    var expatCpus: [Double] = []
    var same = true
    for _ in 0..<runs {
      for scan in [true, false] {
        var documents: [GPXDocument] = []
        let time = Measure.time {
          documents = contents.map { GPXReader.read($0, chunkSize: max(1, $0.count), scan: scan) }
        }
        if scan { scannedCpus.append(rate(total, time.cpu)) } else { expatCpus.append(rate(total, time.cpu)) }
        same = same && documents.map(\.pointCount) == result.points
      }
    }
    guard same else { throw HarnessError("the scanner and expat read different point counts") }
    let scanned = Runs(values: scannedCpus)
    let expatOnly = Runs(values: expatCpus)
    figures.append(
      Figure(
        issue: "#20", name: "GPX: GPXScanner over expat inside GPXReader",
        result: ratioText(scanned.median / expatOnly.median),
        target: "report", verdict: .info,
        note:
          "the route set in memory, 1 thread, by CPU time: scanner \(scanned.text(0, unit: " MB/s")), "
          + "expat \(expatOnly.text(0, unit: " MB/s"))"))

    // The ceiling: expat-count.c, compiled here.
    let counter = try compile("expat-count", libraries: ["-lexpat"])
    var ceilingWalls: [Double] = []
    var ceilingCpus: [Double] = []
    for _ in 0..<runs {
      let fields = try ChildRun.checked([counter] + paths).stdout.split(separator: " ").compactMap {
        Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      guard fields.count == 4 else { throw HarnessError("expat-count printed no figures") }
      ceilingWalls.append(rate(Int(fields[1]), fields[2]))
      ceilingCpus.append(rate(Int(fields[1]), fields[3]))
    }
    let ceiling = Runs(values: ceilingWalls)
    let ceilingCpu = Runs(values: ceilingCpus)
    let ratio = ceiling.median / wall.median
    figures.append(
      Figure(
        issue: "#4", name: "GPX: bare expat loop in C (the ceiling) over GPXReader", result: ratioText(ratio),
        target: "≤ 1.5x", verdict: .verdict(ratio <= 1.5),
        note:
          "expat alone \(ceiling.text(0, unit: " MB/s")); by CPU time \(ratioText(ceilingCpu.median / cpu.median))"
      ))

    // gpxpy reads about 13 MB/s: the first files only, and ours again on the same ones.
    var subset: [String] = []
    var subsetBytes = 0
    for path in paths where subsetBytes < (quick ? 3_000_000 : 8_000_000) {
      subset.append(path)
      subsetBytes += Files.size(path)
    }
    var ours: (points: [Int], damaged: Int) = ([], 0)
    let ourRuns = Runs(
      values: try (0..<runs).map { _ in rate(subsetBytes, try Measure.time { ours = try read(subset) }.wall) }
    )
    let input = String(format: "%d routes, %.1f MB", subset.count, Double(subsetBytes) / 1e6)
    comparePeer(
      task: "routes", peer: "gpxpy", mode: "gpx", subset: subset, bytes: subsetBytes, input: input,
      ours: ours.points, ourRuns: ourRuns, what: "point count")
  }
}
