import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Harness {
  /// `stash import` of `count` memos (a 10-minute recording, about 2.4 MB, its transcript, route
  /// and title each; every audio file its own copy, so nothing is shared through the page cache)
  /// into an empty folder on the same disk, side by side in the same rounds (each in another
  /// order) with three others on the same files: `cp -a`, which writes into the page cache and
  /// returns; `cp -a` then `sync`, the time until its copy is durable; and the floor
  /// (`import-floor.c`), the fewest system calls that keep an import's promises: every file
  /// fsynced, read back from the disk and checked, renamed without replacing, the folder fsynced.
  /// Each share is the median of the rounds' own shares. The source is warm in the page cache for
  /// all, and dated as a phone's memos are (its files last changed when the recording ended), so no
  /// memo is one that could still be recording, looked at twice. Then the second run, with nothing
  /// to copy.
  mutating func importing(count: Int, audio: AudioCorpus) throws {
    let name = "`stash import`, \(count) memos"
    guard try ChildRun.run([stash, "import", "--help"]).status == 0 else {
      figures.append(
        .missing("#18", name, target: "≥ 80 % of cp -a + sync", because: "`stash import` is not built"))
      return
    }
    let floorProgram = try compile("import-floor")
    let source = Harness.scratch + "/import-source"
    try Files.makeFolder(source)
    var paths: [String] = []
    let start = 1_735_689_600
    for memo in 0..<count {
      let day = memo / 96 % 28, hour = memo / 4 % 24, minute = memo % 4 * 15
      let base =
        source + "/" + String(format: "2025-02-%02dT%02d-%02d-00", 1 + day, hour, minute)
        + String(format: "_%04d", memo)
      try Files.copy(audio.fragmented[1], to: base + "_audio.m4a")
      try Files.write(base + "_transcription.vtt", TextCorpus.transcript(seconds: 600, seed: UInt64(memo)))
      try Files.write(
        base + "_track.gpx",
        TextCorpus.route(points: 120, step: 5, seed: UInt64(memo), start: Double(start + memo * 900)))
      try Files.write(base + "_title.txt", "Walk number \(memo)\n")
      let memoPaths = [
        base + "_audio.m4a", base + "_transcription.vtt", base + "_track.gpx", base + "_title.txt",
      ]
      // The base's own instant (the children run with TZ=UTC) plus the ten minutes recorded.
      let ended = start + 31 * 86_400 + day * 86_400 + hour * 3_600 + minute * 60 + 600
      for path in memoPaths {
        var times = [timeval(tv_sec: ended, tv_usec: 0), timeval(tv_sec: ended, tv_usec: 0)]
        guard utimes(path, &times) == 0 else { throw HarnessError("cannot date \(path)") }
      }
      paths += memoPaths
    }
    let bytes = paths.reduce(0) { $0 + Files.size($1) }
    sync()
    Files.warm(paths)
    var serial = 0
    func fresh() -> String {
      serial += 1
      return Harness.scratch + "/import-target-\(serial)"
    }
    // Seconds by tool, one a round.
    var copies: [Double] = []
    var copiesSynced: [Double] = []
    var floors: [Double] = []
    var imports: [Double] = []
    var seconds: [Double] = []
    var cpu: [Double] = []
    var floorCPU: [Double] = []
    let tools = ["cp", "floor", "import"]
    for round in 0..<3 {
      for turn in 0..<tools.count {
        let tool = tools[(turn + round) % tools.count]
        let target = fresh()
        switch tool {
        case "cp":
          let copy = try ChildRun.checked(["cp", "-a", source, target])
          let flush = Measure.time { sync() }
          copies.append(copy.wall)
          copiesSynced.append(copy.wall + flush.wall)
        case "floor":
          let run = try ChildRun.checked([floorProgram, source, target])
          guard run.stdout.contains("bytes=\(bytes) ") else {
            throw HarnessError("import-floor copied another number of bytes: \(run.stdout)")
          }
          floors.append(run.wall)
          floorCPU.append(run.cpu)
        default:
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
    // Each round's share (the import's rate over the other's), so both saw the same load.
    func share(_ theirs: [Double]) -> Runs { Runs(values: zip(imports, theirs).map { $1 / $0 }) }
    func rates(_ times: [Double]) -> String {
      Runs(values: times.map { rate(bytes, $0) }).text(0, unit: " MB/s")
    }
    func percent(_ runs: Runs) -> String {
      String(
        format: "%.0f %% (%.0f–%.0f)", runs.median * 100, runs.values.min()! * 100, runs.values.max()! * 100)
    }
    let ofSynced = share(copiesSynced)
    let ofFloor = share(floors)
    let ofCopy = share(copies)
    let floorOfCopy = Runs(values: zip(floors, copies).map { $1 / $0 })
    let size = String(format: "%.2f GB", Double(bytes) / 1e9)
    let verified = "every file fsynced, read back from the disk and checked"
    figures.append(
      Figure(
        issue: "#18", name: name + " (\(size)), throughput", result: rates(imports),
        target: "≥ 80 % of cp -a + sync", verdict: .verdict(ofSynced.median >= 0.8),
        note: percent(ofSynced) + " of cp -a then sync, which ran at " + rates(copiesSynced) + "; "
          + percent(ofFloor) + " of the floor, at " + rates(floors) + "; " + verified + "; CPU "
          + Runs(values: cpu).text(2, unit: " s") + ", the floor's "
          + Runs(values: floorCPU).text(2, unit: " s")
          + "; each share is the median of the 3 rounds' own; sync flushes the whole disk, other "
          + "processes' writes included"))
    figures.append(
      Figure(
        issue: "#18", name: name + ", share of the durable floor", result: percent(ofFloor),
        target: "as near 100 % as can be", verdict: .info,
        note: "import-floor.c (C, 16 threads like ours): the same fsyncs, read-back, checks and renames, "
          + "and nothing else, at " + rates(floors)))
    figures.append(
      Figure(
        issue: "#18", name: name + ", share of cp -a", result: percent(ofCopy),
        target: "≥ 80 % (the issue's)",
        verdict: .verdict(ofCopy.median >= 0.8),
        note: "cp -a, at " + rates(copies) + ", only fills the page cache; the floor, which makes its "
          + "copy durable, is " + percent(floorOfCopy) + " of it on this disk"))
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
