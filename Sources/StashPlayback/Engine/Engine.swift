import Synchronization

/// The running parts of a player: its logic (`PlayerCore`) and what the two threads read, behind
/// one lock; the ring between the threads; and their wake-ups. The threads hold the engine, and
/// the `Player` the interface holds shuts it down when it goes.
final class Engine: Sendable {
  /// A decoder being handed to the decoder thread, which alone uses it from then on.
  final class DecoderHandoff: @unchecked Sendable {
    // @unchecked: created on the loading thread, then used by the decoder thread only.
    let decoder: TrackDecoder
    init(_ decoder: TrackDecoder) { self.decoder = decoder }
  }

  /// What the threads act on, written only by applying the core's effects.
  struct Control: Sendable {
    var quit = false
    /// Bumped at each load; the decoder thread picks up `handoff` when it changes.
    var trackNumber = 0
    var handoff: DecoderHandoff? = nil
    var rate = 48_000
    var channels = 1
    var generation: UInt64 = 0
    var decoding = false
    var decodeFrom = 0
    var decodeUntil: Int? = nil
    /// The loop the current generation wraps in (heard frames), when it starts before its end.
    var decodeLoop: Range<Int>? = nil
    /// How fast to play (memo frames per device frame), and the gain on every sample.
    var speed = 1.0
    var gain: Float = 1
    /// Whether the voice boost is on.
    var voiceBoost = false
    /// Whether the noise reduction is on.
    var enhance = false
    /// How hard pauses are shortened, or nil when they are not.
    var skipSilence: SkipSilenceLevel? = nil
    /// When the speed or the gain last changed (the engine's clock, ns), until a frame made with
    /// it reaches the device.
    var speedAskedAt: UInt64? = nil
    var gainAskedAt: UInt64? = nil
    /// The same for the voice boost and skip silence turned on, off or to another level.
    var boostAskedAt: UInt64? = nil
    var enhanceAskedAt: UInt64? = nil
    var skipAskedAt: UInt64? = nil
    /// Whether the output hands frames over.
    var running = false
    /// Bumped per pause: the output reports where it stopped once for each.
    var holdRequests: UInt64 = 0
    /// Whether the output should have the device open.
    var wantDevice = false
    /// The device was lost while playing: the output tries it now and then, and says when it is back.
    var awaitingDevice = false
    /// When the last seek was asked (monotonic ns), until its first frame reaches the device.
    var seekAskedAt: UInt64? = nil
  }

  /// The listener's settings, which outlive each memo.
  struct Settings: Sendable, Equatable {
    var speed = 1.0
    var volume = 100
    var muted = false
    var voiceBoost = false
    var enhance = false
    var skipSilence: SkipSilenceLevel? = nil
    /// The gain the samples are multiplied by.
    var gain: Float { muted ? 0 : Float(volume) / 100 }
  }

  struct Shared: Sendable {
    var core = PlayerCore()
    var settings = Settings()
    var lastSpeedLatency: Double? = nil
    var lastGainLatency: Double? = nil
    var lastBoostLatency: Double? = nil
    var lastEnhanceLatency: Double? = nil
    var lastSkipLatency: Double? = nil
    var control = Control()
    var clock = PlaybackClock()
    var path: String? = nil
    var revision: UInt64 = 0
    var underruns = 0
    var lastSeekLatency: Double? = nil
    /// Memo frames skip silence has cut out of the memo loaded.
    var silenceSaved = 0
    /// A generation started where the frames of the one before lead (after an interruption): the
    /// device may still sound those, so until its own clock comes, the last clock, up to where it
    /// starts, is what is heard.
    var goingOn: UInt64? = nil
  }

  /// What a thread reports.
  enum Report: Sendable {
    case held(generation: UInt64, frame: Int, inPlace: Bool)
    /// The device failed and was prepared or opened again, and what it held is lost; or what it
    /// holds was made with settings since changed (`restartForSettings`).
    case interrupted(generation: UInt64, frame: Int)
    /// A device lost while playing opens again.
    case deviceReturned
    case ended(generation: UInt64, frame: Int)
    case failed(PlaybackError, generation: UInt64?, frame: Int)
  }

  let shared = Mutex(Shared())
  let ring = ChunkRing(capacity: 12)
  let decoderWake = Wakeup()
  let outputWake = Wakeup()
  let deviceName: String
  let opener: PCMOpener
  let observer: (@Sendable (PlaybackSnapshot) -> Void)?
  /// Monotonic nanoseconds; tests pass a virtual clock.
  let now: @Sendable () -> UInt64

  init(
    deviceName: String, opener: @escaping PCMOpener, observer: (@Sendable (PlaybackSnapshot) -> Void)?,
    now: @escaping @Sendable () -> UInt64
  ) {
    self.deviceName = deviceName
    self.opener = opener
    self.observer = observer
    self.now = now
  }

  /// Starts the decoder and output threads.
  func start() {
    DetachedThread.start { [self] in runDecoder() }
    DetachedThread.start { [self] in runOutput() }
  }

  /// Asks both threads to end; the output closes the device.
  func shutdown() {
    shared.withLock { $0.control.quit = true }
    decoderWake.signal()
    outputWake.signal()
  }

  /// Runs `change` on the core under the lock, applies its effects to the control, then wakes the
  /// threads and tells the observer.
  @discardableResult
  func transition(
    _ change: (inout PlayerCore) -> [PlayerCore.Effect], seek: Bool = false,
    before: (inout Shared) -> Void = { _ in }, after: (inout Shared) -> Void = { _ in }
  ) -> [PlayerCore.Effect] {
    let (effects, snapshot) = shared.withLock { shared -> ([PlayerCore.Effect], PlaybackSnapshot) in
      before(&shared)
      let effects = change(&shared.core)
      after(&shared)
      Self.apply(effects, to: &shared.control)
      shared.control.decodeLoop = shared.core.loop
      if seek {
        shared.control.seekAskedAt = PlaybackClock.now()
        shared.lastSeekLatency = nil
      }
      if !effects.isEmpty { shared.revision += 1 }
      return (effects, Self.snapshot(of: shared, device: deviceName, now: now()))
    }
    if !effects.isEmpty {
      decoderWake.signal()
      outputWake.signal()
      observer?(snapshot)
    }
    return effects
  }

  /// Changes the listener's settings and hands them to the output thread, which applies them to
  /// the next frames it hands the device.
  func changeSettings(_ change: (inout Settings) -> Void) {
    let stamp = now()
    let snapshot = shared.withLock { shared -> PlaybackSnapshot? in
      let before = shared.settings
      change(&shared.settings)
      guard shared.settings != before else { return nil }
      // A setting changed goes to the output thread, stamped so its way to the device is timed.
      func ask<Value: Equatable>(
        _ value: Value, _ old: Value, _ control: inout Value, _ askedAt: inout UInt64?,
        _ latency: inout Double?
      ) {
        guard value != old else { return }
        control = value
        askedAt = stamp
        latency = nil
      }
      let settings = shared.settings
      ask(
        settings.speed, before.speed, &shared.control.speed, &shared.control.speedAskedAt,
        &shared.lastSpeedLatency)
      ask(
        settings.gain, before.gain, &shared.control.gain, &shared.control.gainAskedAt, &shared.lastGainLatency
      )
      ask(
        settings.voiceBoost, before.voiceBoost, &shared.control.voiceBoost, &shared.control.boostAskedAt,
        &shared.lastBoostLatency)
      ask(
        settings.enhance, before.enhance, &shared.control.enhance, &shared.control.enhanceAskedAt,
        &shared.lastEnhanceLatency)
      ask(
        settings.skipSilence, before.skipSilence, &shared.control.skipSilence, &shared.control.skipAskedAt,
        &shared.lastSkipLatency)
      shared.revision += 1
      return Self.snapshot(of: shared, device: deviceName, now: stamp)
    }
    guard let snapshot else { return }
    outputWake.signal()
    observer?(snapshot)
  }

  /// Feeds a thread's report to the core.
  func report(_ report: Report) {
    transition(
      { core in
        switch report {
        case .held(let generation, let frame, let inPlace):
          core.outputHeld(generation: generation, at: frame, inPlace: inPlace)
        case .interrupted(let generation, let frame): core.interrupted(generation: generation, at: frame)
        case .deviceReturned: core.deviceReturned()
        case .ended(let generation, let frame): core.reachedEnd(generation: generation, at: frame)
        case .failed(let error, let generation, let frame):
          core.failed(error, generation: generation, at: frame)
        }
      },
      after: { shared in
        if case .interrupted = report { shared.goingOn = shared.core.generation }
      })
  }

  static func apply(_ effects: [PlayerCore.Effect], to control: inout Control) {
    for effect in effects {
      switch effect {
      case .openDevice:
        control.wantDevice = true
        control.awaitingDevice = false
      case .awaitDevice:
        control.awaitingDevice = true
      case .decode(let generation, let from, let until):
        control.generation = generation
        control.decoding = true
        control.decodeFrom = from
        control.decodeUntil = until
      case .silence(let generation):
        control.generation = generation
        control.decoding = false
      case .run:
        control.running = true
      case .releaseDevice:
        control.wantDevice = false
        control.awaitingDevice = false
      case .hold(let report):
        control.running = false
        if report { control.holdRequests += 1 }
      }
    }
  }

  /// The snapshot for the interface, read under the lock.
  func snapshot() -> PlaybackSnapshot {
    let now = self.now()
    return shared.withLock { Self.snapshot(of: $0, device: deviceName, now: now) }
  }

  static func snapshot(of shared: borrowing Shared, device: String, now: UInt64) -> PlaybackSnapshot {
    let core = shared.core
    let rate = Double(max(1, shared.control.rate))
    var frame = core.position
    if core.state == .playing && shared.clock.generation == core.generation {
      frame = shared.clock.heardFrame(at: now)
    } else if core.state == .playing && shared.goingOn == core.generation
      && shared.clock.generation < core.generation
    {
      frame = min(frame, shared.clock.heardFrame(at: now))
    }
    return PlaybackSnapshot(
      state: core.state, position: Double(frame) / rate,
      duration: core.loaded ? core.knownLength.map { Double($0) / rate } : nil, path: shared.path,
      device: device, revision: shared.revision, underruns: shared.underruns,
      lastSeekLatency: shared.lastSeekLatency, speed: shared.settings.speed, volume: shared.settings.volume,
      muted: shared.settings.muted,
      loop: core.loop.map {
        PlaybackLoop(start: Double($0.lowerBound) / rate, end: Double($0.upperBound) / rate)
      },
      lastSpeedLatency: shared.lastSpeedLatency, lastVolumeLatency: shared.lastGainLatency,
      voiceBoost: shared.settings.voiceBoost, skipSilence: shared.settings.skipSilence,
      silenceSkipped: Double(shared.silenceSaved) / rate, lastVoiceBoostLatency: shared.lastBoostLatency,
      lastSkipSilenceLatency: shared.lastSkipLatency, enhance: shared.settings.enhance,
      lastEnhanceLatency: shared.lastEnhanceLatency,
      countedDuration: core.loaded && core.knownLength == nil && core.totalFrames > 0
        ? Double(core.totalFrames) / rate : nil)
  }
}
