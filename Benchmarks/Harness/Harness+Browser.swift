import Foundation

extension Harness {
  /// The browser's first screen on the memo folder: `stash-tui --render-once` (the real update step
  /// and view, the folder read for real, the screen rendered into the cell grid and printed, no
  /// curses), wall time and peak memory of the process.
  mutating func firstScreen(_ memos: MemoFolderCorpus) throws {
    let command = [tui, "--render-once", "120x40", "--keys", "", memos.folder]
    let first = try ChildRun.checked(command)
    guard first.stdout.split(separator: "\n").count >= 10 else {
      throw HarnessError("--render-once printed no screen")
    }
    var walls: [Double] = []
    var peaks: [Double] = []
    var cpus: [Double] = []
    for _ in 0..<runs {
      let child = try ChildRun.checked(command, keepOutput: false)
      walls.append(child.wall)
      peaks.append(child.peakMB)
      cpus.append(child.cpu)
    }
    let wall = Runs(values: walls)
    let peak = Runs(values: peaks)
    let note =
      "120x40, `stash-tui --render-once` (no terminal: the cell grid is printed instead of drawn); CPU time "
      + Runs(values: cpus).text(3, unit: " s")
    figures.append(
      Figure(
        issue: "#7", name: "Browser first screen, \(memos.count) memos: wall",
        result: wall.text(3, unit: " s"),
        target: "≤ 0.5 s", verdict: .verdict(wall.median <= 0.5), note: note))
    figures.append(
      Figure(
        issue: "#7", name: "Browser first screen, \(memos.count) memos: peak memory",
        result: peak.text(1, unit: " MB"), target: "< 150 MB", verdict: .verdict(peak.median < 150)))
  }

  /// `stash lint` over the memo folder, when the command exists.
  mutating func lint(_ memos: MemoFolderCorpus) throws {
    let name = "`stash lint`, \(memos.count) memos"
    // An unknown command exits 2; `lint --help` exits 0 once the command exists.
    guard try ChildRun.run([stash, "lint", "--help"]).status == 0 else {
      figures.append(
        .missing("#8", name, target: "≤ 3 s", because: "not yet measurable: `stash lint` is not built yet"))
      return
    }
    // Findings exit 1; only 2 (usage or I/O) is a failure.
    let first = try ChildRun.checked([stash, "lint", memos.folder], accepting: [0, 1])
    var walls: [Double] = []
    var cpus: [Double] = []
    // A lint far over its target gets fewer runs, so the whole bench stays within minutes.
    for _ in 0..<(first.wall > 10 ? 2 : runs) {
      let child = try ChildRun.checked([stash, "lint", memos.folder], keepOutput: false, accepting: [0, 1])
      walls.append(child.wall)
      cpus.append(child.cpu)
    }
    let wall = Runs(values: walls)
    figures.append(
      Figure(
        issue: "#8", name: name, result: wall.text(3, unit: " s"), target: "≤ 3 s",
        verdict: .verdict(wall.median <= 3),
        note:
          "exit \(first.status), \(first.stdout.split(separator: "\n").count) lines of findings; CPU time "
          + Runs(values: cpus).text(3, unit: " s")))
  }
}
