import Foundation

extension Harness {
  /// The browser's first screen on the memo folder: `stash-tui --render-once --first-screen` (the
  /// real update step and view, the list from the folder's names and the rows on screen read for
  /// real, as the browser first shows them, the screen rendered into the cell grid and printed, no
  /// curses), wall time and peak memory of the process; then the same with every memo read.
  mutating func firstScreen(_ memos: MemoFolderCorpus) throws {
    let command = [tui, "--render-once", "120x40", "--first-screen", memos.folder]
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
    // What any first screen pays before it reads a name: the program's start (its libraries
    // loaded and linked: libavcodec and what it needs), measured alone beside it.
    do {
      let start = try RepeatedRuns([tui, "--version"], count: runs)
      figures.append(
        Figure(
          issue: issue, name: "Browser start-up alone (`stash-tui --version`)",
          result: start.cpu.text(3, unit: " s") + " CPU", target: "report", verdict: .info,
          note: "wall " + start.wall.text(3, unit: " s") + "; peak memory " + start.peak.text(1, unit: " MB")
            + ": the part of the first screen spent before the folder is opened"))
    }
    // Every memo read, as the browser has it once its background reading is done (render-once
    // without --first-screen reads the whole folder before it renders).
    let full = try RepeatedRuns([tui, "--render-once", "120x40", memos.folder], count: quick ? 3 : 5)
    figures.append(
      Figure(
        issue: issue, name: "Browser, \(memos.count) memos: every row read",
        result: full.wall.text(3, unit: " s"),
        target: "report", verdict: .info,
        note:
          "render-once without --first-screen; peak memory " + full.peak.text(1, unit: " MB") + "; CPU time "
          + full.cpu.text(3, unit: " s")))
  }

}
