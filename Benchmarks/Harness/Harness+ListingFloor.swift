import Foundation

extension Harness {
  /// `stash ls --json` against the system calls any listing must make (`listing-floor.c`, one
  /// thread: readdir, then open, fstat and two reads per audio file), each pair run back to back
  /// so both see the same load; the figure is the median of the pairs' ratios.
  mutating func listingFloor(_ memos: MemoFolderCorpus) throws {
    let floorProgram = try compile("listing-floor")
    let name = "`stash ls --json` over the C syscall floor (1 thread), \(memos.count) memos"
    // Untimed runs first: the cache is warm for both, and the floor's count is checked.
    let warm = try ChildRun.checked([floorProgram, memos.folder])
    guard warm.stdout.contains("audio=\(memos.count) ") else {
      throw HarnessError("listing-floor found another number of audio files: \(warm.stdout)")
    }
    _ = try ChildRun.checked([stash, "ls", "--json", memos.folder], keepOutput: false)
    var floors: [ChildRun] = []
    var ours: [ChildRun] = []
    for _ in 0..<(quick ? 5 : 7) {
      floors.append(try ChildRun.checked([floorProgram, memos.folder]))
      ours.append(try ChildRun.checked([stash, "ls", "--json", memos.folder], keepOutput: false))
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
  }
}
