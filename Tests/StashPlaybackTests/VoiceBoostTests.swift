import Foundation
import StashTestSupport
import Testing

@testable import StashPlayback

/// The voice boost, in-process: on ALSA's `file` PCM (what the device got, measured by ffmpeg's
/// `ebur128`, the reference) and on the simulated device (a toggle counted in frames).
@Suite struct VoiceBoostTests {
  /// `text` said by espeak-ng's English voice at 150 words a minute, as a WAV file at `path`.
  static func say(_ text: String, to path: String) throws {
    let spoken = try runProcess("espeak-ng", ["-v", "en", "-s", "150", "-w", path, text])
    guard spoken.status == 0 else { throw TestFailure("espeak-ng failed: \(spoken.standardError)") }
  }

  /// A memo of synthetic speech (espeak-ng): three sentences, then 2.5 s of pause, four times,
  /// every other pass at a third of the level (a voice that comes and goes), over pink noise
  /// 45 dB below the speech; brought to `lufs` integrated (the loud one by a limiter as well),
  /// as ADTS AAC; with ffmpeg's decode of it (priming dropped).
  static func memo(lufs: Double) throws -> (track: AudioTrack, reference: [Float]) {
    let folder = try TestAudio.folder()
    // The cases run side by side: each its own files.
    func path(_ name: String) -> String { folder.appendingPathComponent("\(Int(-lufs))-\(name)").path }
    func ffmpeg(_ arguments: [String]) throws {
      let result = try runProcess("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y"] + arguments)
      guard result.status == 0 else { throw TestFailure("ffmpeg failed: \(result.standardError)") }
    }
    let speech = path("boost-speech.wav")
    try Self.say(
      "I walked down to the river this morning and the wind was strong. There was a lot of traffic on the"
        + " bridge. Tomorrow I want to call the office about the plan.", to: speech)
    let padded = path("boost-padded.wav")
    try ffmpeg(["-i", speech, "-af", "apad=pad_dur=2.5,aresample=48000", "-ac", "1", padded])
    let pass = try Self.seconds(padded)
    let base = path("boost-base.wav")
    try ffmpeg([
      "-stream_loop", "3", "-i", padded, "-f", "lavfi", "-i",
      "anoisesrc=color=pink:amplitude=0.006:r=48000:seed=7",
      "-filter_complex",
      "[0]volume='if(lt(mod(t,\(2 * pass)),\(pass)),1,0.33)':eval=frame[v];[v][1]amix=inputs=2:duration=first:normalize=0",
      "-ac", "1", "-ar", "48000", base,
    ])
    // The loud one is compressed and limited, as a phone's automatic gain would leave it (peaks
    // well under full scale, or the encoder clips them), its gain found in passes since the
    // compressor, the limiter and the encoder's low-pass take some of it back.
    let memo = path("boost-\(Int(-lufs)).aac")
    let loud = lufs > -20
    var gain = lufs - (try Self.loudness(of: ["-i", base]).integrated)
    for _ in 0..<(loud ? 4 : 1) {
      let chain =
        loud
        ? "acompressor=threshold=0.05:ratio=8:attack=1:release=50,volume=\(gain)dB,"
          + "alimiter=limit=0.85:attack=0.5:release=10:level=false" : "volume=\(gain)dB"
      try ffmpeg(["-i", base, "-af", chain, "-c:a", "aac", "-b:a", "128k", "-aac_pns", "0", memo])
      gain += lufs - (try Self.loudness(of: ["-i", memo]).integrated)
    }
    let made = try Self.loudness(of: ["-i", memo])
    guard abs(made.integrated - lufs) <= 0.5 else {
      throw TestFailure("the \(lufs) LUFS memo came out at \(made.integrated) LUFS")
    }
    return (try ADTSTrack.read(memo), Array(try TestAudio.ffmpegDecode(memo).dropFirst(1024)))
  }

  static func seconds(_ path: String) throws -> Double {
    let result = try runProcess(
      "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])
    guard let value = Double(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw TestFailure("ffprobe: no duration for \(path): \(result.standardError)")
    }
    return value
  }

  /// ffmpeg's `ebur128` (true peak on) over `input`: integrated loudness (LUFS) and true peak (dBTP).
  static func loudness(of input: [String]) throws -> (integrated: Double, truePeak: Double) {
    let result = try runProcess(
      "ffmpeg", ["-hide_banner", "-nostats"] + input + ["-af", "ebur128=peak=true", "-f", "null", "-"])
    let summary = result.standardError.components(separatedBy: "Summary:").last ?? ""
    func value(after label: String) -> Double? {
      guard let line = summary.split(separator: "\n").first(where: { $0.contains(label) }) else { return nil }
      return line.split(separator: " ").compactMap { Double($0) }.first
    }
    guard let integrated = value(after: "I:"), let peak = value(after: "Peak:") else {
      throw TestFailure("no ebur128 summary in: \(result.standardError.suffix(600))")
    }
    return (integrated, peak)
  }

  /// How many dB the speech and the background in the pauses gained from `memo` to `out` (frame
  /// for frame): over 100 ms windows, the background is those within 3 dB of the quietest, the
  /// speech those 20 dB above it; each the median of the windows' gains.
  static func gains(memo: [Float], out: [Float]) -> (speech: Double, background: Double) {
    let window = 4_800
    let levels = stride(from: 0, to: memo.count - window, by: window).map { start in
      (
        memo: ListeningAudio.rms(memo[start..<(start + window)]),
        out: ListeningAudio.rms(out[start..<(start + window)])
      )
    }
    let quietest = levels.map(\.memo).filter { $0 > 0 }.min() ?? 1e-9
    func median(_ chosen: [(memo: Double, out: Double)]) -> Double {
      let gains = chosen.map { 20 * log10(max($0.out, 1e-12) / $0.memo) }.sorted()
      return gains.isEmpty ? .nan : gains[gains.count / 2]
    }
    return (
      median(levels.filter { $0.memo >= quietest * 10 }),
      median(levels.filter { $0.memo > 0 && $0.memo <= quietest * 1.41 })
    )
  }

  /// The raw float file ALSA's `file` PCM wrote, measured.
  static func loudness(ofRaw raw: String) throws -> (integrated: Double, truePeak: Double) {
    try loudness(of: ["-f", "f32le", "-ar", "48000", "-ac", "1", "-i", raw])
  }

  @Test func theBoosterOpensAndKnowsItsDelay() throws {
    guard case .success(let library) = VoiceBoostLibrary.shared else { Issue.record("no lib"); return }
    #expect(VoiceBooster.limiterDelay(library.calls, rate: 48_000, channels: 1) == 95)
    let booster = try #require(VoiceBooster(rate: 48_000, channels: 1, on: true, fadingIn: false))
    #expect(booster.delay == 95)
  }

  /// Mono `input` pushed through `stage` 512 frames at a time, then finished: all it gives.
  static func run(_ input: [Float], through stage: FilterBlend) -> [Float] {
    var output: [Float] = []
    for start in stride(from: 0, to: input.count, by: 512) {
      let count = min(512, input.count - start)
      #expect(
        input.withUnsafeBufferPointer {
          stage.push(UnsafeBufferPointer(rebasing: $0[start..<(start + count)]), frames: count)
        })
      stage.pull(into: &output)
    }
    stage.finish()
    stage.pull(into: &output)
    return output
  }

  /// A loudness stage does not move the sound in time: a burst that starts at frame 24,000 of
  /// the input starts at frame 24,000 of the output (the limiter's look-ahead taken off), and as
  /// many frames come out as went in.
  @Test func theBoostKeepsEveryFrameInPlace() throws {
    let booster = try #require(VoiceBooster(rate: 48_000, channels: 1, on: true, fadingIn: false))
    var input = [Float](repeating: 0, count: 48_000)
    for i in 24_000..<26_400 { input[i] = 0.05 * Float(sin(2 * Double.pi * 1_000 * Double(i) / 48_000)) }
    let output = Self.run(input, through: booster)
    #expect(output.count == input.count)
    let first = try #require(output.firstIndex { abs($0) > 1e-4 })
    // The burst's first sample is 0 and its second 0.0065: it shows from frame 24,001.
    #expect((24_000...24_002).contains(first), "the burst came out at frame \(first)")
  }

  /// Turned on and off in the middle of quiet tone bursts (200 ms of 375 Hz, whole periods, then
  /// 100 ms of silence, so the bursts stand above the noise floor), the boost fades in and out: no step from one
  /// sample to the next is larger than the boosted tone itself makes (a switch without the fade
  /// would jump by most of the boosted amplitude), and before it is turned on the tone passes
  /// bit for bit.
  @Test func turningItOnAndOffDoesNotClick() throws {
    let booster = try #require(VoiceBooster(rate: 48_000, channels: 1, on: false, fadingIn: false))
    let tone = (0..<(3 * 48_000)).map { i -> Float in
      i % 14_400 < 9_600 ? Float(0.02 * sin(2 * Double.pi * 375 * Double(i) / 48_000)) : 0
    }
    var output: [Float] = []
    for start in stride(from: 0, to: tone.count, by: 512) {
      booster.on = start >= 48_000 && start < 2 * 48_000
      let count = min(512, tone.count - start)
      let pushed = tone.withUnsafeBufferPointer {
        booster.push(UnsafeBufferPointer(rebasing: $0[start..<(start + count)]), frames: count)
      }
      #expect(pushed)
      booster.pull(into: &output)
    }
    booster.finish()
    booster.pull(into: &output)
    try #require(output.count == tone.count)
    #expect(TestAudio.maxDifference(output[..<24_000], tone[..<24_000]) == 0)
    let boosted = output[(48_000 + 4_800)..<(2 * 48_000)].reduce(0) { max($0, abs($1)) }
    #expect(boosted > 0.1, "the tone was boosted to \(boosted) only")
    let natural = Float(2 * Double.pi * 375 / 48_000) * boosted
    let step = ListeningAudio.largestStep(output[...])
    #expect(step < natural * 1.3, "a step of \(step) where the tone makes at most \(natural)")
  }

  /// With the boost on, a quiet memo (-35 LUFS) and a loud one (-12 LUFS) both reach the device
  /// at -16 LUFS integrated (within 1 LU) with the true peak at most -1 dBTP, the background in
  /// the pauses raised by no more than 6 dB (it was 38 dB without the noise floor); the device gets
  /// exactly as many frames as the memo has, and the clock ends at the memo's end.
  @Test(arguments: [-35.0, -12.0])
  func theBoostBringsAMemoToMinusSixteenLUFS(lufs: Double) throws {
    let (track, reference) = try Self.memo(lufs: lufs)
    let raw = try TestAudio.folder().appendingPathComponent("boost-out-\(Int(-lufs)).raw").path
    let player = Player(device: "file:FILE=\(raw),FORMAT=raw")
    #expect(player.setVoiceBoost(true) == nil)
    try player.load(track)
    player.play()
    let end = waitFor(player, seconds: 120) { $0.state != .playing && $0.state != .idle }
    #expect(end.state == .ended)
    #expect(end.position == Double(reference.count) / 48_000)
    let written = try TestAudio.floats(raw)
    #expect(written.count == reference.count)
    let measured = try Self.loudness(ofRaw: raw)
    #expect(abs(measured.integrated + 16) <= 1, "\(lufs) LUFS came out at \(measured.integrated) LUFS")
    if written.count == reference.count {
      let gains = Self.gains(memo: reference, out: written)
      // The pauses' background is not pumped up: it gains at most 6 dB, whatever the speech gains.
      #expect(
        gains.background <= 6, "the background gained \(gains.background) dB, the speech \(gains.speech) dB")
    }
    #expect(measured.truePeak <= -1, "\(lufs) LUFS came out with a true peak of \(measured.truePeak) dBTP")
  }

  /// With the speed: at 2× the boosted memo lasts half as long, still comes out near -16 LUFS,
  /// and the clock ends at the memo's end.
  @Test func theBoostWorksAtTwiceTheSpeed() throws {
    let (track, reference) = try Self.memo(lufs: -35)
    let raw = try TestAudio.folder().appendingPathComponent("boost-out-2x.raw").path
    let player = Player(device: "file:FILE=\(raw),FORMAT=raw")
    #expect(player.setSpeed(2) == nil)
    #expect(player.setVoiceBoost(true) == nil)
    try player.load(track)
    player.play()
    let end = waitFor(player, seconds: 120) { $0.state != .playing && $0.state != .idle }
    #expect(end.state == .ended)
    #expect(end.position == Double(reference.count) / 48_000)
    let written = try TestAudio.floats(raw)
    let ratio = Double(written.count) / (Double(reference.count) / 2)
    #expect(abs(ratio - 1) <= 0.01, "lasted \(ratio) of half the memo")
    let measured = try Self.loudness(ofRaw: raw)
    #expect(abs(measured.integrated + 16) <= 1, "came out at \(measured.integrated) LUFS at 2x")
    #expect(measured.truePeak <= -1, "came out with a true peak of \(measured.truePeak) dBTP at 2x")
  }

  /// On the simulated device (its clock is the frames the test lets it play): turned on while
  /// playing, the boost is in the frames handed over after those the device already holds, within
  /// 100 ms of frames; turned off, the memo's own samples come back, bit for bit, as soon; and
  /// the device gets every frame of the memo once (no gap, no repeat) with the clock in memo time.
  @Test func turningItOnAndOffWhilePlayingReachesTheDeviceWithin100ms() throws {
    let (track, reference) = try Self.memo(lufs: -35)
    let rig = ListeningTests.Rig()
    try rig.start(track, blocks: 10)
    let onAt = rig.device.heard.count + rig.device.queued
    #expect(rig.player.setVoiceBoost(true) == nil)
    #expect(rig.player.snapshot.voiceBoost)
    for _ in 0..<100 { rig.play(1200) }
    let offAt = rig.device.heard.count + rig.device.queued
    rig.player.setVoiceBoost(false)
    #expect(!rig.player.snapshot.voiceBoost)
    let heard = rig.playToTheEnd()
    #expect(rig.player.snapshot.state == .ended)
    #expect(rig.player.snapshot.position == Double(reference.count) / 48_000)
    #expect(heard.count == reference.count)
    guard heard.count == reference.count else { return }
    let within = 4_800  // 100 ms of frames
    let fade = Int(VoiceBooster.fadeSeconds * 48_000)
    func differs(_ i: Int) -> Bool { abs(heard[i] - reference[i]) > 1e-6 }
    // Before: the memo as it is.
    #expect(!(0..<onAt).contains(where: differs))
    // On: the first boosted frame comes at most 100 ms of frames after those already handed.
    let firstBoosted = try #require((onAt..<offAt).first(where: differs))
    #expect(firstBoosted - onAt <= within, "the boost began \(firstBoosted - onAt) frames after it was asked")
    let boostedRMS = ListeningAudio.rms(heard[(onAt + within + fade)..<offAt])
    let memoRMS = ListeningAudio.rms(reference[(onAt + within + fade)..<offAt])
    #expect(boostedRMS > memoRMS * 4, "boosted \(boostedRMS) against the memo's \(memoRMS)")
    // Off: the memo's own samples again, bit for bit, within 100 ms of frames and the fade.
    let lastBoosted = try #require((offAt..<heard.count).last(where: differs))
    #expect(lastBoosted - offAt <= within + fade, "the boost ended \(lastBoosted - offAt) frames after")
  }
}
