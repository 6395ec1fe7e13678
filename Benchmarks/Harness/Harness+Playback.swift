import Foundation

extension Harness {
  /// Decoding the 40-minute memo: `stash-tui --play` into ALSA's null PCM (which takes frames at
  /// once: index, decode, ring and device writes) against `ffmpeg -i memo -f null -`, alternating.
  mutating func decode(_ audio: AudioCorpus) throws {
    var ours: [ChildRun] = []
    var theirs: [ChildRun] = []
    for _ in 0..<runs {
      ours.append(
        try ChildRun.checked([tui, "--play", audio.fortyMinutes, "--device", "null"], keepOutput: false))
      theirs.append(
        try ChildRun.checked(
          [
            "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-i", audio.fortyMinutes, "-f",
            "null", "-",
          ],
          keepOutput: false))
    }
    let wall = Runs(values: ours.map(\.wall))
    let ffmpegWall = Runs(values: theirs.map(\.wall))
    let cpu = Runs(values: ours.map(\.cpu))
    let ffmpegCpu = Runs(values: theirs.map(\.cpu))
    let ratio = wall.median / ffmpegWall.median
    figures.append(
      Figure(
        issue: "#6", name: "Decode a 40-minute memo, against `ffmpeg -f null`", result: ratioText(ratio),
        target: "≤ 1.2x", verdict: .verdict(ratio <= 1.2),
        note:
          "stash-tui \(wall.text(2, unit: " s")), ffmpeg \(ffmpegWall.text(2, unit: " s")); by CPU time "
          + "\(ratioText(cpu.median / ffmpegCpu.median)) (\(String(format: "%.2f", cpu.median)) s against "
          + "\(String(format: "%.2f", ffmpegCpu.median)) s)"))
  }

  /// Seeking in the two-hour memo while it plays, on a null PCM paced to real time
  /// (STASH_ALSA_PACE=1, so a seek meets a full ring and device buffer): the playback helper's
  /// `--measure-seeks` hook times each seek from the call to its first frame handed to ALSA.
  mutating func seeks(_ audio: AudioCorpus) throws {
    let count = quick ? 10 : 30
    let child = try ChildRun.checked(
      [tui, "--play", audio.twoHours, "--device", "null", "--measure-seeks", "\(count)"],
      environment: ["STASH_ALSA_PACE": "1"])
    var latencies: [Double] = []
    for line in child.stdout.split(separator: "\n") {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        object["target"] != nil, let ms = object["latency_ms"] as? Double
      else { continue }
      latencies.append(ms)
    }
    guard latencies.count == count else {
      throw HarnessError("--measure-seeks gave \(latencies.count) of \(count) seeks")
    }
    let seeks = Runs(values: latencies)
    let sorted = latencies.sorted()
    let p90 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.9).rounded(.up)) - 1)]
    figures.append(
      Figure(
        issue: "#6", name: "Seek in a two-hour memo, to the first new frame handed to ALSA",
        result: String(format: "%.1f ms (%.1f–%.1f, %d seeks)", seeks.median, seeks.min, seeks.max, count),
        target: "≤ 50 ms", verdict: .verdict(seeks.median <= 50),
        note: String(format: "90th percentile %.1f ms", p90)))
  }

  /// CPU while playing: a stretch of the 40-minute memo through the null PCM paced to real time;
  /// user plus system CPU of the whole process (start-up included) over its wall time.
  mutating func playingCPU(_ audio: AudioCorpus) throws {
    let seconds = quick ? 10 : 15
    var shares: [Double] = []
    for run in 0..<(quick ? 1 : 3) {
      let from = 600 + run * 300
      let child = try ChildRun.checked(
        [
          tui, "--play", audio.fortyMinutes, "--from", "\(from)", "--to", "\(from + seconds)", "--device",
          "null",
        ],
        environment: ["STASH_ALSA_PACE": "1"], keepOutput: false)
      shares.append(child.cpu / child.wall * 100)
    }
    let share = Runs(values: shares)
    figures.append(
      Figure(
        issue: "#6", name: "CPU while playing", result: share.text(2, unit: " % of a core"), target: "< 2 %",
        verdict: .verdict(share.median < 2), note: "\(seconds) s played per run, start-up included"))
  }
}
