import Foundation
import StashFormat

extension Harness {
  /// A clip (issue 48 §2): `stash export --clip` of 2 minutes out of the two-hour memo, to m4a;
  /// the whole command, start-up included. It copies frames and must not decode: the time is the
  /// index read and the frames copied. The clip is checked with ffprobe for its length.
  mutating func clip(_ audio: AudioCorpus) throws {
    let folder = Harness.scratch + "/clip-memos"
    try Files.makeFolder(folder)
    let memo = folder + "/2026-03-14T08-05-12_audio.m4a"
    if !FileManager.default.fileExists(atPath: memo) {
      try FileManager.default.linkItem(atPath: audio.twoHours, toPath: memo)
    }
    let out = Harness.scratch + "/clip-out.m4a"
    var walls: [Double] = []
    for run in 0..<(quick ? 3 : 7) {
      let from = 1800 + run * 600
      try? FileManager.default.removeItem(atPath: out)
      let child = try ChildRun.checked(
        [stash, "export", memo, "--clip", "\(from)-\(from + 120)", "--to", "m4a", "-o", out],
        keepOutput: false)
      walls.append(child.wall)
    }
    let probe = try ChildRun.checked(
      ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", out])
    let length = Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
    let runs = Runs(values: walls)
    figures.append(
      Figure(
        issue: "#48", name: "A 2-minute clip from a two-hour memo (`stash export --clip`, m4a)",
        result: String(format: "%.3f s (%.3f–%.3f, %d runs)", runs.median, runs.min, runs.max, walls.count),
        target: "≤ 0.1 s", verdict: .verdict(runs.median <= 0.1 && abs(length - 120) <= 1024.0 / 48000),
        note: String(format: "frames copied, not decoded; ffprobe gives the clip %.4f s", length)))
  }

  /// A bookmark from the browser's key (issue 48 §1): the real browser in tmux on a memo with 40
  /// cues, `b` on each cue in turn, timed from `tmux send-keys` until the bookmarks file is a new
  /// file (written, fsynced and renamed into place) (`Benchmarks/bookmark-key.py`).
  mutating func bookmarkKey(_ audio: AudioCorpus) throws {
    let folder = Harness.scratch + "/bookmark-memos"
    try Files.makeFolder(folder)
    let base = "2026-03-14T08-05-12"
    let memo = folder + "/\(base)_audio.m4a"
    if !FileManager.default.fileExists(atPath: memo) {
      try FileManager.default.linkItem(atPath: audio.twoHours, toPath: memo)
    }
    let cues = (0..<40).map { i in
      "\(WebVTTTimestamp.format(Double(i) * 2)) --> \(WebVTTTimestamp.format(Double(i) * 2 + 2))\nBench cue number \(i).\n"
    }
    try Files.write(folder + "/\(base)_transcription.vtt", "WEBVTT\n\n" + cues.joined(separator: "\n"))
    let result = try ScriptResult(
      ["python3", repo + "/Benchmarks/bookmark-key.py", tui, folder, base, quick ? "15" : "30"])
    guard let presses = result.object["presses"] as? Int, let (median, p90, worst) = result.latencies else {
      throw HarnessError("bookmark-key.py printed no press")
    }
    figures.append(
      Figure(
        issue: "#48", name: "A bookmark from the browser's key, on disk",
        result: String(
          format: "%.1f ms median, %.1f ms p90, %.1f ms worst (%d presses)", median, p90, worst, presses),
        target: "≤ 50 ms", verdict: .verdict(p90 <= 50),
        note:
          "the browser in tmux 120x40, b on a cue, from `tmux send-keys` until the bookmarks file is a new file "
          + "(written to a temporary file, fsynced, renamed, the folder fsynced); tmux included: an upper bound; "
          + "verdict on the 90th percentile"))
  }
}
