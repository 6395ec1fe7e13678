import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Harness {
  /// `stash import` of `count` memos (a 10-minute recording, about 2.4 MB, its transcript, route
  /// and title each; every audio file its own copy, so nothing is shared through the page cache)
  /// into an empty folder on the same disk, side by side with `cp -a` of the same folder in the
  /// same run, in alternating order. The source is warm in the page cache for both. `cp -a` writes
  /// into the page cache and returns; the import fsyncs every file and reads it back from the disk
  /// before it renames it, so `cp -a` followed by `sync` (the time until its copy is as durable)
  /// is shown too. Then the second run, with nothing to copy.
  mutating func importing(count: Int, audio: AudioCorpus) throws {
    let name = "`stash import`, \(count) memos"
    guard try ChildRun.run([stash, "import", "--help"]).status == 0 else {
      figures.append(.missing("#18", name, target: "≥ 80 % of cp -a", because: "`stash import` is not built"))
      return
    }
    let source = Harness.scratch + "/import-source"
    try Files.makeFolder(source)
    var paths: [String] = []
    let start = 1_735_689_600
    for memo in 0..<count {
      let base =
        source + "/"
        + String(format: "2025-02-%02dT%02d-%02d-00", 1 + memo / 96 % 28, memo / 4 % 24, memo % 4 * 15)
        + String(format: "_%04d", memo)
      try Files.copy(audio.fragmented[1], to: base + "_audio.m4a")
      try Files.write(base + "_transcription.vtt", TextCorpus.transcript(seconds: 600, seed: UInt64(memo)))
      try Files.write(
        base + "_track.gpx",
        TextCorpus.route(points: 120, step: 5, seed: UInt64(memo), start: Double(start + memo * 900)))
      try Files.write(base + "_title.txt", "Walk number \(memo)\n")
      paths += [base + "_audio.m4a", base + "_transcription.vtt", base + "_track.gpx", base + "_title.txt"]
    }
    let bytes = paths.reduce(0) { $0 + Files.size($1) }
    sync()
    Files.warm(paths)
    var serial = 0
    func fresh() -> String {
      serial += 1
      return Harness.scratch + "/import-target-\(serial)"
    }
    var copies: [Double] = []
    var copiesSynced: [Double] = []
    var imports: [Double] = []
    var seconds: [Double] = []
    var cpu: [Double] = []
    for round in 0..<2 {
      for tool in round == 0 ? ["cp", "import"] : ["import", "cp"] {
        let target = fresh()
        if tool == "cp" {
          let copy = try ChildRun.checked(["cp", "-a", source, target])
          let flush = Measure.time { sync() }
          copies.append(copy.wall)
          copiesSynced.append(copy.wall + flush.wall)
        } else {
          let run = try ChildRun.checked([stash, "import", source, target], keepOutput: false)
          imports.append(run.wall)
          cpu.append(run.cpu)
          let again = try ChildRun.checked([stash, "import", source, target])
          guard again.stdout.contains("\(count) already here") else {
            throw HarnessError("the second import did not find every memo here: \(again.stdout.suffix(200))")
          }
          seconds.append(again.wall)
        }
        // Our own scratch copy, made just above.
        try FileManager.default.removeItem(atPath: target)
        sync()
      }
    }
    let ours = Runs(values: imports.map { rate(bytes, $0) })
    let theirs = Runs(values: copies.map { rate(bytes, $0) })
    let theirsSynced = Runs(values: copiesSynced.map { rate(bytes, $0) })
    let share = ours.median / theirs.median
    let shareSynced = ours.median / theirsSynced.median
    let size = String(format: "%.2f GB", Double(bytes) / 1e9)
    figures.append(
      Figure(
        issue: "#18", name: name + " (\(size)), throughput", result: ours.text(0, unit: " MB/s"),
        target: "≥ 80 % of cp -a", verdict: .verdict(share >= 0.8),
        note: String(format: "%.0f %% of cp -a (", share * 100) + theirs.text(0, unit: " MB/s")
          + String(format: "); %.0f %% of cp -a then sync (", shareSynced * 100)
          + theirsSynced.text(0, unit: " MB/s")
          + "); every file fsynced and read back from the disk; CPU " + Runs(values: cpu).text(2, unit: " s"))
    )
    let rerun = Runs(values: seconds)
    figures.append(
      Figure(
        issue: "#18", name: name + ", second run (nothing to copy)", result: rerun.text(3, unit: " s"),
        target: "≤ 1 s", verdict: .verdict(rerun.median <= 1), note: "every memo reported already here"))
    peers.append(
      PeerRow(
        task: "copy a memo folder", peer: "cp -a", input: "\(count) memos, \(size)",
        theirs: Runs(values: copies).text(2, unit: " s"), ours: Runs(values: imports).text(2, unit: " s"),
        ratio: ratioText(Runs(values: copies).median / Runs(values: imports).median),
        agreement: "same files and times; ours fsynced and verified"))
  }
}
