import Foundation

extension Harness {
  /// Voice boost (issue #35): synthetic speech (espeak-ng) with pauses of 0.1 to 5 s over pink noise
  /// at -45 dBFS, made quiet (about -35 LUFS) and loud (-12 LUFS), each played by `stash-tui --play
  /// --voice-boost` into ALSA's `file` PCM; the output's integrated loudness and true peak by
  /// ffmpeg's `ebur128`. Then the CPU while playing with it on, through the null PCM paced to real
  /// time, beside the same stretch played without it.
  mutating func voiceBoost(_ audio: AudioCorpus) throws {
    let speech = try Self.speechWithPauses()
    var notes: [String] = []
    var worstLoudness = 0.0
    var worstPeak = -Double.infinity
    for (label, target) in [("quiet", -35.0), ("loud", -12.0)] {
      let memo = Harness.scratch + "/voice-\(label)_audio.m4a"
      // The loud one is compressed and limited as a phone's automatic gain leaves it (a plain gain
      // would clip), its gain found in a few passes since the limiter takes some of it back.
      var gain = target - (try Self.loudness(of: speech)).integrated
      var before = (integrated: 0.0, truePeak: 0.0)
      for _ in 0..<(target > -20 ? 4 : 1) {
        let chain =
          target > -20
          ? String(format: "acompressor=threshold=0.05:ratio=8:attack=1:release=50,volume=%.2fdB,", gain)
            + "alimiter=limit=0.85:attack=0.5:release=10:level=false"
          : String(format: "volume=%.2fdB", gain)
        _ = try ChildRun.checked(
          [
            "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", speech, "-af", chain,
            "-ac",
            "1", "-ar", "48000", "-c:a", "aac", "-b:a", "96k", memo,
          ], keepOutput: false)
        before = try Self.loudness(of: memo)
        gain += target - before.integrated
      }
      let raw = Harness.scratch + "/voice-\(label).raw"
      _ = try ChildRun.checked(
        [tui, "--play", memo, "--device", "file:FILE=\(raw),FORMAT=raw", "--voice-boost"], keepOutput: false)
      let after = try Self.loudness(of: raw, rawFloat: true)
      try? FileManager.default.removeItem(atPath: raw)
      worstLoudness = max(worstLoudness, abs(after.integrated + 16))
      worstPeak = max(worstPeak, after.truePeak)
      notes.append(
        String(
          format: "%@ memo %.1f LUFS (peak %.1f dBTP) → %.1f LUFS, peak %.1f dBTP", label, before.integrated,
          before.truePeak, after.integrated, after.truePeak))
    }
    figures.append(
      Figure(
        issue: "#35", name: "Voice boost: loudness of a quiet and a loud memo",
        result: String(format: "within %.1f LU of -16 LUFS", worstLoudness), target: "within 1 LU",
        verdict: .verdict(worstLoudness <= 1),
        note: notes.joined(separator: "; ") + "; espeak-ng speech, pauses 0.1–5 s, pink noise at -45 dBFS"))
    figures.append(
      Figure(
        issue: "#35", name: "Voice boost: true peak", result: String(format: "%.1f dBTP", worstPeak),
        target: "≤ -1 dBTP", verdict: .verdict(worstPeak <= -1), note: "the same two runs, ebur128 peak=true")
    )

    let seconds = 60
    var boosted: [Double] = []
    var enhanced: [Double] = []
    var plain: [Double] = []
    for run in 0..<(quick ? 1 : 3) {
      let from = 600 + run * 300
      for setting in [["--voice-boost"], ["--enhance"], []] {
        let child = try ChildRun.checked(
          [
            tui, "--play", audio.fortyMinutes, "--from", "\(from)", "--to", "\(from + seconds)", "--device",
            "null",
          ] + setting,
          environment: ["STASH_ALSA_PACE": "1"], keepOutput: false)
        let share = child.cpu / child.wall * 100
        switch setting.first {
        case "--voice-boost": boosted.append(share)
        case "--enhance": enhanced.append(share)
        default: plain.append(share)
        }
      }
    }
    let share = Runs(values: boosted)
    figures.append(
      Figure(
        issue: "#35", name: "CPU while playing with voice boost", result: share.text(2, unit: " % of a core"),
        target: "< 3 %", verdict: .verdict(share.median < 3),
        note:
          "\(seconds) s of the 40-minute memo per run through the paced null PCM, start-up included; "
          + "without it in the same runs " + Runs(values: plain).text(2, unit: " %")))
    let reducing = Runs(values: enhanced)
    figures.append(
      Figure(
        issue: "#35", name: "CPU while playing with enhance (noise reduction)",
        result: reducing.text(2, unit: " % of a core"), target: "< 3 %",
        verdict: .verdict(reducing.median < 3),
        note:
          "the same runs, `--enhance` (afftdn); without it " + Runs(values: plain).text(2, unit: " %")))
  }

  /// Sentences said by espeak-ng with a pause of 0.1 to 5 s after each, over pink noise at -45
  /// dBFS, 48 kHz mono WAV; made once per run.
  static func speechWithPauses() throws -> String {
    let path = Harness.scratch + "/voice-speech.wav"
    if FileManager.default.fileExists(atPath: path) { return path }
    let sentences = [
      "The path goes along the river to the old mill.", "We turned left at the bridge.",
      "Remember to buy bread tomorrow morning.", "It was quiet by the water, and then the wind came up.",
      "The mill used to grind flour for the whole valley.", "I think we should come back in the spring.",
    ]
    let pauses = [0.1, 0.4, 1.0, 2.0, 3.5, 5.0]
    var inputs: [String] = []
    var filter = ""
    for (index, sentence) in sentences.enumerated() {
      let said = Harness.scratch + "/voice-\(index).wav"
      _ = try ChildRun.checked(["espeak-ng", "-v", index % 2 == 0 ? "en" : "en-us", "-w", said, sentence])
      inputs += ["-i", said]
      filter +=
        "[\(index):a]aresample=48000,apad=pad_dur=\(pauses[index])[s\(index)];"
    }
    filter +=
      (0..<sentences.count).map { "[s\($0)]" }.joined() + "concat=n=\(sentences.count):v=0:a=1[speech];"
    filter +=
      "anoisesrc=color=pink:amplitude=0.0056:sample_rate=48000:seed=7[noise];"
      + "[speech][noise]amix=inputs=2:duration=first:normalize=0[out]"
    _ = try ChildRun.checked(
      ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + inputs
        + ["-filter_complex", filter, "-map", "[out]", "-ac", "1", "-ar", "48000", path], keepOutput: false)
    return path
  }

  /// The integrated loudness (LUFS) and true peak (dBTP) ffmpeg's `ebur128` gives for a file, or for
  /// raw 48 kHz mono float samples.
  static func loudness(of path: String, rawFloat: Bool = false) throws -> (
    integrated: Double, truePeak: Double
  ) {
    let input = rawFloat ? ["-f", "f32le", "-ar", "48000", "-ac", "1", "-i", path] : ["-i", path]
    let child = try ChildRun.checked(
      ["ffmpeg", "-nostdin", "-hide_banner", "-nostats", "-y"] + input
        + ["-af", "ebur128=peak=true", "-f", "null", "-"])
    // The summary comes last on standard error: "I:  -16.0 LUFS" and, under True peak, "Peak: -1.2 dBFS".
    let summary = child.stderr.components(separatedBy: "Summary:").last ?? ""
    func value(after label: String) -> Double? {
      guard let range = summary.range(of: label) else { return nil }
      let rest = summary[range.upperBound...].drop { $0 == " " }
      return Double(rest.prefix { $0 == "-" || $0 == "." || $0.isNumber })
    }
    guard let integrated = value(after: "I:"), let peak = value(after: "Peak:") else {
      throw HarnessError("ebur128 said no loudness for \(path)")
    }
    return (integrated, peak)
  }
}
