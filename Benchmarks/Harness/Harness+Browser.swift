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
    let timed = try RepeatedRuns(command, count: runs)
    let (wall, peak) = (timed.wall, timed.peak)
    let note =
      "120x40, `stash-tui --render-once` (no terminal: the cell grid is printed instead of drawn); CPU time "
      + timed.cpu.text(3, unit: " s")
    // #7's targets are for 10,000 memos; #20 asks for 0.2 s at 100,000.
    let lifetime = memos.count > 10_000
    let (issue, seconds) = lifetime ? ("#20", 0.2) : ("#7", 0.5)
    figures.append(
      Figure(
        issue: issue, name: "Browser first screen, \(memos.count) memos: wall",
        result: wall.text(3, unit: " s"),
        target: "≤ \(seconds) s", verdict: .verdict(wall.median <= seconds), note: note))
    figures.append(
      Figure(
        issue: issue, name: "Browser first screen, \(memos.count) memos: peak memory",
        result: peak.text(1, unit: " MB"), target: "≤ 150 MB", verdict: .verdict(peak.median <= 150)))
  }

}
