import Foundation
import Synchronization
import Testing

@testable import StashPlayback

/// The player against a simulated device the test drives: the device hears only what the test
/// consumes, holds an injected extra delay, and fails when told; time is a virtual clock.
@Suite struct PlayerSimulatedDeviceTests {
  final class VirtualClock: Sendable {
    let nanoseconds = Atomic<UInt64>(1_000_000_000)
    func advance(seconds: Double) { nanoseconds.add(UInt64(seconds * 1e9), ordering: .relaxed) }
    var now: @Sendable () -> UInt64 { { [self] in nanoseconds.load(ordering: .relaxed) } }
  }

  struct Setup {
    let track: AudioTrack
    let reference: [Float]
    let device = SimulatedDevice()
    let clock = VirtualClock()
    var player: Player {
      let device = self.device
      return Player(device: "simulated", opener: { _ in (device, 0) }, now: clock.now)
    }
  }

  func setup(seconds: Double = 4) throws -> Setup {
    let folder = try TestAudio.folder()
    let path = folder.appendingPathComponent("sweep.aac").path
    try TestAudio.sweep(path, seconds: seconds)
    return Setup(
      track: try ADTSTrack.read(path), reference: Array(try TestAudio.ffmpegDecode(path).dropFirst(1024)))
  }

  /// Waits until the device holds `frames` frames (it has been filled).
  func waitQueued(_ device: SimulatedDevice, _ frames: Int) {
    let deadline = Date().addingTimeInterval(10)
    while device.queued < frames && Date() < deadline { usleep(1000) }
  }

  /// Loads the setup's track into `player` (a setup makes a new player each time it is asked) and
  /// plays it until the device is full, has played `heard` frames and is full again.
  func playUntilHeard(_ s: Setup, _ player: Player, _ heard: Int) throws {
    try player.load(s.track)
    player.play()
    waitQueued(s.device, 4800)
    s.device.consume(heard)
    waitQueued(s.device, 4800)
  }

  @Test func positionIsWhatWasHeardNotWhatWasWritten() throws {
    let s = try setup()
    s.device.state.withLock { $0.extraDelay = 300 }
    let player = s.player
    try player.load(s.track)
    player.play()
    waitQueued(s.device, 4800)
    // Full buffer, nothing heard yet: the position is 0, not the 4800 frames written.
    var snapshot = waitFor(player) { $0.position == 0 && $0.state == .playing }
    #expect(snapshot.position == 0)
    s.device.consume(2400)
    waitQueued(s.device, 4800)
    // 2400 consumed, but 300 more sit in the device after its buffer: 2100 heard.
    snapshot = waitFor(player, seconds: 5) { $0.position == 2100.0 / 48_000 }
    #expect(snapshot.position == 2100.0 / 48_000)
    // The clock runs on between device reports, at the device's rate, from the last report...
    s.clock.advance(seconds: 0.01)
    #expect(player.snapshot.position == 2580.0 / 48_000)
    // ...but never past what was handed to the device.
    s.clock.advance(seconds: 10)
    #expect(player.snapshot.position == (2400.0 + 4800) / 48_000)
  }

  @Test func seekDropsWhatIsQueuedAndTheNextFrameHeardIsTheTarget() throws {
    let s = try setup()
    let player = s.player
    try playUntilHeard(s, player, 1000)
    let dropsBefore = s.device.state.withLock { $0.drops }
    player.seek(to: 2.5)
    let target = 120_000
    // The device's queue is dropped and refilled from the target.
    let deadline = Date().addingTimeInterval(10)
    while s.device.state.withLock({ $0.drops }) == dropsBefore && Date() < deadline { usleep(1000) }
    waitQueued(s.device, 4800)
    s.device.consume(3000)
    let heard = s.device.heard
    #expect(heard.count == 4000)
    let before = TestAudio.maxDifference(heard[0..<1000], s.reference[0..<1000])
    let after = TestAudio.maxDifference(heard[1000...], s.reference[target..<target + 3000])
    #expect(before != nil && before! < 1e-6)
    #expect(after != nil && after! < 1e-6)
    #expect(
      waitFor(player) { $0.position == Double(target + 3000) / 48_000 }.position == Double(target + 3000)
        / 48_000)
    #expect(player.snapshot.lastSeekLatency != nil)
  }

  /// On a device that holds seconds (a pulse device), a setting changed while playing is not
  /// left behind what the device holds: the frames are made again with the new setting, on the
  /// device's second stream (`takeOver`), held until the old stream reaches the frame they start
  /// at. Here the volume, on a sweep (no pause to wait for): the new frames start the lead the
  /// switch allows for (70 ms at first) after what was heard, the old stream hands over to them
  /// there, and what follows is the memo at the new gain, nothing left out and next to nothing
  /// heard twice (the test's steps of consuming). When the device cannot hold the new stream yet
  /// (a standby not set up), the switch is made at once, the new frames from where the old stream
  /// will be when they start by themselves (50 ms, the first lead, later), nothing left out.
  @Test(arguments: [true, false]) func onADeviceThatHoldsSecondsAChangeIsMadeAgainFromAFrameAboutToBeHeard(
    held: Bool
  ) throws {
    let s = try setup()
    s.device.state.withLock {
      $0.holds = true
      $0.canHold = held
    }
    let player = s.player
    try playUntilHeard(s, player, 1000)
    player.setVolume(50)
    let switched = try consumeUntilTakenOver(s.device, times: 2)
    waitQueued(s.device, 4800)
    s.device.consume(3000)
    let heard = s.device.heard
    #expect(TestAudio.maxDifference(heard[..<switched], s.reference[..<switched]).map { $0 < 1e-6 } == true)
    // Where the memo goes on from: the frame the fitted gain maps best onto what was heard, found
    // on the first 256 frames after the switch, then checked on 3,000.
    let after = Array(heard[switched..<(switched + 3000)])
    func fit(_ from: Int, _ count: Int) -> (Int, Float, Float) {
      let (heard, reference) = (after[..<count], s.reference[from..<(from + count)])
      let gain = zip(heard, reference).reduce(0) { $0 + $1.0 * $1.1 } / reference.reduce(0) { $0 + $1 * $1 }
      return (from, gain, zip(heard, reference).map { abs($0 - gain * $1) }.max() ?? 1)
    }
    let start = try #require(
      (max(0, switched - 2400)...(switched + 12_000)).map { fit($0, 256) }.min { $0.2 < $1.2 })
    let best = fit(start.0, 3000)
    if held {
      // Once at play, once at the change: 70 ms on from what was heard.
      #expect(
        best.0 >= 1000 + 3360 && best.0 <= 1000 + 3360 + 240 + 4 * Self.step, "new frames from \(best.0)")
      #expect(
        switched >= best.0 && switched < best.0 + 1200, "switched at \(switched), new frames from \(best.0)")
    } else {
      #expect(switched >= 1000 && switched <= 1000 + 4 * Self.step, "switched at \(switched)")
      #expect(best.0 >= switched && best.0 <= switched + 2400 + 4 * Self.step, "new frames from \(best.0)")
    }
    #expect(best.1 > 0.05 && best.1 < 0.9, "gain \(best.1)")
    #expect(best.2 < 1e-4, "frames after the change are not the memo's: \(best.2) off at best")
    #expect(
      waitFor(player) { $0.position == Double(best.0 + 3000) / 48_000 }.position == Double(best.0 + 3000)
        / 48_000)
  }

  /// On such a device the switch is made where it is not heard: in the pause ahead rather than in
  /// the middle of a sound (the two streams cannot fade into each other). A tone of 150 ms every
  /// 250 ms; the volume changed early in the first: the switch falls in the pause after it, and
  /// the next tone is heard at the new volume.
  @Test func onADeviceThatHoldsSecondsAChangeIsMadeInThePauseAhead() throws {
    let folder = try TestAudio.folder()
    let path = folder.appendingPathComponent("beeps.aac").path
    try TestAudio.evaluated(path, "0.5*sin(2*PI*440*t)*lt(mod(t\\,0.25)\\,0.15)", seconds: 4)
    let reference = Array(try TestAudio.ffmpegDecode(path).dropFirst(1024))
    let device = SimulatedDevice()
    // A second of room: the pause ahead is already handed over, as on a device holding seconds.
    device.state.withLock { s in
      s.holds = true
      s.capacity = 48_000
    }
    let player = Player(device: "simulated", opener: { _ in (device, 0) })
    try player.load(try ADTSTrack.read(path))
    player.play()
    waitQueued(device, 4800)
    device.consume(1000)
    waitQueued(device, 20_000)
    player.setVolume(50)
    let switched = try consumeUntilTakenOver(device, times: 2)
    // The pause is frames 7,200 to 12,000; the switch's stretch (at least 30 ms) lies in it.
    #expect(switched >= 7200 && switched <= 12_000 - 1440, "switched at \(switched)")
    waitQueued(device, 20_000)
    device.consume(12_000)
    let heard = device.heard
    try #require(heard.count >= 18_000)
    let peak = { (frames: ArraySlice<Float>) in frames.reduce(0) { max($0, abs($1)) } }
    let before = peak(heard[1000..<7000])
    let next = peak(heard[13_000..<18_000])
    #expect(before > 0.4, "the first tone at \(before)")
    #expect(
      next > before * 0.2 && next < before * 0.7, "the tone after the change at \(next), before at \(before)")
    #expect(peak(reference[13_000..<18_000]) > 0.4)
  }

  /// A change while the device has not started (nothing heard yet, as while a pulse stream fills
  /// to its threshold) is made again at once, from where the generation starts: nothing is heard
  /// to wait on, and waiting (not writing) would keep it from ever starting.
  @Test func onADeviceThatHoldsSecondsAChangeBeforeItStartsIsMadeAgainAtOnce() throws {
    let s = try setup()
    s.device.state.withLock { d in
      d.holds = true
      d.neverStarts = true
    }
    let player = s.player
    try player.load(s.track)
    player.play()
    waitQueued(s.device, 4800)
    player.setVolume(50)
    let deadline = Date().addingTimeInterval(10)
    while s.device.state.withLock({ $0.takeOvers }) < 2 && Date() < deadline { usleep(1000) }
    #expect(s.device.state.withLock { $0.takeOvers } == 2)
    waitQueued(s.device, 4800)
    s.device.state.withLock { $0.neverStarts = false }
    s.device.consume(3000)
    let heard = s.device.heard
    let gain =
      zip(heard, s.reference).reduce(0) { $0 + $1.0 * $1.1 } / s.reference[..<3000].reduce(0) { $0 + $1 * $1 }
    let off = zip(heard, s.reference).map { abs($0 - gain * $1) }.max() ?? 1
    #expect(gain > 0.05 && gain < 0.9, "gain \(gain)")
    #expect(off < 1e-4, "what was heard is not the memo from its start: \(off) off")
  }

  static let step = 120

  /// Consumes the device a little at a time until it has been taken over `times` times, and
  /// returns how many frames had been heard at the last take-over.
  func consumeUntilTakenOver(_ device: SimulatedDevice, times: Int) throws -> Int {
    let deadline = Date().addingTimeInterval(10)
    while device.state.withLock({ $0.takenOverAt.count }) < times && Date() < deadline {
      device.consume(Self.step)
      usleep(2000)
    }
    return try #require(device.state.withLock { $0.takenOverAt.count == times ? $0.takenOverAt.last : nil })
  }

  /// The frames waiting in the device are its delay: a pause drops them unheard, and resuming
  /// starts at the frame after the last one heard.
  @Test func pauseDropsWhatTheDeviceHeldAndResumesAtTheFrameHeard() throws {
    let s = try setup()
    let player = s.player
    try playUntilHeard(s, player, 1500)
    player.pause()
    let paused = waitFor(player) { $0.state == .paused }
    #expect(paused.position == 1500.0 / 48_000)
    #expect(s.device.queued == 0)
    player.resume()
    waitQueued(s.device, 4800)
    s.device.consume(4800)
    let heard = s.device.heard
    let difference = TestAudio.maxDifference(heard[...], s.reference[0..<heard.count])
    #expect(heard.count == 6300)
    #expect(difference != nil && difference! < 1e-6)
  }

  @Test func underrunAndSuspendAreRecoveredAndPlayingGoesOn() throws {
    let s = try setup(seconds: 1)
    s.device.state.withLock { $0.failures = [3: -EPIPE, 6: -ESTRPIPE] }
    let player = s.player
    try player.load(s.track)
    player.play()
    var heardCount = 0
    let deadline = Date().addingTimeInterval(20)
    while player.snapshot.state == .playing && Date() < deadline {
      s.device.consume(1000)
      heardCount = s.device.heard.count
      usleep(500)
    }
    #expect(player.snapshot.state == .ended)
    #expect(s.device.state.withLock { $0.recoveries } == [-EPIPE, -ESTRPIPE])
    #expect(player.snapshot.underruns == 1)
    let difference = TestAudio.maxDifference(s.device.heard[...], s.reference[...])
    #expect(heardCount == s.reference.count)
    #expect(difference != nil && difference! < 1e-6)
  }

  /// A device gone for good (unplugged, its server stopped): failed once, with the reason and
  /// the position heard kept; when it comes back, playing goes on from there by itself.
  @Test func aDeviceThatDisappearsFailsOnceKeepsThePositionAndPlaysOnWhenBack() throws {
    let s = try setup(seconds: 3)
    let available = Atomic<Bool>(true)
    let current = Mutex<SimulatedDevice?>(nil)
    let failures = Atomic<Int>(0)
    let wasFailed = Atomic<Bool>(false)
    let player = Player(
      device: "simulated",
      opener: { _ in
        guard available.load(ordering: .relaxed) else { return (nil, -ENODEV) }
        let device = current.withLock { $0 } ?? SimulatedDevice()
        current.withLock { $0 = device }
        return (device, 0)
      },
      onChange: { snapshot in
        let failed: Bool
        if case .failed = snapshot.state { failed = true } else { failed = false }
        if failed && !wasFailed.exchange(true, ordering: .relaxed) { failures.add(1, ordering: .relaxed) }
        if !failed { wasFailed.store(false, ordering: .relaxed) }
      })
    try player.load(s.track)
    player.play()
    let opening = Date().addingTimeInterval(10)
    while current.withLock({ $0 }) == nil && Date() < opening { usleep(1000) }
    let first = try #require(current.withLock { $0 })
    waitQueued(first, 4800)
    first.consume(2000)
    waitQueued(first, 4800)
    first.state.withLock { $0.goneAtWrite = $0.writes + 1 }
    available.store(false, ordering: .relaxed)
    first.consume(1000)
    let failed = waitFor(player) { if case .failed = $0.state { true } else { false } }
    guard case .failed(let error) = failed.state else {
      Issue.record("expected a failure, got \(failed.state)")
      return
    }
    #expect(error.code == .deviceFailed)
    #expect(
      error.message == "the sound device 'simulated' stopped working: No such device; it would not open again"
    )
    // What was heard is kept, not the frames handed over (2,000 heard and 4,800 more queued):
    // the last the device said it had played (the virtual clock stands still, so the clock has
    // not run on since). That is 2,000, or 3,000 when the player read the delay again between
    // the last 1,000 being consumed and the write that failed (a loaded machine widens that gap).
    let kept = Int((failed.position * 48_000).rounded())
    #expect(kept == 2000 || kept == 3000, "kept \(kept)")
    usleep(1_500_000)
    #expect(failures.load(ordering: .relaxed) == 1)
    // Back: a fresh device opens and playing goes on from the kept position.
    let second = SimulatedDevice()
    current.withLock { $0 = second }
    available.store(true, ordering: .relaxed)
    waitQueued(second, 4800)
    #expect(player.snapshot.state == .playing)
    second.consume(2400)
    let heard = second.heard
    let difference = TestAudio.maxDifference(heard[...], s.reference[kept..<(kept + heard.count)])
    #expect(heard.count == 2400)
    #expect(difference != nil && difference! < 1e-6)
  }

  /// The pulse plugin's `snd_pcm_delay` fails with EIO for a while after every prepare: the
  /// delay comes from the room left instead, and nothing fails.
  @Test func aDelayThatCannotBeReadComesFromTheRoomLeft() throws {
    let s = try setup()
    s.device.state.withLock { $0.delayFailure = -EIO }
    let player = s.player
    try playUntilHeard(s, player, 1000)
    let snapshot = waitFor(player, seconds: 5) { $0.position == 1000.0 / 48_000 }
    #expect(snapshot.state == .playing)
    #expect(snapshot.position == 1000.0 / 48_000)
    for _ in 0..<5 {
      player.seek(by: 0.5)
      waitQueued(s.device, 4800)
      s.device.consume(500)
    }
    #expect(player.snapshot.state == .playing)
  }

  /// EIO and EBADFD from a write (a sound server's hiccup): the device is prepared again and
  /// playing goes on from the frame heard, to the end, without a failure.
  @Test func transientWriteFailuresAreRecoveredWithoutAFailure() throws {
    let s = try setup(seconds: 1)
    s.device.state.withLock { $0.failures = [3: -EIO, 7: -EBADFD, 9: -EIO] }
    let sawFailure = Atomic<Bool>(false)
    let device = s.device
    let player = Player(
      device: "simulated", opener: { _ in (device, 0) },
      onChange: { if case .failed = $0.state { sawFailure.store(true, ordering: .relaxed) } })
    try player.load(s.track)
    player.play()
    let deadline = Date().addingTimeInterval(20)
    while player.snapshot.state == .playing && Date() < deadline {
      s.device.consume(1000)
      usleep(500)
    }
    #expect(player.snapshot.state == .ended)
    let failedOnce = sawFailure.load(ordering: .relaxed)
    #expect(!failedOnce)
    // Each failure was met by a drop and a prepare (a reset), not by a new device.
    #expect(s.device.state.withLock { $0.drops } >= 3)
  }

  /// A device that can pause is paused in place: it keeps what it holds (nothing dropped, the same
  /// stream), and resuming plays on from it.
  @Test func pauseInPlaceKeepsWhatTheDeviceHolds() throws {
    let s = try setup()
    s.device.state.withLock { $0.pausable = true }
    let player = s.player
    try playUntilHeard(s, player, 1500)
    let drops = s.device.state.withLock { $0.drops }
    player.pause()
    let paused = waitFor(player) { $0.state == .paused }
    #expect(paused.position == 1500.0 / 48_000)
    #expect(s.device.state.withLock { ($0.paused, $0.pauses, $0.drops) } == (true, 1, drops))
    #expect(s.device.queued == 4800)
    player.resume()
    let deadline = Date().addingTimeInterval(10)
    while s.device.state.withLock({ $0.paused }) && Date() < deadline { usleep(1000) }
    s.device.consume(4800)
    waitQueued(s.device, 4800)
    s.device.consume(1000)
    let heard = s.device.heard
    let difference = TestAudio.maxDifference(heard[...], s.reference[0..<heard.count])
    #expect(heard.count == 7300)
    #expect(difference != nil && difference! < 1e-6)
    #expect(s.device.state.withLock { $0.drops } == drops)
  }

  @Test func aBusyDeviceSaysSo() throws {
    let s = try setup(seconds: 1)
    let player = Player(device: "hw:9", opener: { _ in (nil, -EBUSY) })
    try player.load(s.track)
    player.play()
    let end = waitFor(player) { $0.state != .playing }
    guard case .failed(let error) = end.state else {
      Issue.record("expected a failure, got \(end.state)")
      return
    }
    #expect(error.code == .deviceBusy)
    #expect(error.message.contains("'hw:9' is busy"))
  }

  /// Once playing ends the device is closed, so a sound card without mixing is free for others;
  /// playing again opens it again.
  @Test func theDeviceIsLetGoOfAtTheEndAndTakenAgainToPlay() throws {
    let s = try setup(seconds: 1)
    let opens = Atomic<Int>(0)
    let closes = Atomic<Int>(0)
    let current = Mutex<SimulatedDevice?>(nil)
    let player = Player(
      device: "simulated",
      opener: { _ in
        opens.add(1, ordering: .relaxed)
        let device = SimulatedDevice(onClose: { closes.add(1, ordering: .relaxed) })
        current.withLock { $0 = device }
        return (device, 0)
      })
    try player.load(s.track)
    for round in 1...2 {
      player.play()
      let deadline = Date().addingTimeInterval(20)
      while player.snapshot.state == .playing && Date() < deadline {
        current.withLock { $0 }?.consume(1000)
        usleep(500)
      }
      #expect(player.snapshot.state == .ended)
      #expect(opens.load(ordering: .relaxed) == round)
      // The test's own reference goes, so the device closes once the player lets go of it.
      current.withLock { $0 = nil }
      let closing = Date().addingTimeInterval(5)
      while closes.load(ordering: .relaxed) < round && Date() < closing { usleep(500) }
      #expect(closes.load(ordering: .relaxed) == round)
    }
  }
}
