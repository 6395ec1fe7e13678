import Testing

@testable import StashPlayback

@Suite struct PlayerCoreTests {
  func loaded(frames: Int = 48_000, lengthKnown: Bool = true) -> PlayerCore {
    var core = PlayerCore()
    _ = core.load(totalFrames: frames, lengthKnown: lengthKnown)
    return core
  }

  @Test func nothingHappensBeforeALoad() {
    var core = PlayerCore()
    #expect(core.play().isEmpty)
    #expect(core.seek(to: 10).isEmpty)
    #expect(core.state == .idle)
  }

  @Test func playStartsAGenerationOpensTheDeviceAndRuns() {
    var core = loaded()
    let before = core.generation
    let effects = core.play(from: 1000, until: 2000)
    #expect(effects == [.openDevice, .decode(generation: before + 1, from: 1000, until: 2000), .run])
    #expect(core.state == .playing)
  }

  @Test func pauseWaitsForTheOutputToSayWhereItStopped() {
    var core = loaded()
    _ = core.play()
    #expect(core.pause() == [.hold(report: true)])
    #expect(core.state == .playing && core.pausing)
    #expect(core.pause().isEmpty)
    let g = core.generation
    // The output stopped at 700: paused there, and the decoder is restarted there at once.
    #expect(core.outputHeld(generation: g, at: 700) == [.decode(generation: g + 1, from: 700, until: nil)])
    #expect(core.state == .paused && core.position == 700)
    #expect(core.resume() == [.openDevice, .run])
    #expect(core.state == .playing)
  }

  @Test func resumeBeforeThePauseLandedCarriesOnFromWhereTheOutputStopped() {
    var core = loaded()
    _ = core.play()
    _ = core.pause()
    #expect(core.resume() == [.run])
    let g = core.generation
    #expect(core.outputHeld(generation: g, at: 900) == [.decode(generation: g + 1, from: 900, until: nil)])
    #expect(core.state == .playing)
  }

  @Test func aSeekOvertakingAPauseKeepsTheSeekPosition() {
    var core = loaded()
    _ = core.play()
    _ = core.pause()
    let g = core.generation
    _ = core.seek(to: 30_000)
    #expect(core.outputHeld(generation: g, at: 500).isEmpty)
    #expect(core.state == .paused && core.position == 30_000)
  }

  @Test func seekIsClampedAndLeavesIdleForPaused() {
    var core = loaded()
    _ = core.seek(to: 99_999)
    #expect(core.position == 48_000)
    #expect(core.state == .paused)
    _ = core.seek(to: -5)
    #expect(core.position == 0)
  }

  @Test func staleReportsAreIgnored() {
    var core = loaded()
    _ = core.play()
    let old = core.generation
    _ = core.seek(to: 100)
    #expect(core.reachedEnd(generation: old, at: 48_000).isEmpty)
    #expect(core.failed(.init(code: .decoder, message: "x"), generation: old, at: 0).isEmpty)
    #expect(core.state == .playing)
  }

  /// Issue 15: one play showed "counting up; length unknown" and the next "-0:06" left.
  @Test func anUnknownLengthStaysUnknownOnEveryPlay() {
    var core = loaded(frames: 5000, lengthKnown: false)
    #expect(core.knownLength == nil)
    for _ in 0..<2 {
      _ = core.play()
      _ = core.reachedEnd(generation: core.generation, at: 5000)
      #expect(core.state == .ended)
      #expect(core.knownLength == nil)
    }
  }

  @Test func playingAgainAfterTheEndReplaysTheRange() {
    var core = loaded()
    _ = core.play(from: 100, until: 200)
    _ = core.reachedEnd(generation: core.generation, at: 200)
    let effects = core.play()
    #expect(effects.contains(.decode(generation: core.generation, from: 100, until: 200)))
  }

  @Test func aDeviceFailureIsStatedAndSilences() {
    var core = loaded()
    _ = core.play()
    let error = PlaybackError(code: .deviceFailed, message: "gone")
    let effects = core.failed(error, generation: nil, at: 1234)
    #expect(core.state == .failed(error))
    #expect(core.position == 1234)
    // Lost while playing: the output watches for it to come back.
    #expect(
      effects == [.silence(generation: core.generation), .hold(report: false), .releaseDevice, .awaitDevice])
    // Playing again tries again, from where it failed.
    #expect(core.play().contains(.decode(generation: core.generation, from: 1234, until: nil)))
  }

  @Test func aLostDeviceThatComesBackPlaysOnFromTheKeptPosition() {
    var core = loaded()
    _ = core.play()
    _ = core.failed(PlaybackError(code: .deviceFailed, message: "gone"), generation: nil, at: 4321)
    let effects = core.deviceReturned()
    #expect(core.state == .playing)
    #expect(effects.contains(.decode(generation: core.generation, from: 4321, until: nil)))
    // Once only; and not when the user asked for something meanwhile.
    #expect(core.deviceReturned().isEmpty)
    _ = core.failed(PlaybackError(code: .deviceFailed, message: "gone"), generation: nil, at: 100)
    _ = core.seek(to: 500)
    #expect(core.deviceReturned().isEmpty)
    #expect(core.state == .paused)
  }

  @Test func aDecoderFailureWaitsForNoDevice() {
    var core = loaded()
    _ = core.play()
    let effects = core.failed(
      PlaybackError(code: .decoder, message: "bad"), generation: core.generation, at: 10)
    #expect(!effects.contains(.awaitDevice))
    #expect(core.deviceReturned().isEmpty)
  }

  @Test func anInterruptedOutputGoesOnFromTheFrameHeard() {
    var core = loaded()
    _ = core.play()
    let g = core.generation
    #expect(core.interrupted(generation: g, at: 777) == [.decode(generation: g + 1, from: 777, until: nil)])
    #expect(core.state == .playing)
    // A report from an older generation is stale.
    #expect(core.interrupted(generation: g, at: 10).isEmpty)
  }

  @Test func aPauseInPlaceKeepsTheGenerationAndResumesWithRun() {
    var core = loaded()
    _ = core.play()
    let g = core.generation
    _ = core.pause()
    #expect(core.outputHeld(generation: g, at: 600, inPlace: true).isEmpty)
    #expect(core.state == .paused)
    #expect(core.position == 600)
    #expect(core.generation == g)
    #expect(core.resume() == [.openDevice, .run])
  }
}

@Suite struct PlayerCoreLoopTests {
  func playing(frames: Int = 480_000, at frame: Int = 0) -> PlayerCore {
    var core = PlayerCore()
    _ = core.load(totalFrames: frames, lengthKnown: true)
    _ = core.play(from: frame)
    return core
  }

  @Test func aLoopSetBeforeItsEndRestartsWhereItIsHeardSoTheDecoderWraps() {
    var core = playing(at: 1000)
    let g = core.generation
    #expect(
      core.setLoop(48_000..<96_000, minimum: 9600, heard: 30_000) == [
        .decode(generation: g + 1, from: 30_000, until: nil)
      ])
    #expect(core.loop == 48_000..<96_000)
  }

  @Test func aLoopSetAtOrAfterItsEndGoesBackToItsStart() {
    var core = playing()
    let g = core.generation
    #expect(
      core.setLoop(48_000..<96_000, minimum: 9600, heard: 96_000) == [
        .decode(generation: g + 1, from: 48_000, until: nil)
      ])
  }

  @Test func aLoopTooShortOrNotLoadedIsIgnored() {
    var core = playing()
    #expect(core.setLoop(48_000..<50_000, minimum: 9600, heard: 0).isEmpty)
    #expect(core.loop == nil)
    var empty = PlayerCore()
    #expect(empty.setLoop(0..<96_000, minimum: 9600, heard: 0).isEmpty)
    #expect(empty.loop == nil)
  }

  @Test func clearingRestartsWhereItIsHeardAndALoadForgetsTheLoop() {
    var core = playing()
    _ = core.setLoop(48_000..<96_000, minimum: 9600, heard: 50_000)
    let g = core.generation
    #expect(core.clearLoop(heard: 70_000) == [.decode(generation: g + 1, from: 70_000, until: nil)])
    #expect(core.loop == nil)
    #expect(core.clearLoop(heard: 70_000).isEmpty)
    _ = core.setLoop(48_000..<96_000, minimum: 9600, heard: 50_000)
    _ = core.load(totalFrames: 1000, lengthKnown: true)
    #expect(core.loop == nil)
  }

  @Test func idleALoopWaitsForPlayAndPlayingAfterTheEndStartsAtTheLoop() {
    var core = PlayerCore()
    _ = core.load(totalFrames: 480_000, lengthKnown: true)
    #expect(core.setLoop(48_000..<96_000, minimum: 9600, heard: 0).isEmpty)
    #expect(core.loop == 48_000..<96_000)
    let g = core.generation
    _ = core.play(from: 200_000)
    _ = core.reachedEnd(generation: g + 1, at: 480_000)
    #expect(core.state == .ended)
    #expect(core.play() == [.openDevice, .decode(generation: g + 3, from: 48_000, until: nil), .run])
  }

  /// After an interruption the new generation starts where the old one's frames lead (a change
  /// made again on a pulse device starts a little ahead, where the old stream will be when the
  /// new one sounds): until the new generation's clock comes, the position is the old clock's,
  /// running on, never past where the new one starts. After a seek it is the seek's target.
  @Test func untilItsClockComesAGenerationGoingOnShowsTheLastClockUpToItsStart() {
    var shared = Engine.Shared()
    _ = shared.core.load(totalFrames: 480_000, lengthKnown: true)
    _ = shared.core.play()
    let g = shared.core.generation
    shared.control.rate = 48_000
    shared.clock = PlaybackClock(
      generation: g, heard: 48_000, ahead: 192_000, stamp: 1_000_000_000, running: true, rate: 48_000)
    _ = shared.core.interrupted(generation: g, at: 49_440)
    shared.goingOn = shared.core.generation
    func position(at now: UInt64) -> Double {
      Engine.snapshot(of: shared, device: "d", now: now).position
    }
    // 10 ms on: the old stream's frame 48,480; 40 ms on it would be past 49,440, where it holds.
    #expect(position(at: 1_010_000_000) == 48_480.0 / 48_000)
    #expect(position(at: 1_040_000_000) == 49_440.0 / 48_000)
    // Its own clock come, that is what counts.
    shared.clock = PlaybackClock(
      generation: shared.core.generation, heard: 49_440, ahead: 96_000, stamp: 1_050_000_000, running: true,
      rate: 48_000)
    #expect(position(at: 1_060_000_000) == 49_920.0 / 48_000)
    // A seek is not an interruption: its target at once.
    shared.clock = PlaybackClock(
      generation: shared.core.generation, heard: 49_440, ahead: 96_000, stamp: 1_050_000_000, running: true,
      rate: 48_000)
    _ = shared.core.seek(to: 200_000)
    #expect(position(at: 1_060_000_000) == 200_000.0 / 48_000)
  }
}
