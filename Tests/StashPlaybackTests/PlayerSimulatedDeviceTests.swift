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
  /// left behind what the device holds: the frames are made again from the frame heard, with
  /// the new setting, on the device's second stream (`takeOver`). Here the volume: after 1,000
  /// frames heard, every frame after them is the memo's own, at the new gain.
  @Test func onADeviceThatHoldsSecondsAChangeIsMadeAgainFromTheFrameHeard() throws {
    let s = try setup()
    s.device.state.withLock { $0.holds = true }
    let player = s.player
    try playUntilHeard(s, player, 1000)
    player.setVolume(50)
    let deadline = Date().addingTimeInterval(10)
    while s.device.state.withLock({ $0.takeOvers }) < 2 && Date() < deadline { usleep(1000) }
    // Once at play, once at the change.
    #expect(s.device.state.withLock { $0.takeOvers } == 2)
    waitQueued(s.device, 4800)
    s.device.consume(3000)
    let heard = Array(s.device.heard[1000...])
    let reference = Array(s.reference[1000..<4000])
    try #require(heard.count == reference.count)
    // The gain that best maps the memo onto what was heard, and how far any frame is from it.
    let gain =
      zip(heard, reference).reduce(0) { $0 + $1.0 * $1.1 } / reference.reduce(0) { $0 + $1 * $1 }
    let off = zip(heard, reference).map { abs($0 - gain * $1) }.max() ?? 1
    #expect(gain > 0.05 && gain < 0.9, "gain \(gain)")
    #expect(off < 1e-4, "frames after the change are not the memo's from frame 1000: \(off) off")
    #expect(waitFor(player) { $0.position == 4000.0 / 48_000 }.position == 4000.0 / 48_000)
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
    // What was heard is kept, not the frames handed over: the last the device said it had
    // played (the virtual clock stands still, so the clock has not run on since).
    #expect(failed.position == 2000.0 / 48_000)
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
    let difference = TestAudio.maxDifference(heard[...], s.reference[2000..<(2000 + heard.count)])
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
