import Foundation

extension Harness {
  /// The browser's first screen on the memo folder: `stash-tui --render-once --first-screen` (the
  /// real update step and view, the list from the folder's names as the browser draws it before
  /// it reads any memo or counts the other files (issue 45 §3), the screen rendered into the cell
  /// grid and printed, no curses), wall time and peak memory of the process; then the same with
  /// every memo read.
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
    // What no first screen can go below: every name read (`names-floor.c`, readdir alone, one
    // thread), each run beside one of the browser's so both see the same load.
    do {
      let floor = try compile("names-floor")
      var pairs: [(ours: ChildRun, floor: ChildRun)] = []
      for _ in 0..<runs {
        let names = try ChildRun.checked([floor, memos.folder])
        pairs.append((try ChildRun.checked(command, keepOutput: false), names))
      }
      let ratios = Runs(values: pairs.map { $0.ours.wall / $0.floor.wall })
      figures.append(
        Figure(
          issue: issue, name: "Browser first screen over reading the names alone, \(memos.count) memos",
          result: ratios.text(2, unit: "x"), target: "report", verdict: .info,
          note:
            "readdir alone (`Benchmarks/names-floor.c`, 1 thread) "
            + Runs(values: pairs.map(\.floor.wall)).text(3, unit: " s") + ", CPU "
            + Runs(values: pairs.map(\.floor.cpu)).text(3, unit: " s") + "; the first screen beside it "
            + Runs(values: pairs.map(\.ours.wall)).text(3, unit: " s")))
    }
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

  /// Keys while the browser is still reading the folder (issue 20): the real browser in tmux,
  /// Down and Up in turn for as long as its header says it is reading, each press timed from
  /// `tmux send-keys` to capture-pane showing the selection moved (`Benchmarks/keys-while-filling.py`).
  mutating func keysWhileFilling(_ memos: MemoFolderCorpus) throws {
    let script = try ScriptResult(
      ["python3", repo + "/Benchmarks/keys-while-filling.py", tui, memos.folder, "\(memos.count)"])
    let object = script.object
    guard let keys = object["keys"] as? Int, let reading = object["reading_after_first_screen_s"] as? Double,
      let shown = object["first_screen_s"] as? Double
    else { throw HarnessError("keys-while-filling.py printed no result") }
    let p90 = script.latencies?.p90
    let result =
      if let (median, p90, worst) = script.latencies {
        String(format: "%.0f ms median, %.0f ms p90, %.0f ms worst (%d presses)", median, p90, worst, keys)
      } else { "no press made while reading" }
    figures.append(
      Figure(
        issue: "#20", name: "Keys while the rest is read, \(memos.count) memos", result: result,
        target: "≤ 50 ms", verdict: p90.map { .verdict($0 <= 50 && keys >= 20) } ?? .fail,
        note:
          "the browser in tmux 120x40, Down and Up in turn from `tmux send-keys` to capture-pane showing the "
          + "selection moved (tmux included: an upper bound), every press made while the header said reading; "
          + String(format: "the reading went on %.1f s after the first screen, ", reading)
          + String(format: "which tmux showed %.3f s after launch; verdict on the 90th percentile", shown)))
  }

}
