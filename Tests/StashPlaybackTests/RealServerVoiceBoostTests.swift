import Foundation
import StashTestSupport
import Testing

/// Voice boost on the sound servers desktops run, end to end: `stash-tui --play --control` on a
/// null sink of PulseAudio and of PipeWire reached through ALSA's plugins, a quiet memo of
/// synthetic speech (about -35 LUFS) played once plainly and once with `--voice-boost`, and the
/// sink's monitor recorded: with it, the speech arrives about as loud as the boost makes it
/// (-16 LUFS is 19 dB up), never clipped.
@Suite(.serialized) struct RealServerVoiceBoostTests {
  /// Three sentences of espeak-ng, then 2 s of pause, twice, brought to about -35 LUFS, as AAC in MP4.
  static func quietMemo() throws -> String {
    let folder = try Fixtures.scratchFolder("stash-boost-server")
    let speech = folder.appendingPathComponent("speech.wav").path
    let memo = folder.appendingPathComponent("2026-06-01T10-00-00_audio.m4a").path
    try VoiceBoostTests.say(
      "The path goes along the river to the old mill. We turned left at the bridge. Remember to buy"
        + " bread tomorrow morning.", to: speech)
    let made = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-stream_loop", "1", "-i", speech, "-af",
        "apad=pad_dur=2,aresample=48000,volume=-17dB", "-ac", "1", "-ar", "48000",
        "-c:a", "aac", "-b:a", "96k", memo,
      ])
    guard made.status == 0 else { throw TestFailure("ffmpeg failed: \(made.standardError)") }
    return memo
  }

  @Test(arguments: RealServerPlaybackTests.servers) func aQuietMemoArrivesLouderWithVoiceBoost(
    _ kind: AudioServer.Kind
  ) throws {
    guard AudioServer.canRun(kind) else { return }
    let memo = try Self.quietMemo()
    let server = try AudioServer(kind)
    defer { server.stop() }
    let recording = try server.record()
    var windows: [(from: Double, to: Double)] = []
    for boost in [false, true] {
      let player = try ControlledPlayer(
        memo: memo, environment: server.environment, extraArguments: boost ? ["--voice-boost"] : [])
      defer { player.quit() }
      let started = try player.send("play 0")
      // The first sentences, past the sink's start-up.
      let status = try player.wait(seconds: 6) { $0.position >= 4.5 }
      #expect(status.state == "playing" && status.failures == 0, "\(status)\n\(server.log())")
      windows.append((started.sent + 1.0, started.sent + 4.0))
      try player.send("stop")
    }
    usleep(300_000)
    let samples = recording.finish()
    let plain = RealServerPlaybackTests.level(samples, recording, from: windows[0].from, to: windows[0].to)
    let boosted = RealServerPlaybackTests.level(samples, recording, from: windows[1].from, to: windows[1].to)
    try #require(plain > 0 && boosted > 0, "nothing reached the sink: \(plain), \(boosted)\n\(server.log())")
    let gain = 20 * log10(Double(boosted / plain))
    #expect(gain > 12 && gain < 26, "voice boost raised the speech by \(gain) dB at the sink")
    let first = max(0, Int((windows[1].from - recording.started) * Double(AudioServer.recordingRate)))
    let last = min(
      samples.count, Int((windows[1].to - recording.started) * Double(AudioServer.recordingRate)))
    let peak = samples[first..<max(first, last)].map { abs($0) }.max() ?? 0
    #expect(peak < 0.95, "the boosted speech reached \(peak) at the sink: clipped")
  }
}
