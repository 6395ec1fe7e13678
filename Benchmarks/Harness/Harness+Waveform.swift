import Foundation

extension Harness {
  /// The waveform strip (issue #36) on the two-hour memo: the measure alone (`stash-tui --waveform`,
  /// the same `LoudnessProfile` the browser runs, in one pass: what a cache would save), then the real
  /// browser in tmux (`Benchmarks/waveform-strip.py`): the strip around the head and whole after
  /// Space, keys while it is measured, and the browser's CPU once it is whole with the strip drawn
  /// against a terminal too short for it.
  mutating func waveform(_ audio: AudioCorpus) throws {
    let alone = try RepeatedRuns(
      [tui, "--waveform", audio.twoHours, "--points", "1000"], count: quick ? 2 : runs)
    figures.append(
      Figure(
        issue: "#36", name: "Loudness of a two-hour memo, measured alone (1,000 cells)",
        result: alone.wall.text(2, unit: " s"), target: "report", verdict: .info,
        note: "`stash-tui --waveform --points 1000`, one thread; CPU " + alone.cpu.text(2, unit: " s")
          + ": the most a cache of strips could save on opening a memo"))
    var around: [Double] = []
    var whole: [Double] = []
    var p90: [Double] = []
    var keys = 0
    var extra: [Double] = []
    var notes: [String] = []
    for _ in 0..<(quick ? 1 : 3) {
      let child = try ChildRun.checked(
        [
          "python3", repo + "/Benchmarks/waveform-strip.py", tui, audio.twoHours, audio.finished[0],
          quick ? "5" : "10",
        ])
      guard let line = child.stdout.split(separator: "\n").last,
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let a = object["around_s"] as? Double, let w = object["whole_s"] as? Double,
        let strip = object["cpu_strip_percent"] as? Double,
        let plain = object["cpu_plain_percent"] as? Double,
        let presses = object["keys"] as? Int
      else { throw HarnessError("waveform-strip.py printed no result") }
      around.append(a)
      whole.append(w)
      extra.append(strip - plain)
      keys += presses
      if let value = object["p90_ms"] as? Double { p90.append(value) }
      notes.append(String(format: "%.2f %% with the strip, %.2f %% without", strip, plain))
    }
    let tmuxNote =
      "the browser in tmux 120x40 playing to the paced null PCM, from `send-keys Space` to capture-pane "
    figures.append(
      Figure(
        issue: "#36", name: "Waveform strip around the playing position, two-hour memo",
        result: Runs(values: around).text(3, unit: " s"), target: "≤ 0.3 s",
        verdict: .verdict(Runs(values: around).max <= 0.3),
        note: tmuxNote + "showing the columns within 3 of the head known (tmux included: an upper bound)"))
    figures.append(
      Figure(
        issue: "#36", name: "Waveform strip whole, two-hour memo",
        result: Runs(values: whole).text(2, unit: " s"),
        target: "≤ 5 s", verdict: .verdict(Runs(values: whole).max <= 5),
        note: tmuxNote + "showing no unknown column"))
    let keysRuns = Runs(values: p90)
    figures.append(
      Figure(
        issue: "#36", name: "Keys while the strip is measured (p90)",
        result: p90.isEmpty
          ? "no press made while measuring" : keysRuns.text(0, unit: " ms") + " (\(keys) presses)",
        target: "≤ 50 ms", verdict: p90.isEmpty ? .fail : .verdict(keysRuns.max <= 50),
        note: "Down and Up in turn while the strip had unknown columns, timed as the keys row times them"))
    let extraRuns = Runs(values: extra)
    figures.append(
      Figure(
        issue: "#36", name: "Extra CPU while playing, strip whole and drawn",
        result: extraRuns.text(2, unit: " % of a core"), target: "< 1 %",
        verdict: .verdict(extraRuns.median < 1),
        note: "the browser's CPU at 120x40 less at 120x11 (too short for the strip), "
          + (quick ? "5" : "10") + " s each, same run: " + notes.joined(separator: "; ")))
  }
}
