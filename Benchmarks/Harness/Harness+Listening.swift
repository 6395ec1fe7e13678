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
  /// time, as `playingCPU` does at 1×, beside a run at 1× in the same loop. A minute of the memo
  /// (half a minute played), so that the start-up, counted in, weighs little.
  mutating func speedCPU(_ audio: AudioCorpus) throws {
    let seconds = 60
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

  /// How long a speed change, a volume change, turning skip silence (medium) or the voice boost on
  /// or off, skip silence with the boost on, and a seek at 2× take to reach the device: the
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
    let names = [
      "speed": "A speed change", "volume": "A volume change", "boost": "Voice boost on or off",
      "skip": "Skip silence on or off", "skip boosted": "Skip silence on or off, voice boost on",
      "seek at 2x": "A seek at 2x", "enhance": "Enhance on or off, voice boost on",
      "skip enhanced": "Skip silence on or off, voice boost and enhance on",
    ]
    for kind in [
      "speed", "volume", "skip", "boost", "skip boosted", "enhance", "skip enhanced", "seek at 2x",
    ] {
      let values = latencies[kind] ?? []
      guard values.count == count else {
        throw HarnessError("the \(kind) hook gave \(values.count) of \(count) changes")
      }
      let runs = Runs(values: values)
      figures.append(
        Figure(
          issue: ["boost", "skip", "skip boosted", "enhance", "skip enhanced"].contains(kind) ? "#35" : "#19",
          name: "\(names[kind]!) reaches the device",
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

extension Harness {
  /// The levels skip silence is measured at, with the length each keeps of a long pause.
  static let skipLevels: [(name: String, kept: Double)] = [("mild", 0.5), ("medium", 0.3), ("strong", 0.15)]

  /// Skip silence (issue #35): synthetic speech (espeak-ng) with known pauses of 0.1-5 s, over
  /// pink noise at -45 and at -30 dBFS, played by `stash-tui --play --skip-silence=LEVEL` into
  /// ALSA's `file` PCM. What reached it is lined up with ffmpeg's decode of the memo (runs of
  /// equal samples; the 5 ms cross-fades match neither side), which says which memo frames were
  /// played: its length against the rules' length, and whether every sentence's first 50 ms (and
  /// the 5 ms before) came through.
  mutating func skipSilenceLength() throws {
    var worst = 0.0
    var onsets = 0
    var present = 0
    var notes: [String] = []
    for bed in [-45.0, -30.0] {
      let memo = try SpeechWithPauses.make(bed: bed, name: "skip\(Int(-bed))")
      for level in Self.skipLevels {
        let raw = Harness.scratch + "/skip-\(Int(-bed))-\(level.name).raw"
        _ = try ChildRun.checked(
          [
            tui, "--play", memo.path, "--device", "file:FILE=\(raw),FORMAT=raw",
            "--skip-silence=\(level.name)",
          ], keepOutput: false)
        let played = try Self.floats(raw)
        try? FileManager.default.removeItem(atPath: raw)
        let rules = memo.rulesFrames(kept: level.kept)
        let ratio = Double(played.count) / Double(rules)
        worst = max(worst, abs(ratio - 1))
        let segments = SpeechWithPauses.lineUp(played, with: memo.decoded)
        let heard = memo.onsets.filter { onset in
          segments.contains { $0.lowerBound <= onset - 240 && onset + 2_400 <= $0.upperBound }
        }
        onsets += memo.onsets.count
        present += heard.count
        notes.append(
          String(
            format: "%d dBFS %@: %.2f s of %.2f s (rules %.2f s, %+.1f %%)", Int(bed), level.name,
            Double(played.count) / 48_000, Double(memo.decoded.count) / 48_000, Double(rules) / 48_000,
            (ratio - 1) * 100))
      }
    }
    figures.append(
      Figure(
        issue: "#35", name: "Skip silence: played length against the rules' (mild, medium, strong)",
        result: String(format: "±%.2f %%", worst * 100), target: "within 3 %",
        verdict: .verdict(worst <= 0.03),
        note: "espeak-ng speech, 0.1-5 s pauses, pink noise under it; the rules: speech is where the clean "
          + "voice is louder than the noise, each pause keeps min(pause, level); "
          + notes.joined(separator: "; ")))
    figures.append(
      Figure(
        issue: "#35", name: "Skip silence: sentence onsets present", result: "\(present) of \(onsets)",
        target: "all", verdict: .verdict(onsets > 0 && present == onsets),
        note: "the 5 ms before each sentence and its first 50 ms, as decoded, in what reached the device"))
  }

  /// The clock against what is played after ten minutes of memo at 2× with skip silence (strong):
  /// the speech memo twelve times over (10.3 min) through the `file` PCM paced to real time
  /// (`Benchmarks/clock-drift.py`): how far the clock has moved from the sentence onsets played by
  /// the last minutes, against the first ones.
  mutating func skipSilenceClock() throws {
    let memo = try SpeechWithPauses.make(bed: -45, name: "skip-drift", repeats: 12)
    let onsets = memo.onsets.map { String(format: "%.4f", Double($0) / 48_000) }.joined(separator: ",")
    let child = try ChildRun.checked(
      ["python3", repo + "/Benchmarks/clock-drift.py", tui, memo.path, "2", "strong", onsets])
    guard let line = child.stdout.split(separator: "\n").last,
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let matched = object["matched"] as? Int, let failures = object["failures"] as? Int
    else { throw HarnessError("clock-drift.py printed no result") }
    let drift = object["drift_ms"] as? Double
    // An underrun would shift what follows it in time, which the file does not show.
    let underruns = object["underruns"] as? Int ?? -1
    figures.append(
      Figure(
        issue: "#35", name: "Skip silence: the clock against what is played after 10 minutes of memo",
        result: drift.map { String(format: "%+.0f ms", $0) } ?? "—", target: "within 50 ms",
        verdict: .verdict(failures == 0 && underruns == 0 && abs(drift ?? .infinity) <= 50),
        note: String(
          format: "strong, 2x, the %.0f s speech memo 12 times over (%.0f s of memo played in %.0f s) on the "
            + "paced file PCM, %ld underruns; %ld of %ld sentence onsets found in what was played; the clock's "
            + "place for each "
            + "onset (from the positions polled while it played) against where it was played, after 600 s of "
            + "memo less the same in its first two minutes", memo.seconds / 12, memo.seconds,
          object["played_seconds"] as? Double ?? 0, underruns, matched, memo.onsets.count)))
  }

  /// CPU while playing with skip silence on (medium), at 1× and 2×: the speech memo over -45 dBFS
  /// noise through the null PCM paced to real time, start-up included.
  mutating func skipSilenceCPU() throws {
    let memo = try SpeechWithPauses.make(bed: -45, name: "skip-cpu")
    var shares: [Double: [Double]] = [:]
    for _ in 0..<(quick ? 1 : 3) {
      for speed in [1.0, 2.0] {
        let child = try ChildRun.checked(
          [tui, "--play", memo.path, "--device", "null", "--speed", "\(speed)", "--skip-silence"],
          environment: ["STASH_ALSA_PACE": "1"], keepOutput: false)
        shares[speed, default: []].append(child.cpu / child.wall * 100)
      }
    }
    for (speed, target) in [(1.0, 3.0), (2.0, 4.0)] {
      let share = Runs(values: shares[speed] ?? [])
      figures.append(
        Figure(
          issue: "#35", name: "CPU while playing with skip silence at \(Int(speed))x",
          result: share.text(2, unit: " % of a core"), target: String(format: "< %.0f %%", target),
          verdict: .verdict(share.median < target),
          note: String(format: "the %.0f s speech memo, played whole (its pauses shortened)", memo.seconds)))
    }
  }
}

/// A memo of synthetic speech with known pauses, made at bench time: espeak-ng says each sentence,
/// its leading and trailing silence is cut, and the sentences are laid end to end with the pauses
/// between them (a second of background first), pink noise at `bed` dBFS RMS under everything; AAC
/// in an MP4, as the phone writes, decoded again by ffmpeg.
struct SpeechWithPauses {
  static let sentences = [
    "I walked down to the river this morning and the wind was strong",
    "There was a lot of traffic on the bridge",
    "Tomorrow I want to call the office about the plan",
    "The bakery on the corner has closed for the summer",
    "Remember to buy batteries for the radio",
    "We should leave before the rain starts",
  ]
  /// The pause after each sentence, seconds, in turn.
  static let pauses = [0.1, 0.4, 1.0, 2.5, 0.2, 5.0, 0.7, 3.0, 1.5, 0.1, 4.0, 0.3]

  var path: String
  /// ffmpeg's decode of the memo (48 kHz mono).
  var decoded: [Float]
  /// The clean speech, and the level of the noise under it (RMS).
  var clean: [Float]
  var bedRMS: Float
  /// Where each sentence starts (frames).
  var onsets: [Int]
  var seconds: Double { Double(decoded.count) / 48_000 }

  static func make(bed: Double, name: String, repeats: Int = 1) throws -> SpeechWithPauses {
    var spoken: [[Float]] = []
    for (index, sentence) in sentences.enumerated() {
      let wav = Harness.scratch + "/\(name)-sentence\(index).wav"
      let raw = wav + ".f32"
      _ = try ChildRun.checked(
        ["espeak-ng", "-v", "en", "-s", "150", "-w", wav, sentence], keepOutput: false)
      try AudioCorpus.ffmpeg(["-i", wav, "-ac", "1", "-ar", "48000", "-f", "f32le", raw])
      let samples = try Harness.floats(raw)
      guard let first = samples.firstIndex(where: { abs($0) > 0.003 }),
        let last = samples.lastIndex(where: { abs($0) > 0.003 })
      else { throw HarnessError("espeak-ng said nothing for '\(sentence)'") }
      spoken.append(Array(samples[first...last]))
    }
    var clean = [Float](repeating: 0, count: 48_000)
    var onsets: [Int] = []
    for (index, pause) in Array(repeating: pauses, count: max(1, repeats)).joined().enumerated() {
      onsets.append(clean.count)
      clean += spoken[index % spoken.count]
      clean += [Float](repeating: 0, count: Int(pause * 48_000))
    }
    let bedRMS = Float(pow(10, bed / 20))
    let noise = pink(frames: clean.count, rms: bedRMS)
    let mixed = zip(clean, noise).map { $0 + $1 }
    let raw = Harness.scratch + "/\(name).f32"
    try mixed.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: raw)) }
    let path = Harness.scratch + "/\(name)_audio.m4a"
    try AudioCorpus.ffmpeg([
      "-f", "f32le", "-ar", "48000", "-ac", "1", "-i", raw, "-c:a", "aac", "-b:a", "96k", "-aac_pns", "0",
      path,
    ])
    let decodedPath = Harness.scratch + "/\(name).decoded.f32"
    try AudioCorpus.ffmpeg(["-i", path, "-ac", "1", "-ar", "48000", "-f", "f32le", decodedPath])
    return SpeechWithPauses(
      path: path, decoded: try Harness.floats(decodedPath), clean: clean, bedRMS: bedRMS, onsets: onsets)
  }

  /// Pink noise (Paul Kellet's filter over a fixed pseudo-random sequence) at `rms`.
  static func pink(frames: Int, rms: Float) -> [Float] {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    var b = [Float](repeating: 0, count: 7)
    var noise = [Float](repeating: 0, count: frames)
    for i in 0..<frames {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let white = Float(Double(state >> 11) / Double(1 << 53) * 2 - 1)
      b[0] = 0.99886 * b[0] + white * 0.0555179
      b[1] = 0.99332 * b[1] + white * 0.0750759
      b[2] = 0.96900 * b[2] + white * 0.1538520
      b[3] = 0.86650 * b[3] + white * 0.3104856
      b[4] = 0.55000 * b[4] + white * 0.5329522
      b[5] = -0.7616 * b[5] - white * 0.0168980
      noise[i] = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + white * 0.5362
      b[6] = white * 0.115926
    }
    let measured = (noise.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(frames)).squareRoot()
    let scale = rms / Float(measured)
    return noise.map { $0 * scale }
  }

  /// The length the rules give (frames): speech is every 10 ms where the clean voice is louder
  /// than the noise under it; each run of other windows (a pause) keeps at most `kept` seconds.
  func rulesFrames(kept: Double) -> Int {
    let window = 480
    let keep = Int(kept * 48_000)
    var total = 0
    var pause = 0
    for start in stride(from: 0, to: clean.count, by: window) {
      let slice = clean[start..<min(clean.count, start + window)]
      let rms = (slice.reduce(Float(0)) { $0 + $1 * $1 } / Float(slice.count)).squareRoot()
      if rms > bedRMS {
        total += min(pause, keep) + slice.count
        pause = 0
      } else {
        pause += slice.count
      }
    }
    // The memo's end is as long as the decode (the coder pads a little).
    return total + min(pause + decoded.count - clean.count, keep)
  }

  /// The memo frames `played` carries, as runs: equal samples (to 1e-4) in order; after a
  /// difference (a cut's cross-fade) the next 32 played samples are looked for up to 6 s on.
  static func lineUp(_ played: [Float], with memo: [Float]) -> [Range<Int>] {
    func matches(_ i: Int, _ j: Int) -> Bool {
      guard i + 32 <= memo.count, j + 32 <= played.count else { return false }
      for k in 0..<32 where abs(memo[i + k] - played[j + k]) > 1e-4 { return false }
      return true
    }
    var runs: [Range<Int>] = []
    var j = 0
    var i = (0..<min(memo.count, 4_096)).first { matches($0, 0) } ?? 0
    while j < played.count && i < memo.count {
      let start = i
      while j < played.count && i < memo.count && abs(played[j] - memo[i]) <= 1e-4 {
        i += 1
        j += 1
      }
      if i > start { runs.append(start..<i) }
      // Past the cross-fade (240 frames), then where the memo goes on.
      j += 240
      guard let next = (i..<min(memo.count, i + 6 * 48_000)).first(where: { matches($0, j) }) else { break }
      i = next
    }
    return runs
  }
}
