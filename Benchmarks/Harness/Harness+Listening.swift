import Foundation

extension Harness {
  /// Speed with the pitch kept (issue #19): a 440 Hz tone played by `stash-tui --play --speed X`
  /// into ALSA's `file` PCM, its pitch (rising zero crossings over the middle 80 %) and its length
  /// against 1/X of the memo's.
  mutating func speedPitch() throws {
    let tone = Harness.scratch + "/tone-440_audio.m4a"
    let seconds = 10.0
    _ = try ChildRun.checked(
      [
        "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "sine=frequency=440:duration=\(seconds)", "-ac", "1", "-ar", "48000", "-c:a", "aac", "-b:a", "32k",
        tone,
      ], keepOutput: false)
    var worstPitch = 0.0
    var worstLength = 0.0
    var notes: [String] = []
    for speed in [0.5, 1.5, 2.0] {
      let raw = Harness.scratch + "/tone-\(speed).raw"
      _ = try ChildRun.checked(
        [tui, "--play", tone, "--device", "file:FILE=\(raw),FORMAT=raw", "--speed", "\(speed)"],
        keepOutput: false)
      let samples = try Self.floats(raw)
      try? FileManager.default.removeItem(atPath: raw)
      guard let frequency = Self.frequency(samples) else { throw HarnessError("no tone at \(speed)x") }
      // The memo holds the tone less the AAC priming, which playing leaves out.
      let length = Double(samples.count) / 48_000 / (seconds / speed)
      worstPitch = max(worstPitch, abs(frequency - 440))
      worstLength = max(worstLength, abs(length - 1))
      notes.append(String(format: "%gx: %.2f Hz, length %.4f of 1/%g", speed, frequency, length, speed))
    }
    figures.append(
      Figure(
        issue: "#19", name: "Pitch kept at 0.5x, 1.5x, 2x (440 Hz tone, ALSA file PCM)",
        result: String(format: "±%.2f Hz", worstPitch), target: "440 ± 2 Hz",
        verdict: .verdict(worstPitch <= 2), note: notes.joined(separator: "; ")))
    figures.append(
      Figure(
        issue: "#19", name: "Length at speed X against 1/X of the memo",
        result: String(format: "±%.2f %%", worstLength * 100),
        target: "within 1 %", verdict: .verdict(worstLength <= 0.01), note: "the same three runs"))
  }

  /// CPU while playing at 2×: a stretch of the 40-minute memo through the null PCM paced to real
  /// time, as `playingCPU` does at 1×, beside a run at 1× in the same loop.
  mutating func speedCPU(_ audio: AudioCorpus) throws {
    let seconds = quick ? 20 : 30
    var fast: [Double] = []
    var plain: [Double] = []
    for run in 0..<(quick ? 1 : 3) {
      let from = 600 + run * 300
      for speed in [2.0, 1.0] {
        let child = try ChildRun.checked(
          [
            tui, "--play", audio.fortyMinutes, "--from", "\(from)", "--to", "\(from + seconds)", "--device",
            "null", "--speed", "\(speed)",
          ],
          environment: ["STASH_ALSA_PACE": "1"], keepOutput: false)
        let share = child.cpu / child.wall * 100
        if speed == 1 { plain.append(share) } else { fast.append(share) }
      }
    }
    let share = Runs(values: fast)
    figures.append(
      Figure(
        issue: "#19", name: "CPU while playing at 2x", result: share.text(2, unit: " % of a core"),
        target: "< 3 %",
        verdict: .verdict(share.median < 3),
        note:
          "\(seconds) s of the memo per run (\(seconds / 2) s played), start-up included; at 1x in the same runs "
          + Runs(values: plain).text(2, unit: " %")))
  }

  /// How long a speed change, a volume change and a seek at 2× take to reach the device: the
  /// playback hooks time each from the call to the first frame made with it handed to ALSA's null
  /// PCM, paced to real time (so each meets a full device).
  mutating func changeLatency(_ audio: AudioCorpus) throws {
    let count = quick ? 8 : 20
    let changes = try ChildRun.checked(
      [tui, "--play", audio.fortyMinutes, "--device", "null", "--measure-changes", "\(count)"],
      environment: ["STASH_ALSA_PACE": "1"])
    var latencies: [String: [Double]] = [:]
    for line in changes.stdout.split(separator: "\n") {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let kind = object["change"] as? String, let ms = object["latency_ms"] as? Double
      else { continue }
      latencies[kind, default: []].append(ms)
    }
    let seeks = try ChildRun.checked(
      [tui, "--play", audio.twoHours, "--device", "null", "--speed", "2", "--measure-seeks", "\(count)"],
      environment: ["STASH_ALSA_PACE": "1"])
    for line in seeks.stdout.split(separator: "\n") {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        object["target"] != nil, let ms = object["latency_ms"] as? Double
      else { continue }
      latencies["seek at 2x", default: []].append(ms)
    }
    for kind in ["speed", "volume", "seek at 2x"] {
      let values = latencies[kind] ?? []
      guard values.count == count else {
        throw HarnessError("the \(kind) hook gave \(values.count) of \(count) changes")
      }
      let runs = Runs(values: values)
      figures.append(
        Figure(
          issue: "#19", name: "A \(kind == "seek at 2x" ? kind : kind + " change") reaches the device",
          result: String(format: "%.1f ms (%.1f–%.1f, %d)", runs.median, runs.min, runs.max, count),
          target: "< 100 ms", verdict: .verdict(runs.max < 100),
          note: "to the first frame made with it handed to the paced null PCM (its buffer: 100 ms more)"))
    }
  }

  /// The float32 samples of a raw file.
  static func floats(_ path: String) throws -> [Float] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.withUnsafeBytes { raw in
      (0..<raw.count / 4).map {
        Float(bitPattern: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))
      }
    }
  }

  /// A steady tone's frequency from its rising zero crossings over the middle 80 % of `samples`.
  static func frequency(_ samples: [Float], rate: Double = 48_000) -> Double? {
    var crossings: [Double] = []
    for i in max(1, samples.count / 10)..<(samples.count - samples.count / 10)
    where samples[i - 1] < 0 && samples[i] >= 0 {
      crossings.append(Double(i - 1) + Double(-samples[i - 1] / (samples[i] - samples[i - 1])))
    }
    guard crossings.count > 2 else { return nil }
    return Double(crossings.count - 1) / ((crossings.last! - crossings.first!) / rate)
  }
}
