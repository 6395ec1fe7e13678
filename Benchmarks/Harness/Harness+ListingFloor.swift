import Foundation

extension Harness {
  /// `stash ls --json` against the system calls any listing must make (`listing-floor.c`, one
  /// thread: readdir, then open, fstat and two reads per audio file), each pair run back to back
  /// so both see the same load; the figure is the median of the pairs' ratios. Beside it, as
  /// information, the same against a floor that does the listing's own work
  /// (`listing-floor-all.c`: every memo's four files and parts folders, on two threads).
  mutating func listingFloor(_ memos: MemoFolderCorpus) throws {
    let floorProgram = try compile("listing-floor")
    let allProgram = try compile("listing-floor-all", libraries: ["-lpthread"])
    let name = "`stash ls --json` over the C syscall floor (1 thread), \(memos.count) memos"
    // Untimed runs first: the cache is warm for both, and the floor's count is checked.
    let warm = try ChildRun.checked([floorProgram, memos.folder])
    guard warm.stdout.contains("audio=\(memos.count) ") else {
      throw HarnessError("listing-floor found another number of audio files: \(warm.stdout)")
    }
    _ = try ChildRun.checked([stash, "ls", "--json", "--no-cache", memos.folder], keepOutput: false)
    _ = try ChildRun.checked([allProgram, memos.folder, "2"])
    var floors: [ChildRun] = []
    var allFloors: [ChildRun] = []
    var ours: [ChildRun] = []
    for _ in 0..<(quick ? 5 : 7) {
      floors.append(try ChildRun.checked([floorProgram, memos.folder]))
      allFloors.append(try ChildRun.checked([allProgram, memos.folder, "2"]))
      ours.append(
        try ChildRun.checked([stash, "ls", "--json", "--no-cache", memos.folder], keepOutput: false))
    }
    let ratios = Runs(values: zip(ours, floors).map { $0.wall / $1.wall })
    let cpuRatios = Runs(values: zip(ours, floors).map { $0.cpu / $1.cpu })
    let floorWall = Runs(values: floors.map(\.wall))
    let ourWall = Runs(values: ours.map(\.wall))
    figures.append(
      Figure(
        issue: "#20", name: name, result: ratios.text(2, unit: "x"), target: "≤ 2x (aim ≤ 1.2x)",
        verdict: .verdict(ratios.median <= 2),
        note:
          "ours " + ourWall.text(3, unit: " s") + ", floor " + floorWall.text(3, unit: " s")
          + " (CPU " + Runs(values: floors.map(\.cpu)).text(3, unit: " s") + "); by CPU time "
          + cpuRatios.text(2, unit: "x") + " (ours on both cores, the floor on one)"))
    let allRatios = Runs(values: zip(ours, allFloors).map { $0.wall / $1.wall })
    let allCPURatios = Runs(values: zip(ours, allFloors).map { $0.cpu / $1.cpu })
    figures.append(
      Figure(
        issue: "#20",
        name:
          "`stash ls --json` over a C floor that reads every memo's files (2 threads), \(memos.count) memos",
        result: allRatios.text(2, unit: "x"), target: "report", verdict: .info,
        note:
          "that floor " + Runs(values: allFloors.map(\.wall)).text(3, unit: " s") + " (CPU "
          + Runs(values: allFloors.map(\.cpu)).text(3, unit: " s") + "), "
          + ratioText(Runs(values: zip(allFloors, floors).map { $0.wall / $1.wall }).median)
          + " the 1-thread floor's wall time; by CPU time " + allCPURatios.text(2, unit: "x")))
    try warmListing(memos, floorProgram: floorProgram)
  }

  /// `stash ls --json` and `stash ls` with the findings cache filled by one earlier run, against
  /// the same 1-thread floor, pairs back to back (#45: ≤ 2.5x). A memo whose entry holds findings
  /// is checked again for `--json` (its messages are said from the file); `ls` needs only the
  /// marks, so it reads no transcript or route at all.
  mutating func warmListing(_ memos: MemoFolderCorpus, floorProgram: String) throws {
    _ = try ChildRun.checked([stash, "ls", "--json", memos.folder], keepOutput: false)
    for (label, arguments) in [("`stash ls --json`", ["--json"]), ("`stash ls`", [])] {
      var floors: [ChildRun] = []
      var ours: [ChildRun] = []
      for _ in 0..<(quick ? 5 : 7) {
        floors.append(try ChildRun.checked([floorProgram, memos.folder]))
        ours.append(try ChildRun.checked([stash, "ls"] + arguments + [memos.folder], keepOutput: false))
      }
      let ratios = Runs(values: zip(ours, floors).map { $0.wall / $1.wall })
      figures.append(
        Figure(
          issue: "#45", name: "\(label), findings cache warm, over the C syscall floor, \(memos.count) memos",
          result: ratios.text(2, unit: "x"), target: "≤ 2.5x", verdict: .verdict(ratios.median <= 2.5),
          note:
            "ours " + Runs(values: ours.map(\.wall)).text(3, unit: " s") + " (CPU "
            + Runs(values: ours.map(\.cpu)).text(3, unit: " s") + "), floor "
            + Runs(values: floors.map(\.wall)).text(3, unit: " s")))
    }
  }
}
