import Foundation
import StashTestSupport
import Testing

/// A setting changed while playing, on the sound servers desktops run (issue 32 §5): the volume
/// turned down and up again while a steady tone plays, through `stash-tui --play --control`, the
/// sink's monitor recorded by a client asking for two seconds of latency (so the player's own
/// stream sets the server's). Each change is heard as long after its command as play is after
/// its own (within 100 ms), the sound never breaks off around a change, and the clock never goes
/// back. On PulseAudio the device holds seconds of sound (`ALSADevice.configureDeep`): a change
/// is made again from the frame heard and the second stream takes over, so it is not heard
/// seconds late.
@Suite(.serialized) struct RealServerSettingsTests {
  /// A tone of `seconds` at half scale, AAC in MP4; in beeps of 150 ms every 250 ms, each rising
  /// and falling over 5 ms, when `beeps`.
  static func tone(seconds: Int, beeps: Bool = false) throws -> String {
    let name = beeps ? "beeps.m4a" : "tone.m4a"
    let path = try Fixtures.scratchFolder("stash-settings").appendingPathComponent(name).path
    let envelope = beeps ? "*clip(min(mod(t\\,0.25)/0.005\\,(0.15-mod(t\\,0.25))/0.005)\\,0\\,1)" : ""
    let result = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "aevalsrc=0.5*sin(2*PI*440*t)\(envelope):s=48000:d=\(seconds)", "-c:a", "aac", "-b:a", "96k", path,
      ])
    guard result.status == 0 else { throw TestFailure("ffmpeg failed: \(result.standardError)") }
    return path
  }

  /// Plays `memo` through `stash-tui --play --control` on a `kind` server started for it, the
  /// sink's monitor recorded by a client asking for two seconds of latency (so the player's own
  /// stream sets the server's); `body` gets them once the player has been up a while, as a person
  /// plays (on PulseAudio a play at the player's start waits for the sink's first block,
  /// `HeardLatencyTests`). The player quits and the server stops after, even when it throws.
  static func playing(
    _ kind: AudioServer.Kind, _ memo: String,
    _ body: (AudioServer, AudioServer.Recording, ControlledPlayer) throws -> Void
  ) throws {
    let server = try AudioServer(kind)
    defer { server.stop() }
    let recording = try server.record(latencyMilliseconds: 2000)
    let player = try ControlledPlayer(memo: memo, environment: server.environment)
    defer { player.quit() }
    _ = try player.send("status")
    usleep(500_000)
    try body(server, recording, player)
  }

  /// The peak of each 10 ms of `samples` (mono at `AudioServer.recordingRate`).
  static func peaks(_ samples: [Float]) -> [Float] {
    let block = AudioServer.recordingRate / 100
    return stride(from: 0, to: samples.count - block + 1, by: block).map { start in
      samples[start..<(start + block)].reduce(0) { max($0, abs($1)) }
    }
  }

  @Test(arguments: RealServerPlaybackTests.servers) func aVolumeChangeIsHeardAtOnceWithNoBreak(
    _ kind: AudioServer.Kind
  ) throws {
    guard AudioServer.canRun(kind) else { return }
    let memo = try Self.tone(seconds: 20)
    try Self.playing(kind, memo) { server, recording, player in
      var answers: [ControlledPlayer.Status] = []
      var sent: [Double] = []
      // How far this test's own 20 ms sleep and a status round trip overran: what a busy machine
      // adds to any time measured here, the player's as much as this process's.
      var overrun = 0.0
      for command in ["play 1", "volume 50", "volume 100"] {
        let answer = try player.send(command)
        sent.append(answer.sent)
        answers.append(answer)
        while AudioServer.monotonicSeconds() < answer.sent + 1.5 {
          let before = AudioServer.monotonicSeconds()
          usleep(20_000)
          answers.append(try player.send("status"))
          overrun = max(overrun, AudioServer.monotonicSeconds() - before - 0.02)
        }
      }
      let last = try player.send("status")
      #expect(last.state == "playing" && last.failures == 0, "\(last)\n\(player.standardError)")
      usleep(300_000)
      let peaks = Self.peaks(recording.finish())
      let report = "\(kind): \(server.log())"

      // When play is heard; the level it is heard at; when it falls and rises again.
      let loudest = peaks.max() ?? 0
      try #require(loudest > 0.02, "nothing was heard (peak \(loudest)): \(report)")
      let onset = try #require(peaks.firstIndex { $0 > loudest / 2 })
      let steady = peaks[(onset + 50)..<min(peaks.count, onset + 140)].sorted()
      try #require(steady.count > 50, "the recording ends too soon: \(report)")
      let full = steady[steady.count / 2]
      let down = try #require(
        peaks[min(peaks.count, onset + 60)...].firstIndex { $0 < full * 0.8 },
        "the volume never went down: \(report)")
      let up = try #require(
        peaks[min(peaks.count, down + 60)...].firstIndex { $0 > full * 0.9 },
        "the volume never came back: \(report)")
      let downLate = Double(down - onset) / 100 - (sent[1] - sent[0])
      let upLate = Double(up - onset) / 100 - (sent[2] - sent[0])
      // A change is heard within 0.1 s of when it is asked; on a busy machine, also within what
      // the machine was measured to add meanwhile (`overrun`), which the message names.
      let allowed = 0.1 + overrun
      let margin = "allowed 0.1 s + \(overrun) s, the longest a 20 ms sleep and a status overran here"
      #expect(abs(downLate) < allowed, "volume 50 heard \(downLate) s late (\(margin)): \(report)")
      #expect(abs(upLate) < allowed, "volume 100 heard \(upLate) s late (\(margin)): \(report)")
      // No break in the sound around either change (a block of silence after play was heard).
      let heard = peaks[onset..<min(peaks.count, up + 50)]
      let quiet = heard.firstIndex { $0 < loudest / 10 }
      #expect(
        quiet == nil, "the sound broke off \(Double((quiet ?? onset) - onset) / 100) s after play: \(report)")
      // The clock goes on: never back by more than a frame's rounding, and on at about 1× overall.
      let positions = answers.map(\.position)
      let back = zip(positions, positions.dropFirst()).map { $0 - $1 }.max() ?? 0
      #expect(back < 0.01, "the clock went back \(back) s")
      // Counted from when it first moved: until the server has taken the first samples in, the
      // clock rightly stays at the start, and on a busy machine that took 0.2 s (a clean-clone run
      // beside two builds: 4.31 s moved in 4.52 s, the sound unbroken).
      let started = try #require(
        answers.firstIndex { $0.position > positions[0] + 0.001 }, "the clock never moved")
      let moved = positions.last! - answers[started].position
      let took = answers.last!.sent - answers[started].sent
      #expect(
        abs(moved - took) < 0.15 + overrun,
        "the clock moved \(moved) s in \(took) s once it had started (\(margin))")
    }
  }

  /// Where the sound allows it, a change is made with no click: on PulseAudio the two streams
  /// cannot fade into each other, so the switch is made in a pause (`restartForSettings`). Beeps
  /// of a 440 Hz tone, the volume changed four times at random points of them: each change is
  /// heard within 0.4 s of its command (the pause ahead is waited for), and nowhere does the
  /// sound leave the tone's course (each sample follows from the two before, as a sine's do, to
  /// within a twentieth of the loudest sample, where a switch inside a beep jumps by about the
  /// beep's level).
  @Test(arguments: RealServerPlaybackTests.servers) func aVolumeChangeIsMadeWithNoClick(
    _ kind: AudioServer.Kind
  ) throws {
    guard AudioServer.canRun(kind) else { return }
    let memo = try Self.tone(seconds: 20, beeps: true)
    try Self.playing(kind, memo) { server, recording, player in
      var sent: [Double] = []
      for command in ["play 1", "volume 70", "volume 100", "volume 70", "volume 100"] {
        let answer = try player.send(command)
        sent.append(answer.sent)
        // Somewhere in a beep or a pause, differently each time.
        usleep(useconds_t(700_000 + Int.random(in: 0..<250_000)))
      }
      usleep(800_000)
      let last = try player.send("status")
      #expect(last.state == "playing" && last.failures == 0, "\(last)\n\(player.standardError)")
      let samples = recording.finish()
      let report = "\(kind): \(server.log())"
      let loudest = samples.reduce(0) { max($0, abs($1)) }
      try #require(loudest > 0.05, "nothing was heard (peak \(loudest)): \(report)")
      let onset = try #require(samples.firstIndex { abs($0) > loudest / 2 })
      let rate = Double(AudioServer.recordingRate)
      // Each change heard: a beep's peak after it at its volume, within 0.4 s of the command.
      let peaks = Self.peaks(Array(samples[onset...]))
      for (index, volume) in [(1, 0.7), (2, 1.0), (3, 0.7), (4, 1.0)] as [(Int, Float)] {
        let from = Int(((sent[index] - sent[0]) + 0.4) * 100)
        let beep = peaks[min(peaks.count, from)..<min(peaks.count, from + 25)].max() ?? 0
        let expected = loudest * volume
        #expect(
          abs(beep - expected) < loudest * 0.1,
          "0.4 s after volume \(Int(volume * 100)) a beep peaks at \(beep), not \(expected): \(report)")
      }
      // The tone's course: the residual of each sample predicted from the two before.
      let w = 2 * Float.pi * 440 / Float(rate)
      let end = min(samples.count, onset + Int((sent[4] - sent[0] + 1.2) * rate))
      var worst: (residual: Float, at: Int) = (0, onset)
      for n in (onset + 2)..<end {
        let residual = abs(samples[n] - 2 * cos(w) * samples[n - 1] + samples[n - 2])
        if residual > worst.residual { worst = (residual, n) }
      }
      #expect(
        worst.residual < loudest / 20,
        "a click: the sound leaves the tone by \(worst.residual) (loudest \(loudest)) \(Double(worst.at - onset) / rate) s after play was heard: \(report)"
      )
    }
  }
}
