/// The player's logic as a value: requests from the interface and reports from the two threads
/// come in, the state changes, and the effects for the threads to carry out come out. Nothing here
/// touches a device, a file or a thread, so every transition is tested on its own.
///
/// Frames are heard frames (0 is the first frame after the priming) at the track's output rate.
struct PlayerCore: Sendable, Equatable {
  /// What the engine must do after a transition.
  enum Effect: Sendable, Equatable {
    /// Make sure the output thread has the device open.
    case openDevice
    /// Start generation `generation`: decode from `from` up to `until` (the end when nil); the output
    /// drops whatever it holds of older generations.
    case decode(generation: UInt64, from: Int, until: Int?)
    /// Start generation `generation` with nothing to decode: the output drops what it holds.
    case silence(generation: UInt64)
    /// The output hands frames to the device.
    case run
    /// The output stops handing frames over and drops what the device holds; with `report` it
    /// says at which frame it stopped (`outputHeld`).
    case hold(report: Bool)
    /// The output closes the device: nothing will play until asked, and a device held open while
    /// idle would keep other programs from a sound card without mixing.
    case releaseDevice
    /// The device was lost while playing: try it now and then, and say when it is back
    /// (`deviceReturned`).
    case awaitDevice
  }

  /// Where the player is.
  private(set) var state: PlaybackState = .idle
  /// Bumped at every start, seek, pause and stop; frames of older generations are never played.
  private(set) var generation: UInt64 = 0
  /// Heard frame where the current generation starts.
  private(set) var startFrame = 0
  /// Heard frame shown when not playing.
  private(set) var position = 0
  /// Where the current range ends (the track's end when nil).
  private(set) var rangeEnd: Int? = nil
  /// Where the current range started, so playing again after the end replays it.
  private(set) var rangeStart = 0
  /// Whether a track is loaded.
  private(set) var loaded = false
  /// Heard frames in the track.
  private(set) var totalFrames = 0
  /// Whether the listing knows the length; when not, it becomes known at the end.
  private(set) var lengthKnown = false
  /// Where the track was found to end, once playing got there.
  private(set) var endSeen: Int? = nil
  /// A pause was asked and the output has not yet said where it stopped.
  private(set) var pausing = false
  /// The device was lost while playing and nothing has been asked since: play on when it is back.
  private(set) var awaitingDevice = false
  /// The A-B loop (heard frames): a generation that starts before its end wraps from its end to
  /// its start, for ever.
  private(set) var loop: Range<Int>? = nil

  /// The length in frames, when known.
  var knownLength: Int? { lengthKnown ? totalFrames : endSeen }

  /// A new track replaces the old one; the player is idle at its start.
  mutating func load(totalFrames: Int, lengthKnown: Bool) -> [Effect] {
    loaded = true
    self.totalFrames = max(0, totalFrames)
    self.lengthKnown = lengthKnown
    rangeEnd = nil
    rangeStart = 0
    loop = nil
    return stopEffects()
  }

  /// Repeats `range` (clamped to the track; ignored when shorter than `minimum` frames). Playing
  /// or paused, the generation restarts at `heard` (the frame being heard) so the decoder wraps
  /// at the new end; from the end of the loop on, it goes back to the loop's start at once.
  mutating func setLoop(_ range: Range<Int>, minimum: Int, heard: Int) -> [Effect] {
    guard loaded else { return [] }
    let start = clamp(range.lowerBound)
    let end = clamp(range.upperBound)
    guard end - start >= max(1, minimum) else { return [] }
    loop = start..<end
    switch state {
    case .playing, .paused:
      let at = clamp(heard)
      return restart(at: at >= end ? start : at)
    case .idle, .ended, .failed:
      return []
    }
  }

  /// Stops repeating; playing or paused, the generation restarts at `heard` so it plays on past
  /// the loop's end.
  mutating func clearLoop(heard: Int) -> [Effect] {
    guard loop != nil else { return [] }
    loop = nil
    switch state {
    case .playing, .paused: return restart(at: clamp(heard))
    case .idle, .ended, .failed: return []
    }
  }

  /// A track could not be loaded: nothing is loaded, and the state says why.
  mutating func loadFailed(_ error: PlaybackError) -> [Effect] {
    let effects = stopEffects()
    loaded = false
    totalFrames = 0
    state = .failed(error)
    return effects
  }

  /// Plays from `from` (where it is when nil; from the range's start after the end) up to
  /// `until` (the end when nil). Paused with neither given: resumes.
  mutating func play(from: Int? = nil, until: Int? = nil) -> [Effect] {
    guard loaded else { return [] }
    awaitingDevice = false
    if from == nil && until == nil && state == .paused { return resume() }
    let start: Int
    if let from {
      start = clamp(from)
    } else if state == .ended {
      start = loop?.lowerBound ?? rangeStart
    } else {
      start = position
    }
    if from != nil || until != nil { rangeEnd = until.map(clamp) }
    if let end = rangeEnd, end <= start { rangeEnd = nil }
    rangeStart = start
    state = .playing
    pausing = false
    return [.openDevice] + restart(at: start) + [.run]
  }

  /// Stops at the frame being heard; the output reports it (`outputHeld`).
  mutating func pause() -> [Effect] {
    guard state == .playing, !pausing else { return [] }
    pausing = true
    return [.hold(report: true)]
  }

  /// Carries on from where the pause stopped.
  mutating func resume() -> [Effect] {
    switch state {
    case .paused:
      state = .playing
      return [.openDevice, .run]
    case .playing where pausing:
      pausing = false
      return [.run]
    case .idle, .ended, .failed:
      return play()
    case .playing:
      return []
    }
  }

  /// Pause when playing, play otherwise.
  mutating func toggle() -> [Effect] {
    state == .playing && !pausing ? pause() : (state == .paused ? resume() : play())
  }

  /// Stops and goes back to the start.
  mutating func stop() -> [Effect] {
    guard loaded else { return [] }
    return stopEffects()
  }

  /// Moves to `frame`. Playing goes on playing from there; otherwise the player waits there,
  /// paused, with the audio already decoded.
  mutating func seek(to frame: Int) -> [Effect] {
    guard loaded else { return [] }
    awaitingDevice = false
    let target = clamp(frame)
    if let end = rangeEnd, target >= end { rangeEnd = nil }
    rangeStart = target
    switch state {
    case .playing, .paused:
      break
    case .idle, .ended, .failed:
      state = .paused
    }
    return restart(at: target)
  }

  /// The output stopped for a pause in generation `generation`, at heard frame `frame`; `inPlace`
  /// when the device paused holding what it had (resuming goes on with it, in the same generation).
  mutating func outputHeld(generation reported: UInt64, at frame: Int, inPlace: Bool = false) -> [Effect] {
    guard reported == generation else {
      // A seek overtook the pause: the seek's position stands.
      if pausing {
        pausing = false
        state = .paused
      }
      return []
    }
    if pausing {
      pausing = false
      state = .paused
      if inPlace {
        position = frame
        return []
      }
      return restart(at: frame)
    }
    // Resumed before the output got to the pause: a device paused in place is resumed by `.run`.
    if inPlace { return [] }
    // Resumed before the output got to the pause: carry on from the frame it stopped at.
    return state == .playing ? restart(at: frame) : []
  }

  /// The output played everything of generation `generation`, up to heard frame `frame`.
  mutating func reachedEnd(generation reported: UInt64, at frame: Int) -> [Effect] {
    guard reported == generation, state == .playing else { return [] }
    state = .ended
    pausing = false
    position = frame
    generation += 1
    startFrame = frame
    return [.silence(generation: generation), .hold(report: false), .releaseDevice]
  }

  /// The device failed in generation `generation` and was prepared or opened again, losing what
  /// it held, or what it holds was made with settings since changed (a device that holds
  /// seconds): playing goes on from heard frame `frame`.
  mutating func interrupted(generation reported: UInt64, at frame: Int) -> [Effect] {
    guard reported == generation, state == .playing else { return [] }
    return restart(at: clamp(frame))
  }

  /// The device lost while playing opens again: play on from the kept position, unless something
  /// was asked meanwhile.
  mutating func deviceReturned() -> [Effect] {
    guard awaitingDevice, case .failed = state else { return [] }
    awaitingDevice = false
    return play()
  }

  /// Decoding or the device failed. A failure from generation `generation` (nil: the device, which
  /// is not tied to one) that is not current is stale and ignored.
  mutating func failed(_ error: PlaybackError, generation reported: UInt64?, at frame: Int) -> [Effect] {
    if let reported, reported != generation { return [] }
    let wasPlaying = state == .playing
    state = .failed(error)
    pausing = false
    position = clamp(frame)
    generation += 1
    startFrame = position
    let effects: [Effect] = [.silence(generation: generation), .hold(report: false), .releaseDevice]
    // A device lost while playing (not a decoder failure): play on when it comes back.
    awaitingDevice = reported == nil && wasPlaying && error.code == .deviceFailed
    return effects + (awaitingDevice ? [.awaitDevice] : [])
  }

  private mutating func restart(at frame: Int) -> [Effect] {
    generation += 1
    startFrame = frame
    position = frame
    return [.decode(generation: generation, from: frame, until: rangeEnd)]
  }

  private mutating func stopEffects() -> [Effect] {
    state = .idle
    awaitingDevice = false
    pausing = false
    generation += 1
    startFrame = 0
    position = 0
    return [.silence(generation: generation), .hold(report: false), .releaseDevice]
  }

  private func clamp(_ frame: Int) -> Int { max(0, min(frame, totalFrames)) }
}
