import Foundation
import StashTestSupport
import Testing

/// The player on the sound servers desktops run, each started by the test with a null sink and
/// ALSA's `default` routed to it (PulseAudio through the pulse plugin, PipeWire through
/// pipewire-alsa), driven through `stash-tui --play --control`: play, fifty seeks and cue jumps,
/// a pause that is silent at the sink and corks the stream, the server stopped mid-play (one
/// failure, position kept) and started again (playing goes on from there). The sink's monitor is
/// recorded to check that sound arrives and pauses are silent.
@Suite(.serialized) struct RealServerPlaybackTests {
  static let servers: [AudioServer.Kind] = {
    let all: [AudioServer.Kind] = [.pulseAudio, .pipeWire]
    precondition(!all.isEmpty)
    return all
  }()

  /// The 20-minute demo memo: speech in cues, silence between them.
  static let memo = Fixtures.folder("demo").appendingPathComponent("2026-07-19T16-45-10+0200_audio.m4a").path

  /// Cue start times from the memo's transcript.
  static func cueStarts() throws -> [Double] {
    let vtt = try String(
      contentsOfFile: memo.replacingOccurrences(of: "_audio.m4a", with: "_transcription.vtt"), encoding: .utf8
    )
    return vtt.split(separator: "\n").compactMap { line -> Double? in
      guard line.contains("-->"), let start = line.split(separator: " ").first else { return nil }
      let parts = start.split(separator: ":").compactMap { Double($0) }
      guard parts.count == 3 else { return nil }
      return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }
  }

  /// Root-mean-square level of `samples` between monotonic times `from` and `to`, taking the
  /// recording's first sample as heard at `recording.started`.
  static func level(_ samples: [Float], _ recording: AudioServer.Recording, from: Double, to: Double) -> Float
  {
    let rate = Double(AudioServer.recordingRate)
    let first = max(0, Int((from - recording.started) * rate))
    let last = min(samples.count, Int((to - recording.started) * rate))
    guard last > first else { return -1 }
    var sum: Float = 0
    for sample in samples[first..<last] { sum += sample * sample }
    return (sum / Float(last - first)).squareRoot()
  }

  /// The states of PipeWire's playback streams, from `pw-dump`.
  static func playbackStates(_ dump: String) throws -> [String] {
    let objects = try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [[String: Any]] ?? []
    return objects.compactMap { object in
      guard let info = object["info"] as? [String: Any], let props = info["props"] as? [String: Any],
        props["media.class"] as? String == "Stream/Output/Audio"
      else { return nil }
      return info["state"] as? String
    }
  }

  /// Whether `samples` hold a silence of at least `seconds` with sound on both sides of it: a
  /// pause in the middle of speech. Levels are taken over 20 ms.
  static func silenceInSound(_ samples: [Float], seconds: Double) -> Bool {
    let window = AudioServer.recordingRate / 50
    let levels = stride(from: 0, to: samples.count - window, by: window).map { start -> Float in
      var peak: Float = 0
      for sample in samples[start..<(start + window)] { peak = max(peak, abs(sample)) }
      return peak
    }
    let needed = Int(seconds * 50)
    var run = 0
    for (index, level) in levels.enumerated() {
      if level < 0.002 {
        run += 1
        continue
      }
      // Sound again: was the silence before it long enough, with sound just before it too?
      if run >= needed, index - run - 1 >= 0, levels[index - run - 1] > 0.02, level > 0.02 { return true }
      run = 0
    }
    return false
  }

  @Test(arguments: servers) func playsSeeksPausesAndOutlivesTheServer(_ kind: AudioServer.Kind) throws {
    guard AudioServer.canRun(kind) else { return }
    let server = try AudioServer(kind)
    defer { server.stop() }
    let cues = try Self.cueStarts()
    try #require(cues.count > 10)
    let recording = try server.record()
    let player = try ControlledPlayer(memo: Self.memo, environment: server.environment)
    defer { player.quit() }

    // A few seconds of the first cue.
    let started = try player.send("play \(cues[0])")
    var status = try player.wait(seconds: 4) { $0.sent - started.sent >= 2 }
    #expect(status.state == "playing", "\(status)\n\(server.log())")
    // The clock runs at real time (how far behind the command it starts is the sink's latency).
    usleep(1_000_000)
    let second = try player.send("status")
    // (A null sink just opened still settles its latency: allow for that.)
    #expect(
      abs((second.position - status.position) - (second.sent - status.sent)) < 0.2, "\(status) then \(second)"
    )

    // Fifty seeks and cue jumps while playing: never a failure.
    var random = SystemRandomNumberGenerator()
    let length = status.duration ?? 1200
    for index in 0..<50 {
      let target =
        index % 2 == 0 ? cues[index / 2 % cues.count] : Double.random(in: 0..<(length - 30), using: &random)
      status = try player.send("seek \(target)")
      #expect(status.failures == 0, "seek \(index) to \(target): \(status)\n\(server.log())")
      usleep(UInt32.random(in: 30_000...200_000, using: &random))
    }
    status = try player.wait(seconds: 2) { $0.state == "playing" }
    #expect(status.state == "playing" && status.failures == 0, "after the seeks: \(status)")

    // Pause in the middle of speech: the position stands, the stream is corked, the sink silent.
    let speech = cues[1]
    try player.send("seek \(speech)")
    status = try player.wait(seconds: 3) { $0.position >= speech + 0.8 }
    let pause = try player.send("pause")
    let paused = try player.wait(seconds: 2) { $0.state == "paused" }
    #expect(paused.state == "paused", "\(paused)")
    usleep(300_000)
    let streams = try server.streams()
    switch kind {
    case .pulseAudio: #expect(streams.contains("Corked: yes"), "\(streams)")
    case .pipeWire:
      let states = try Self.playbackStates(streams)
      #expect(!states.isEmpty && !states.contains("running"), "playback streams while paused: \(states)")
    }
    usleep(1_700_000)
    let stillPaused = try player.send("status")
    #expect(
      stillPaused.position == paused.position, "the clock moved while paused: \(paused) then \(stillPaused)")
    let resume = try player.send("resume")
    status = try player.wait(seconds: 3) { $0.position >= paused.position + 0.5 }
    #expect(status.state == "playing", "\(status)")
    // Resumed at the very position paused at (the clock runs on from it, at real time).
    #expect(
      abs(status.position - paused.position - (status.sent - resume.sent)) < 0.25, "\(paused) then \(status)")

    // The server goes mid-play: one failure, the position kept...
    let before = try player.wait(seconds: 3) { $0.position >= paused.position + 1.0 }
    server.stopServer()
    // (The count comes from the player's change notices, a moment after the state itself.)
    let failed = try player.wait(seconds: 10) { $0.state == "failed" && $0.failures > 0 }
    #expect(failed.state == "failed" && failed.failures == 1, "\(failed)")
    // pipewire-alsa goes on taking frames, as if played, for about five seconds after its server
    // goes, before it fails with EPIPE: the position kept is up to that far on (see the note of
    // issue 15). PulseAudio's plugin fails at once.
    let drift = kind == .pulseAudio ? 1.0 : 6.0
    // (The position kept is the last the device confirmed, a little behind the clock run on: on
    // PulseAudio, whose plugin confirms what it took in blocks, once 0.5 s behind in a clean-clone
    // run; never ahead of what was heard by more than the drift.)
    let behind = kind == .pulseAudio ? 0.6 : 0.1
    #expect(
      failed.position >= before.position - behind && failed.position < before.position + drift,
      "\(before) then \(failed)")
    usleep(1_500_000)
    let later = try player.send("status")
    #expect(later.failures == 1 && later.position == failed.position, "\(later)")
    let samples = recording.finish()

    // ...and when it is back, playing goes on from there by itself, and is heard.
    try server.start()
    let again = try server.record()
    let back = try player.wait(seconds: 10) { $0.state == "playing" && $0.position > failed.position + 0.3 }
    #expect(back.state == "playing", "\(back)\n\(server.log())")
    #expect(back.position >= failed.position && back.position < failed.position + 5, "\(failed) then \(back)")
    let heardStart = try player.send("seek \(cues[3])")
    usleep(1_500_000)
    let after = again.finish()
    #expect(try player.send("status").failures == 1)

    // What the sink heard: the pause is a silence in the middle of speech, as long as the pause
    // (less what the sink buffers); and sound came through again once the server was back.
    // (Bools first: an expectation on an expression prints its arguments, here a million samples.)
    let pausedFor = resume.sent - pause.sent
    let pauseHeard = Self.silenceInSound(samples, seconds: pausedFor - 0.4)
    let loudest = samples.reduce(Float(0)) { max($0, abs($1)) }
    #expect(
      pauseHeard,
      "no silence of \(pausedFor - 0.4) s inside speech in \(Double(samples.count) / 48_000) s (loudest \(loudest))"
    )
    let soundAfter = after.contains { abs($0) > 0.05 }
    #expect(soundAfter, "no sound after the server came back (\(heardStart))")
  }
}

extension AudioServer {
  /// Whether this machine runs `kind`; when it does not, the test records why (a failure, not a
  /// skip: `scripts/install-deps` installs what is missing).
  static func canRun(_ kind: Kind, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    guard let missing = missing(kind) else { return true }
    Issue.record(
      "\(kind) cannot run here: \(missing) (scripts/install-deps installs it)", sourceLocation: sourceLocation
    )
    return false
  }
}
