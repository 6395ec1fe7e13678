import Foundation
import StashTestSupport
import Synchronization
import Testing

@testable import StashPlayback

/// Speed (pitch kept), volume and mute, and the A-B loop, on the simulated device the test drives
/// (its clock is the frames the test lets it consume) and on ALSA's `file` PCM.
@Suite struct ListeningTests {
  typealias VirtualClock = PlayerSimulatedDeviceTests.VirtualClock

  /// A player on a fresh simulated device and virtual clock.
  struct Rig {
    let device = SimulatedDevice()
    let clock = VirtualClock()
    let player: Player
    init() {
      let device = self.device
      player = Player(device: "simulated", opener: { _ in (device, 0) }, now: clock.now)
    }

    /// Lets the device play `frames` frames (the clock moving on as much), then waits until the
    /// player has filled it again (or stopped playing).
    func play(_ frames: Int) {
      device.consume(frames)
      clock.advance(seconds: Double(frames) / 48_000)
      refilled()
    }

    /// Loads `track`, plays it, and lets the device play `blocks` blocks of 1,200 frames.
    func start(_ track: AudioTrack, blocks: Int) throws {
      try player.load(track)
      player.play()
      refilled()
      for _ in 0..<blocks { play(1200) }
    }

    /// Waits until the device is full again, or the player is not playing.
    func refilled() {
      let deadline = Date().addingTimeInterval(5)
      while device.queued < 4800 && player.snapshot.state == .playing && Date() < deadline { usleep(500) }
      // The output thread reads the device's delay just after its write, then comes back to wait
      // for room: once it has, the clock it published is the one for what the device holds now.
      let waits = device.state.withLock { $0.waits }
      while device.state.withLock({ $0.waits }) == waits && player.snapshot.state == .playing
        && Date() < deadline
      {
        usleep(200)
      }
    }

    /// A fresh rig set up by `setting`, with `track` played on it to the end, and what it heard.
    static func playing(_ track: AudioTrack, _ setting: (Player) -> Void) throws -> (rig: Rig, heard: [Float])
    {
      let rig = Rig()
      setting(rig.player)
      try rig.player.load(track)
      rig.player.play()
      return (rig, rig.playToTheEnd())
    }

    /// Plays to the end, a period at a time; what the device heard.
    func playToTheEnd() -> [Float] {
      let deadline = Date().addingTimeInterval(60)
      refilled()
      while player.snapshot.state == .playing && Date() < deadline { play(1200) }
      device.consume(.max)
      return device.heard
    }
  }

  // MARK: Speed

  @Test(arguments: [0.5, 1.5, 2.0])
  func theToneKeepsItsPitchAndLastsOneOverTheSpeedOnTheSimulatedDevice(speed: Double) throws {
    let track = try ListeningAudio.tone(seconds: 3)
    let rig = Rig()
    rig.player.setSpeed(speed)
    try rig.player.load(track)
    let memoFrames = try #require(rig.player.snapshot.duration) * 48_000
    rig.player.play()
    let heard = rig.playToTheEnd()
    #expect(rig.player.snapshot.state == .ended)
    let frequency = try #require(ListeningAudio.frequency(heard))
    #expect(abs(frequency - 440) <= 2, "measured \(frequency) Hz at \(speed)x")
    let ratio = Double(heard.count) / (memoFrames / speed)
    #expect(abs(ratio - 1) <= 0.01, "lasted \(ratio) of 1/\(speed) of the memo")
    // The end is reported in memo time.
    #expect(abs(rig.player.snapshot.position - memoFrames / 48_000) < 0.001)
  }

  @Test(arguments: [0.5, 1.5, 2.0])
  func theToneKeepsItsPitchAndLastsOneOverTheSpeedOnALSAsFilePCM(speed: Double) throws {
    let track = try ListeningAudio.tone(seconds: 3)
    let raw = try TestAudio.folder().appendingPathComponent("out.raw").path
    let player = Player(device: "file:FILE=\(raw),FORMAT=raw")
    player.setSpeed(speed)
    try player.load(track)
    let memoFrames = try #require(player.snapshot.duration) * 48_000
    player.play()
    let end = waitFor(player) { $0.state != .playing && $0.state != .idle }
    #expect(end.state == .ended)
    let written = try TestAudio.floats(raw)
    let frequency = try #require(ListeningAudio.frequency(written))
    #expect(abs(frequency - 440) <= 2, "measured \(frequency) Hz at \(speed)x")
    let ratio = Double(written.count) / (memoFrames / speed)
    #expect(abs(ratio - 1) <= 0.01, "lasted \(ratio) of 1/\(speed) of the memo")
  }

  /// At 2× the position, the clock run on between reports, the length and a seek are all in memo
  /// time.
  @Test func thePositionStaysInMemoTimeAtSpeed() throws {
    let track = try ListeningAudio.tone(seconds: 8)
    let rig = Rig()
    rig.player.setSpeed(2)
    try rig.player.load(track)
    let duration = try #require(rig.player.snapshot.duration)
    rig.player.play()
    rig.refilled()
    // Half a second of the device's time is a second of the memo's (atempo places each frame
    // within a window of about 20 ms).
    for _ in 0..<20 { rig.play(1200) }
    var snapshot = rig.player.snapshot
    #expect(abs(snapshot.position - 1.0) < 0.03, "at \(snapshot.position) s after 0.5 s at 2x")
    #expect(snapshot.duration == duration)
    #expect(snapshot.speed == 2)
    // Between reports the clock runs at twice the device's pace.
    let before = snapshot.position
    rig.clock.advance(seconds: 0.05)
    #expect(abs(rig.player.snapshot.position - before - 0.1) < 0.001)
    rig.player.seek(to: 5)
    rig.refilled()
    let heardBefore = rig.device.heard.count
    #expect(abs(rig.player.snapshot.position - 5) < 0.001)
    for _ in 0..<10 { rig.play(1200) }
    snapshot = rig.player.snapshot
    #expect(
      abs(snapshot.position - 5.5) < 0.03,
      "at \(snapshot.position) s after a seek to 5 and \(rig.device.heard.count - heardBefore) frames")
  }

  /// Speed changes while playing: each reaches the device within a period and a stretch block,
  /// the position never jumps, and the sound never clicks (no step between samples larger than
  /// the tone itself makes).
  @Test func aSpeedChangeReachesTheDeviceFastWithoutAJumpOrAClick() throws {
    let track = try ListeningAudio.tone(seconds: 12)
    let rig = Rig()
    try rig.start(track, blocks: 10)
    var last = rig.player.snapshot.position
    for speed in [2.0, 0.5, 3.0, 1.0, 1.5] {
      rig.player.setSpeed(speed)
      var waited = 0.0
      while rig.player.snapshot.lastSpeedLatency == nil && waited < 0.5 {
        rig.play(240)
        waited += 0.005
      }
      let latency = try #require(rig.player.snapshot.lastSpeedLatency, "\(speed)x never reached the device")
      // One step of the device (5 ms) plus at most one stretch block ahead of it (512 memo
      // frames, 21 ms of output at 0.5x).
      #expect(latency <= 0.030, "\(speed)x took \(latency) s to reach the device")
      for _ in 0..<15 {
        rig.play(1200)
        let position = rig.player.snapshot.position
        // 25 ms of the device at up to 3x, and atempo's placement of a frame (±20 ms).
        #expect(
          position >= last - 0.02 && position - last <= 0.025 * 3 + 0.03, "\(last) → \(position) at \(speed)x"
        )
        last = position
      }
    }
    rig.device.consume(.max)
    let heard = rig.device.heard
    let amplitude = heard.reduce(0) { max($0, abs($1)) }
    // A sine of amplitude A at 440 Hz moves at most 2πfA/rate from one sample to the next.
    let natural = Float(2 * Double.pi * 440 / 48_000) * amplitude
    let step = ListeningAudio.largestStep(heard[...])
    #expect(step < natural * 1.3, "a step of \(step) where the tone makes at most \(natural)")
  }

  // MARK: Volume and mute

  @Test func halfTheVolumeHalvesEverySampleAndMuteIsSilence() throws {
    let (track, reference) = try ListeningAudio.sweep(seconds: 1)
    let (half, heard) = try Rig.playing(track) { $0.setVolume(50) }
    #expect(heard.count == reference.count)
    let halved = reference.map { $0 * 0.5 }
    let difference = TestAudio.maxDifference(heard[...], halved[...])
    #expect(difference != nil && difference! < 1e-6)
    #expect(half.player.snapshot.volume == 50)

    let (muted, silence) = try Rig.playing(track) { $0.setMuted(true) }
    // It plays on (the clock runs to the end), silently.
    #expect(silence.count == reference.count)
    #expect(silence.allSatisfy { $0 == 0 })
    #expect(muted.player.snapshot.muted && muted.player.snapshot.volume == 100)
    #expect(muted.player.snapshot.state == .ended)
  }

  /// 150 % is louder, and where 1.5 times the sample would pass full scale it is bent below it:
  /// nothing reaches 1, nothing changes sign (wraps), and the quiet part is exactly 1.5 times.
  @Test func aVolumeAboveAHundredIsLouderWithoutWrapping() throws {
    let (track, reference) = try ListeningAudio.loudTone(seconds: 1)
    let (_, heard) = try Rig.playing(track) { $0.setVolume(150) }
    #expect(heard.count == reference.count)
    #expect(heard.allSatisfy { abs($0) < 1 })
    let signs = zip(heard, reference).allSatisfy { abs($1) < 1e-3 || ($0 < 0) == ($1 < 0) }
    #expect(signs)
    let louder = ListeningAudio.rms(heard[...]) / ListeningAudio.rms(reference[...])
    #expect(louder > 1.2, "150 % is only \(louder) times as loud")
    let quiet = zip(heard, reference).filter { abs($0.1) * 1.5 <= OutputGain.knee }
    #expect(quiet.count > 1000)
    #expect(quiet.allSatisfy { abs($0.0 - $0.1 * 1.5) < 1e-6 })
  }

  /// A volume change while playing is handed to the device with the next frames (what the device
  /// already holds plays out at the old volume), ramped over 5 ms so it does not click.
  @Test func aVolumeChangeReachesTheDeviceWithTheNextFrames() throws {
    let (track, reference) = try ListeningAudio.sweep(seconds: 3)
    let rig = Rig()
    try rig.start(track, blocks: 10)
    // The device is full: everything handed over so far was made at 100 %.
    let handed = rig.device.heard.count + rig.device.queued
    rig.player.setVolume(50)
    var waited = 0.0
    while rig.player.snapshot.lastVolumeLatency == nil && waited < 0.5 {
      rig.play(240)
      waited += 0.005
    }
    let latency = try #require(rig.player.snapshot.lastVolumeLatency)
    // The first step of the device makes room, and the next frames are made at the new volume.
    #expect(latency <= 0.010, "the volume change took \(latency) s to reach the device")
    for _ in 0..<10 { rig.play(1200) }
    rig.device.consume(.max)
    let heard = rig.device.heard
    let before = TestAudio.maxDifference(heard[..<handed], reference[..<handed])
    #expect(before != nil && before! < 1e-6)
    let ramp = 240
    let after = heard[(handed + ramp)...]
    let halved = reference[(handed + ramp)..<(handed + ramp + after.count)].map { $0 * 0.5 }
    let difference = TestAudio.maxDifference(after, halved[...])
    #expect(difference != nil && difference! < 1e-6)
    // In the ramp the gain falls steadily: no sample is louder than at full volume.
    let ramped = zip(heard[handed..<(handed + ramp)], reference[handed..<(handed + ramp)])
    #expect(ramped.allSatisfy { abs($0.0) <= abs($0.1) + 1e-6 && abs($0.0) >= abs($0.1) * 0.5 - 1e-6 })
  }

  // MARK: The loop

  /// From 1.0 to 2.0 s: after the first pass the device hears exactly the loop's length again and
  /// again, each wrap an equal-power cross-fade of the 10 ms before B with the 10 ms before A, so
  /// there is neither a gap nor a click; the position stays in the loop.
  @Test func theLoopWrapsSeamlessly() throws {
    let (track, reference) = try ListeningAudio.sweep(seconds: 4)
    let rig = Rig()
    try rig.player.load(track)
    rig.player.setLoop(from: 1.0, to: 2.0)
    #expect(rig.player.snapshot.loop == PlaybackLoop(start: 1.0, end: 2.0))
    rig.player.play(from: 0.5)
    rig.refilled()
    var positions: [Double] = []
    for _ in 0..<140 {
      rig.play(1200)
      positions.append(rig.player.snapshot.position)
    }
    #expect(rig.player.snapshot.state == .playing)
    rig.device.consume(.max)
    let heard = rig.device.heard
    let (a, b, fade) = (48_000, 96_000, 480)
    // First pass: from 0.5 s up to the fade before B.
    var at = 0
    var expected = Array(reference[24_000..<(b - fade)])
    while expected.count < heard.count {
      let mix = (0..<fade).map { i -> Float in
        let angle = Float.pi / 2 * (Float(i) + 0.5) / Float(fade)
        return reference[b - fade + i] * cosf(angle) + reference[a - fade + i] * sinf(angle)
      }
      expected += mix + reference[a..<(b - fade)]
      at += 1
    }
    #expect(at >= 3)
    let difference = TestAudio.maxDifference(heard[...], expected[..<heard.count])
    #expect(difference != nil && difference! < 1e-5)
    #expect(positions.allSatisfy { $0 >= 0.5 - 0.001 && $0 <= 2.0 + 0.001 })
    // It wrapped: the position came back to A.
    #expect(positions.contains { $0 < 1.1 } && positions.last! >= 0.98)
  }

  /// Setting the loop at B (as a listener does, pressing "B" when the phrase ends) goes back to A
  /// at once; clearing it plays on past B to the end; one too short is ignored.
  @Test func settingTheLoopAtItsEndGoesBackAndClearingItPlaysOn() throws {
    let (track, _) = try ListeningAudio.sweep(seconds: 3)
    let rig = Rig()
    try rig.start(track, blocks: 40)
    let here = rig.player.snapshot.position
    #expect(abs(here - 1.0) < 0.001)
    rig.player.setLoop(from: 0.25, to: here)
    rig.refilled()
    #expect(abs(rig.player.snapshot.position - 0.25) < 0.001)
    rig.player.setLoop(from: 1, to: 1.1)
    #expect(rig.player.snapshot.loop == PlaybackLoop(start: 0.25, end: here))
    for _ in 0..<10 { rig.play(1200) }
    rig.player.clearLoop()
    #expect(rig.player.snapshot.loop == nil)
    let heard = rig.playToTheEnd()
    #expect(rig.player.snapshot.state == .ended)
    #expect(heard.count > 48_000 * 3)
  }

  // MARK: Settings

  @Test func theSettingsAreClampedAndOutliveALoadButTheLoopDoesNot() throws {
    let (track, _) = try ListeningAudio.sweep(seconds: 1)
    let rig = Rig()
    let fresh = rig.player.snapshot
    #expect(fresh.speed == 1 && fresh.volume == 100 && !fresh.muted && fresh.loop == nil)
    rig.player.setSpeed(7)
    rig.player.setVolume(-3)
    #expect(rig.player.snapshot.speed == 3 && rig.player.snapshot.volume == 0)
    rig.player.setSpeed(0.1)
    rig.player.setVolume(400)
    rig.player.setMuted(true)
    try rig.player.load(track)
    rig.player.setLoop(from: 0.2, to: 0.6)
    #expect(rig.player.snapshot.loop == PlaybackLoop(start: 0.2, end: 0.6))
    try rig.player.load(track)
    let loaded = rig.player.snapshot
    #expect(loaded.speed == 0.5 && loaded.volume == 150 && loaded.muted)
    #expect(loaded.loop == nil)
  }

  /// `--speed` and `--volume` are checked with a clear message, and `--control` takes the new
  /// commands and answers with the new fields.
  @Test func thePlayCommandLineTakesSpeedVolumeMuteAndLoop() throws {
    let memo = try TestAudio.folder().appendingPathComponent("2026-01-01_10-00-00_audio.m4a").path
    try TestTone.mp4(seconds: 3).write(to: URL(fileURLWithPath: memo))
    let tui = Fixtures.product("stash-tui").path
    let bad = try runProcess(tui, ["--play", memo, "--speed", "4"])
    #expect(bad.status == 2)
    #expect(bad.standardError.contains("--speed: the speed is a number from 0.5 to 3 (such as 1.5), not '4'"))
    let loud = try runProcess(tui, ["--play", memo, "--volume", "151"])
    #expect(loud.status == 2)
    #expect(
      loud.standardError.contains("--volume: the volume is a whole percentage from 0 to 150, not '151'"))
    var environment = ProcessInfo.processInfo.environment
    environment["STASH_ALSA_DEVICE"] = "null"
    environment["STASH_ALSA_PACE"] = "1"
    let commands =
      "play\nspeed 2\nvolume 50\nmute on\nloop 0.5 1.5\nstatus\nunloop\nmute off\nspeed 9\nquit\n"
    let run = try runProcess(
      tui, ["--play", memo, "--control", "--speed", "1.5", "--volume", "80"], environment: environment,
      input: Data(commands.utf8))
    #expect(run.status == 2, "speed 9 is refused: \(run.standardError)")
    #expect(run.standardError.contains("--control does not know 'speed 9'"))
    let answers = run.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    try #require(answers.count == 8)
    #expect(answers[0]["speed"] as? Double == 1.5 && answers[0]["volume"] as? Int == 80)
    #expect(answers[1]["speed"] as? Double == 2)
    #expect(answers[2]["volume"] as? Int == 50)
    #expect(answers[3]["muted"] as? Bool == true)
    #expect(answers[4]["loop"] as? [Double] == [0.5, 1.5])
    #expect(answers[6]["loop"] is NSNull)
    #expect(answers[7]["muted"] as? Bool == false)
  }
}
