import Foundation
import StashTestSupport
import Testing

@testable import StashPlayback

/// The noise reduction (`--enhance`), in-process: on ALSA's `file` PCM (what the device got,
/// compared window by window with ffmpeg's decode of the memo) and on the simulated device (a
/// toggle counted in frames).
@Suite struct NoiseReductionTests {
  /// A memo of synthetic speech (espeak-ng, the voice boost's three sentences) and 2.5 s of pause,
  /// twice, over pink noise at -30 dBFS RMS, as ADTS AAC; with ffmpeg's decode of it (priming
  /// dropped) and the speech alone, frame for frame, to tell the pauses from the speech.
  static func memo() throws -> (track: AudioTrack, reference: [Float], speech: [Float]) {
    let folder = try TestAudio.folder()
    func path(_ name: String) -> String { folder.appendingPathComponent("enhance-\(name)").path }
    let said = path("speech.wav")
    try VoiceBoostTests.say(
      "I walked down to the river this morning and the wind was strong. There was a lot of traffic on the"
        + " bridge. Tomorrow I want to call the office about the plan.", to: said)
    let padded = path("padded.wav")
    let result = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-stream_loop", "1", "-i", said, "-af",
        "apad=pad_dur=2.5,aresample=48000", "-ac", "1", "-ar", "48000", padded,
      ])
    guard result.status == 0 else { throw TestFailure("ffmpeg failed: \(result.standardError)") }
    let speech = try TestAudio.ffmpegDecode(padded)
    let noise = SkipSilenceAudio.bed(.noise(dbfs: -30), frames: speech.count, rate: 48_000)
    let raw = path("memo.f32")
    let memo = path("memo.aac")
    let mixed = zip(speech, noise).map { $0 + $1 }
    try mixed.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: raw))
    let encoded = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "f32le", "-ar", "48000", "-ac", "1", "-i", raw,
        "-c:a", "aac", "-b:a", "128k", "-aac_pns", "0", memo,
      ])
    guard encoded.status == 0 else { throw TestFailure("ffmpeg failed: \(encoded.standardError)") }
    let reference = Array(try TestAudio.ffmpegDecode(memo).dropFirst(1024))
    return (try ADTSTrack.read(memo), reference, speech)
  }

  /// How many dB the background in the pauses and the speech changed from `memo` to `out`: over
  /// 100 ms windows, the pauses are those where the speech alone is silent, the speech those
  /// where it is within 20 dB of its loudest; each the change of the windows' energy together.
  static func changes(memo: [Float], out: [Float], speech: [Float]) -> (pauses: Double, speech: Double) {
    let window = 4_800
    let count = min(memo.count, out.count, speech.count)
    let windows = stride(from: 0, to: count - window, by: window).map { $0..<($0 + window) }
    let loudest = windows.map { ListeningAudio.rms(speech[$0]) }.max() ?? 1
    func change(_ chosen: [Range<Int>]) -> Double {
      let before = chosen.reduce(0.0) { $0 + pow(ListeningAudio.rms(memo[$1]), 2) }
      let after = chosen.reduce(0.0) { $0 + pow(ListeningAudio.rms(out[$1]), 2) }
      return chosen.isEmpty ? .nan : 10 * log10(max(after, 1e-24) / max(before, 1e-24))
    }
    return (
      change(windows.filter { ListeningAudio.rms(speech[$0]) < 1e-5 }),
      change(windows.filter { ListeningAudio.rms(speech[$0]) > loudest * 0.1 })
    )
  }

  @Test func theReducerOpensAndKnowsItsDelay() throws {
    let reducer = try #require(NoiseReducer(rate: 48_000, channels: 1, on: true, fadingIn: false))
    // afftdn's window at 48 kHz is 2,400 frames, and it gives the first half a window late.
    #expect(reducer.delay == 1_200)
  }

  /// The floor's `nf`: 17 dB over the measured RMS, 20 dB down, within what afftdn takes.
  @Test func theNoiseFloorGivenFollowsTheMeasuredOne() {
    #expect(abs(NoiseReducer.noiseFloor(for: 0.0316) - -33) < 0.1)
    #expect(NoiseReducer.noiseFloor(for: 0.5) == -20)
    #expect(NoiseReducer.noiseFloor(for: 0) == -80)
  }

  /// The reduction does not move the sound in time: a burst that starts at frame 24,000 of the
  /// input starts at frame 24,000 of the output, and as many frames come out as went in.
  @Test func theReductionKeepsEveryFrameInPlace() throws {
    let reducer = try #require(NoiseReducer(rate: 48_000, channels: 1, on: true, fadingIn: false))
    var input = [Float](repeating: 0, count: 48_000)
    for i in 24_000..<26_400 { input[i] = 0.3 * Float(sin(2 * Double.pi * 1_000 * Double(i) / 48_000)) }
    let output = VoiceBoostTests.run(input, through: reducer)
    #expect(output.count == input.count)
    let loud = try #require(output.firstIndex { abs($0) > 0.1 })
    #expect((24_000...24_010).contains(loud), "the burst came out at frame \(loud)")
  }

  /// With the noise reduction on, the device gets the memo with the background in the pauses at
  /// least 6 dB lower and the speech within 1.5 dB of what it was; every frame, with the clock
  /// ending at the memo's end.
  @Test func theNoiseInThePausesDropsAndTheSpeechStays() throws {
    let (track, reference, speech) = try Self.memo()
    let raw = try TestAudio.folder().appendingPathComponent("enhance-out.raw").path
    let player = Player(device: "file:FILE=\(raw),FORMAT=raw")
    #expect(player.setEnhance(true) == nil)
    #expect(player.snapshot.enhance)
    try player.load(track)
    player.play()
    let end = waitFor(player, seconds: 120) { $0.state != .playing && $0.state != .idle }
    #expect(end.state == .ended)
    #expect(end.position == Double(reference.count) / 48_000)
    let written = try TestAudio.floats(raw)
    #expect(written.count == reference.count)
    let changes = Self.changes(memo: reference, out: written, speech: speech)
    print("enhance: the pauses changed by \(changes.pauses) dB, the speech by \(changes.speech) dB")
    #expect(changes.pauses <= -6, "the pauses changed by \(changes.pauses) dB")
    #expect(abs(changes.speech) <= 1.5, "the speech changed by \(changes.speech) dB")
  }

  /// With the voice boost as well: the pauses come out at least 6 dB lower than with the boost
  /// alone, the speech within 2 dB (measured: 7.5 dB and 1.8 dB).
  @Test func withTheBoostThePausesStayLower() throws {
    let (track, reference, speech) = try Self.memo()
    func played(_ name: String, enhance: Bool) throws -> [Float] {
      let raw = try TestAudio.folder().appendingPathComponent("enhance-\(name).raw").path
      let player = Player(device: "file:FILE=\(raw),FORMAT=raw")
      #expect(player.setVoiceBoost(true) == nil)
      #expect(player.setEnhance(enhance) == nil)
      try player.load(track)
      player.play()
      let end = waitFor(player, seconds: 120) { $0.state != .playing && $0.state != .idle }
      #expect(end.state == .ended)
      #expect(end.position == Double(reference.count) / 48_000)
      return try TestAudio.floats(raw)
    }
    let boosted = try played("boosted", enhance: false)
    let both = try played("both", enhance: true)
    #expect(both.count == reference.count)
    let alone = Self.changes(memo: reference, out: boosted, speech: speech)
    let together = Self.changes(memo: reference, out: both, speech: speech)
    print("boost: pauses \(alone.pauses) dB, speech \(alone.speech) dB; with enhance: \(together)")
    #expect(
      together.pauses <= alone.pauses - 6, "boost \(alone.pauses) dB, with enhance \(together.pauses) dB")
    #expect(abs(together.speech - alone.speech) <= 2, "boost \(alone.speech) dB, with it \(together.speech)")
  }

  /// On the simulated device: turned on while playing, the reduction is in the frames handed
  /// over within 100 ms of frames after those the device already holds; turned off, the memo's
  /// own samples come back, bit for bit, as soon; every frame of the memo reaches the device once.
  @Test func turningItOnAndOffWhilePlayingReachesTheDeviceWithin100ms() throws {
    let (track, reference, _) = try Self.memo()
    let rig = ListeningTests.Rig()
    try rig.start(track, blocks: 10)
    let onAt = rig.device.heard.count + rig.device.queued
    #expect(rig.player.setEnhance(true) == nil)
    for _ in 0..<100 { rig.play(1200) }
    let offAt = rig.device.heard.count + rig.device.queued
    rig.player.setEnhance(false)
    #expect(!rig.player.snapshot.enhance)
    let heard = rig.playToTheEnd()
    #expect(rig.player.snapshot.state == .ended)
    #expect(rig.player.snapshot.position == Double(reference.count) / 48_000)
    #expect(heard.count == reference.count)
    guard heard.count == reference.count else { return }
    let within = 4_800
    let fade = Int(NoiseReducer.fadeSeconds * 48_000)
    func differs(_ i: Int) -> Bool { abs(heard[i] - reference[i]) > 1e-6 }
    #expect(!(0..<onAt).contains(where: differs))
    let first = try #require((onAt..<offAt).first(where: differs))
    #expect(first - onAt <= within, "the reduction began \(first - onAt) frames after it was asked")
    let last = try #require((offAt..<heard.count).last(where: differs))
    #expect(last - offAt <= within + fade, "the reduction ended \(last - offAt) frames after")
  }
}
