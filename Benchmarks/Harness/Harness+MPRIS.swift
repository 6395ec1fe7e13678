import Foundation

extension Harness {
  /// An MPRIS Seek reaching the device (issue 19): `Benchmarks/mpris-seek.py` starts a session bus
  /// and the browser in tmux on ALSA's file PCM paced to real time, and its client times each
  /// Player.Seek from just before the call until the first frame of the new place is in the file.
  mutating func mprisSeek() throws {
    let trials = quick ? 15 : 40
    let result = try ScriptResult(["python3", repo + "/Benchmarks/mpris-seek.py", tui, "\(trials)"])
    let object = result.object
    guard let heard = object["heard"] as? Int, let (median, p90, max) = result.latencies else {
      throw HarnessError("mpris-seek.py printed no seek")
    }
    figures.append(
      Figure(
        issue: "#19", name: "MPRIS Seek to the device",
        result: String(
          format: "%.0f ms median, %.0f ms p90, %.0f ms max (%d of %d seeks)", median, p90, max, heard, trials
        ),
        target: "≤ 100 ms", verdict: .verdict(p90 <= 100 && heard == trials),
        note:
          "Player.Seek on the session bus to the first frame of the new place in ALSA's file PCM, paced; "
          + "the same seek without the bus (--control): "
          + ((object["control_median_ms"] as? Double).map { String(format: "%.0f ms median", $0) } ?? "—")))
  }
}
