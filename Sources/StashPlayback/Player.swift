#if canImport(Glibc)
  import Glibc
#endif

/// Plays one memo's audio at a time on an ALSA device. Every method returns at once and may be
/// called from any thread: decoding and device writes run on the player's own two threads, and
/// the interface reads `snapshot`, a value, never live state.
///
/// Typical use: `let player = Player(); try player.load(path: memo)`; `player.play(from: 83.0)`;
/// each frame draw `player.snapshot`; `pause()`, `resume()`, `seek(to:)`, `stop()`.
public final class Player: Sendable {
  private let engine: Engine
  /// For a PulseAudio device, holds the sink at the player's latency from now on (`SinkWarmer`).
  private let warmer: SinkWarmer?

  /// The device used when none is named: `STASH_ALSA_DEVICE`, else ALSA's `default`.
  public static var defaultDevice: String {
    if let named = getenv("STASH_ALSA_DEVICE"), named.pointee != 0 { return String(cString: named) }
    return "default"
  }

  /// A player for `device` (`defaultDevice` when nil). With `STASH_ALSA_PACE=1` in the
  /// environment the device is paced to real time (`PacedDevice`), for tests and benchmarks on
  /// `null` or `file` PCMs, which otherwise take everything at once. `onChange` is called, on whichever thread
  /// made it, after every change of state, seek and load (not for the clock moving on); a browser
  /// uses it to wake its loop.
  public convenience init(device: String? = nil, onChange: (@Sendable (PlaybackSnapshot) -> Void)? = nil) {
    let paced =
      getenv("STASH_ALSA_PACE").map { String(cString: $0) }.map { !$0.isEmpty && $0 != "0" } ?? false
    self.init(
      device: device,
      opener: { name in
        let (device, error) = ALSADevice.open(name)
        return (paced ? device.map { PacedDevice($0) } : device, error)
      }, warmer: SinkWarmer(device: device ?? Self.defaultDevice), onChange: onChange)
  }

  /// A player whose device is opened through `opener` and whose clock reads `now` (monotonic
  /// nanoseconds): tests hand in a simulated device and a virtual clock.
  public convenience init(
    device: String? = nil, opener: @escaping PCMOpener,
    now: @escaping @Sendable () -> UInt64 = { PlaybackClock.now() },
    onChange: (@Sendable (PlaybackSnapshot) -> Void)? = nil
  ) {
    self.init(device: device, opener: opener, now: now, warmer: nil, onChange: onChange)
  }

  private init(
    device: String?, opener: @escaping PCMOpener,
    now: @escaping @Sendable () -> UInt64 = { PlaybackClock.now() },
    warmer: SinkWarmer?, onChange: (@Sendable (PlaybackSnapshot) -> Void)?
  ) {
    self.warmer = warmer
    engine = Engine(deviceName: device ?? Self.defaultDevice, opener: opener, observer: onChange, now: now)
    engine.start()
  }

  deinit { engine.shutdown() }

  /// The state, position and length as of now.
  public var snapshot: PlaybackSnapshot { engine.snapshot() }

  /// Loads the audio of the memo `path` names (its audio file, any other of its files, or its base
  /// path) and waits, idle, at its start. A damaged file fails here with the reader's reason, and
  /// the player's state says so too.
  public func load(path: String) throws(PlaybackError) {
    let track: AudioTrack
    do {
      track = try AudioTrack.read(path: try AudioTrack.audioPath(forMemo: path))
    } catch {
      var failure = error
      if failure.path == nil { failure.path = path }
      fail(failure, path: failure.path)
      throw failure
    }
    try load(track)
  }

  /// Loads `track` and waits, idle, at its start. Opens the file and the decoder here, so a track
  /// that cannot be decoded fails now (and the player's state says why) rather than when played.
  public func load(_ track: AudioTrack) throws(PlaybackError) {
    let decoder: TrackDecoder
    do {
      decoder = try TrackDecoder(track: track)
    } catch {
      fail(error, path: track.path)
      throw error
    }
    let handoff = Engine.DecoderHandoff(decoder)
    engine.transition { core in
      core.load(totalFrames: decoder.timeline.heardFrames, lengthKnown: track.lengthKnown)
    } before: { shared in
      shared.path = track.path
      shared.control.trackNumber += 1
      shared.control.handoff = handoff
      shared.control.rate = decoder.rate
      shared.control.channels = decoder.channels
      shared.lastSeekLatency = nil
      shared.silenceSaved = 0
    }
  }

  /// Plays from `from` seconds (where it is when nil, from the start of the range after the end)
  /// until `until` seconds (the end when nil). Paused, with neither given, resumes.
  public func play(from: Double? = nil, until: Double? = nil) {
    let rate = self.rate
    engine.transition(
      { $0.play(from: from.map { Self.frame($0, rate) }, until: until.map { Self.frame($0, rate) }) },
      seek: from != nil, before: { Self.restartCount(at: from, &$0) })
  }

  /// Skip silence's time saved counts from the memo's start: played again from its beginning
  /// (B, or a click at 0:00), the count starts again.
  private static func restartCount(at seconds: Double?, _ shared: inout Engine.Shared) {
    if let seconds, seconds <= 0 { shared.silenceSaved = 0 }
  }

  /// Pauses at the frame being heard.
  public func pause() { engine.transition { $0.pause() } }

  /// Resumes from the very frame the pause stopped at.
  public func resume() { engine.transition { $0.resume() } }

  /// Pauses when playing, plays otherwise.
  public func togglePause() { engine.transition { $0.toggle() } }

  /// Stops and goes back to the start.
  public func stop() { engine.transition { $0.stop() } }

  /// Moves to `seconds` (clamped to the memo); the first frame heard afterwards is the one there.
  /// Playing carries on from there; otherwise the player waits there, paused.
  public func seek(to seconds: Double) {
    let rate = self.rate
    engine.transition(
      { $0.seek(to: Self.frame(seconds, rate)) }, seek: true, before: { Self.restartCount(at: seconds, &$0) })
  }

  /// Moves by `seconds` from what is being heard (negative: back).
  public func seek(by seconds: Double) { seek(to: snapshot.position + seconds) }

  /// The slowest and fastest speeds.
  public static let speeds: ClosedRange<Double> = 0.5...3.0
  /// The loudest volume, in percent.
  public static let maximumVolume = 150
  /// The shortest A-B loop, in seconds: anything shorter is a stutter, not a phrase.
  public static let shortestLoop = 0.2

  /// Plays at `speed` times the recorded pace (clamped to 0.5...3), the pitch kept. The change is
  /// heard from the next frames handed to the device; positions, the length and seeks stay in
  /// memo time. Kept across loads: it is the listener's setting, not the memo's.
  ///
  /// A speed other than 1× needs libavfilter, opened on first use: when it cannot be, the speed
  /// stays 1×, playing carries on, and the error says why (the library and the loader's reason).
  @discardableResult
  public func setSpeed(_ speed: Double) -> PlaybackError? {
    guard speed.isFinite else { return nil }
    var clamped = min(Self.speeds.upperBound, max(Self.speeds.lowerBound, speed))
    var refused: PlaybackError?
    if clamped != 1, case .failure(let error) = SpeedFilterLibrary.shared {
      refused = error
      clamped = 1
    }
    engine.changeSettings { $0.speed = clamped }
    return refused
  }

  /// Sets the software gain to `percent` (clamped to 0...150). Above 100 % the peaks are limited
  /// softly rather than clipped or wrapped. Kept across loads.
  public func setVolume(_ percent: Int) {
    let clamped = min(Self.maximumVolume, max(0, percent))
    engine.changeSettings { $0.volume = clamped }
  }

  /// Turns the voice boost on or off: a quiet voice is brought up to a steady loudness (about
  /// -16 LUFS, true peak under -1 dBTP) and a voice that comes and goes is evened out, before the
  /// volume, mute and limiter. The change is heard from the next frames handed to the device,
  /// faded over 10 ms; positions stay in memo time. Kept across loads.
  ///
  /// It needs libavfilter, opened on first use: when it cannot be, the boost stays off, playing
  /// carries on, and the error says why.
  @discardableResult
  public func setVoiceBoost(_ on: Bool) -> PlaybackError? {
    if on, case .failure(let error) = VoiceBoostLibrary.shared {
      engine.changeSettings { $0.voiceBoost = false }
      return error
    }
    engine.changeSettings { $0.voiceBoost = on }
    return nil
  }

  /// Turns the noise reduction on or off: a steady background (wind, hum, hiss) is brought down
  /// under the voice, after the voice boost when that is on. The change is heard from the next
  /// frames handed to the device, faded over 10 ms; positions stay in memo time. Kept across
  /// loads.
  ///
  /// It needs libavfilter, opened on first use: when it cannot be, it stays off, playing carries
  /// on, and the error says why.
  @discardableResult
  public func setEnhance(_ on: Bool) -> PlaybackError? {
    if on, case .failure(let error) = NoiseReductionLibrary.shared {
      engine.changeSettings { $0.enhance = false }
      return error
    }
    engine.changeSettings { $0.enhance = on }
    return nil
  }

  /// Shortens every pause longer than `level`'s length to that length (nil: off), pauses being
  /// found by the memo's own noise floor, measured as it plays; each cut is faded over 5 ms. The
  /// change reaches the frames handed to the device within a 10 ms window; positions, seeks and
  /// loops stay in memo time, and the snapshot says how much has been left out. Kept across loads.
  public func setSkipSilence(_ level: SkipSilenceLevel?) { engine.changeSettings { $0.skipSilence = level } }

  /// Silences the output (or not), keeping the volume. Kept across loads.
  public func setMuted(_ muted: Bool) { engine.changeSettings { $0.muted = muted } }

  /// Repeats from `from` to `to` (memo seconds, clamped to the memo) with no gap, until cleared
  /// or another memo is loaded. Playing before `to` plays on into the loop; at or after `to`, it
  /// goes back to `from` at once. A loop shorter than `shortestLoop` is ignored.
  public func setLoop(from: Double, to: Double) {
    guard from.isFinite, to.isFinite, to - from >= Self.shortestLoop else { return }
    let rate = self.rate
    let heard = Self.frame(snapshot.position, rate)
    engine.transition { core in
      core.setLoop(
        Self.frame(from, rate)..<Self.frame(to, rate), minimum: Self.frame(Self.shortestLoop, rate),
        heard: heard)
    }
  }

  /// Stops repeating: playing carries on past the loop's end.
  public func clearLoop() {
    let heard = Self.frame(snapshot.position, rate)
    engine.transition { $0.clearLoop(heard: heard) }
  }

  /// Unloads whatever was loaded and states `error`.
  private func fail(_ error: PlaybackError, path: String?) {
    engine.transition { core in
      core.loadFailed(error)
    } before: { shared in
      shared.path = path
      shared.control.trackNumber += 1
      shared.control.handoff = nil
    }
  }

  private var rate: Int { engine.shared.withLock { $0.control.rate } }

  private static func frame(_ seconds: Double, _ rate: Int) -> Int {
    guard seconds.isFinite, seconds > 0 else { return 0 }
    return Int((seconds * Double(rate)).rounded())
  }
}
