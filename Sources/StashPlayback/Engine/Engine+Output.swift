extension Engine {
  /// What the output thread keeps between turns of its loop.
  private struct OutputState {
    var output: PCMOutput? = nil
    var generation: UInt64 = .max
    var startFrame = 0
    /// Frames handed to the device in this generation.
    var written = 0
    /// Memo frames taken from chunks in this generation: handed over directly at 1×, else put
    /// into the stretcher.
    var fed = 0
    /// Which fed frame each device frame carries: the slope is the speed.
    var deviceMap = FrameMap()
    /// Which memo frame each fed frame is: it jumps where a loop wraps.
    var fedMap = FrameMap()
    /// Stretches fed frames to the speed; none at 1× until the speed first changes.
    var stretcher: TempoStretcher? = nil
    var speed = 1.0
    /// What the stretcher gave that the device has not taken yet (kept short: a speed change is
    /// heard after it).
    var stretched: [Float] = []
    var stretchedOffset = 0
    /// Device frame from which frames are made at the speed last asked.
    var speedFrom: Int? = nil
    /// Device frame from which frames are made with the voice boost last asked, and that ask.
    var boostFrom: Int? = nil
    var boostMarked: UInt64? = nil
    /// The same for the noise reduction.
    var enhanceFrom: Int? = nil
    var enhanceMarked: UInt64? = nil
    /// Fed frame from which frames went through skip silence at the level last asked, and that ask.
    var skipFrom: Int? = nil
    var skipMarked: UInt64? = nil
    /// The voice boost and the noise reduction, between the memo (or the stretcher) and
    /// `stretched`; empty until one is first turned on in a generation, so that without them the
    /// frames are the decoder's bit for bit.
    var voice = VoiceChain()
    /// What the stretcher gave, on its way into the voice filters.
    var unboosted: [Float] = []
    /// Skip silence, between the ring and the stretcher; none until first turned on. Kept across
    /// generations of one memo (emptied), so that its noise floor is not learnt again at a seek.
    var skipper: SilenceSkipper? = nil
    /// The memo the skipper's floor was learnt on.
    var skipperTrack = -1
    /// The chunks taken from the ring in this generation, newest last, about the last
    /// `historySeconds` of them: what a skip silence change makes again (`rerunSkip`).
    var history: [AudioChunk] = []
    var historyFrames = 0
    /// After a re-run, the frames dropped that the first ones made again fade from, and how many
    /// of them were used.
    var junction: [Float] = []
    var junctionOffset = 0
    var blended: [Float] = []
    /// The skipper's cuts not heard yet: each where the frames after it start among those fed,
    /// and the memo frames it left out. A cut is made up to a pause ahead of what is heard, and
    /// counted as time saved once the frames after it are heard.
    var cuts: [(fed: Int, frames: Int)] = []
    /// The memo frame the skipper's next chunk starts at unless it cut before it; nil until known.
    var skipperNext: Int? = nil
    var gain = OutputGain()
    var shaped: [Float] = []
    var pending: AudioChunk? = nil
    /// Frames of `pending` already handed over.
    var pendingOffset = 0
    var handledHolds: UInt64 = 0
    var underrunsReported = 0
    /// The device holds this generation's frames, paused in place (`snd_pcm_pause`).
    var pausedInPlace = false
    /// The delay last read, for the frame heard when the device fails.
    var lastDelay = 0
    /// Failures recovered since playing last went on for a second; too many in a row and the
    /// device is reported as gone.
    var troubles = 0
    /// When the device was last tried while waiting for it to come back (monotonic ns).
    var lastProbe: UInt64 = 0
    /// The settings this generation's frames are made with, for a device that holds seconds
    /// (`restartForSettings`).
    var madeWith: FrameSettings? = nil
    /// How loud the frames handed over in this generation are, where a change made again on a
    /// device that holds seconds is least heard.
    var peaks = HandedPeaks()
    /// The last change asked to be made again, until its new frames start sounding.
    var switchAskedAt: SwitchAsked? = nil
    /// The delay of the stream taken over from at which this generation's, held, is started, and
    /// the speed that stream's frames were made at.
    var heldStart: Int? = nil
    var heldSpeed = 1.0
    /// How long the frames of a change made again took to be ready to start, last time (seconds).
    var switchLead = 0.05
  }

  /// A change of settings asked to be made again (`restartForSettings`): when, in which
  /// generation, the memo frame the new frames start at, and where the stream taken over from is
  /// to hand over to them: at its device frame `at` (of the generation asked in), or when its delay
  /// falls to `remain` (asked again while the new stream was held). `leadNoted` once the time the
  /// new frames took to be ready is kept as `switchLead`.
  private struct SwitchAsked {
    var stamp: UInt64
    var generation: UInt64
    var to: Int
    var at: Int?
    var remain: Int?
    var leadNoted = false
  }

  /// The settings that shape the frames made: the speed, the volume, the voice boost, the noise
  /// reduction and skip silence.
  private struct FrameSettings: Equatable {
    var speed: Double
    var gain: Float
    var voiceBoost: Bool
    var enhance: Bool
    var skipSilence: SkipSilenceLevel?

    init(_ control: Control) {
      speed = control.speed
      gain = control.gain
      voiceBoost = control.voiceBoost
      enhance = control.enhance
      skipSilence = control.skipSilence
    }
  }

  /// The output thread: hands the ring's frames to the device, drops what the device holds when the
  /// generation changes, reports pauses, the end and failures, and keeps the clock.
  func runOutput() {
    var state = OutputState()
    while true {
      outputWake.clear()
      let control = shared.withLock { $0.control }
      if control.quit {
        if let output = state.output { _ = output.device.drop() }
        return
      }
      do {
        if try turn(&state, control) { continue }
      } catch {
        recover(&state, from: error, control)
      }
    }
  }

  /// After a device failure: prepare the device afresh, else reopen it, and go on from the frame
  /// heard (the core restarts the generation there); when neither works, or it keeps failing,
  /// close it and report the failure, once, with the position kept.
  private func recover(_ state: inout OutputState, from error: PlaybackError, _ control: Control) {
    let frame = heardWhileHeld(state, delay: state.lastDelay)
    state.heldStart = nil
    state.switchAskedAt = nil
    state.pending = nil
    state.pausedInPlace = false
    state.troubles += 1
    if state.troubles <= 2, let output = state.output, output.reset() {
      report(.interrupted(generation: state.generation, frame: frame))
      return
    }
    state.output = nil
    var failure = error
    if state.troubles <= 4 {
      do {
        state.output = try PCMOutput(
          name: deviceName, opener: opener, rate: control.rate, channels: control.channels)
        report(.interrupted(generation: state.generation, frame: frame))
        return
      } catch {
        failure.message += "; it would not open again"
      }
    }
    state.troubles = 0
    shared.withLock { $0.control.wantDevice = false }
    report(.failed(failure, generation: nil, frame: frame))
  }

  /// While the core waits for a lost device to come back: tries to open it every second, and
  /// says so when it opens (the core then plays on from where it was).
  private func probe(_ state: inout OutputState, _ control: Control) -> Bool {
    let stamp = PlaybackClock.now()
    guard stamp - state.lastProbe >= 1_000_000_000 else {
      outputWake.wait(timeout: 250)
      return false
    }
    state.lastProbe = stamp
    guard
      let output = try? PCMOutput(
        name: deviceName, opener: opener, rate: control.rate, channels: control.channels)
    else {
      outputWake.wait(timeout: 250)
      return false
    }
    state.output = output
    shared.withLock { $0.control.awaitingDevice = false }
    report(.deviceReturned)
    return true
  }

  /// One turn of the output loop; true to go round again at once, false after having waited.
  private func turn(_ state: inout OutputState, _ control: Control) throws(PlaybackError) -> Bool {
    if control.awaitingDevice && !control.wantDevice && state.output == nil {
      return probe(&state, control)
    }
    if control.wantDevice {
      let stale = state.output.map { $0.rate != control.rate || $0.channels != control.channels } ?? true
      if stale {
        state.output = nil
        state.pausedInPlace = false
        do {
          state.output = try PCMOutput(
            name: deviceName, opener: opener, rate: control.rate, channels: control.channels)
        } catch {
          shared.withLock { $0.control.wantDevice = false }
          report(.failed(error, generation: nil, frame: heardNow(state)))
          return true
        }
      }
    }
    if !control.wantDevice && !control.running, let output = state.output {
      _ = output.device.drop()
      state.output = nil
      state.pausedInPlace = false
    }
    if control.generation != state.generation {
      state.pausedInPlace = false
      // Gone elsewhere (a seek) rather than where a change was asked to be made again.
      if let asked = state.switchAskedAt, asked.to != control.decodeFrom { state.switchAskedAt = nil }
      // Where a change is made again, the stream taken over from hands over at the frame chosen.
      let asked = state.switchAskedAt
      let held = control.running ? asked?.remain ?? asked?.at.map { max(0, state.written - $0) } : nil
      // Going on playing from elsewhere: a device with two streams sounds until the new one starts.
      try state.output?.dropQueued(takingOver: control.running, holdingStart: held != nil)
      state.heldStart = state.output?.device.startHeld == true ? held : nil
      state.heldSpeed = state.madeWith?.speed ?? control.speed
      state.generation = control.generation
      state.startFrame = control.decodeFrom
      state.written = 0
      state.peaks.reset(rate: state.output?.rate ?? control.rate)
      startShaping(&state, control)
      if let pending = state.pending, pending.generation < control.generation { state.pending = nil }
      state.pendingOffset = state.pending == nil ? 0 : state.pendingOffset
      if let pending = state.pending { remember(&state, pending, control) }
      // A chunk of the new generation taken before the switch goes through the skipper too.
      if let pending = state.pending, let skipper = state.skipper {
        skipper.push(pending)
        state.pending = nil
      }
      publish(&state, delay: 0, running: false)
    }
    if control.holdRequests != state.handledHolds {
      state.handledHolds = control.holdRequests
      state.switchAskedAt = nil
      let delay = state.output?.delay() ?? 0
      let frame = heardWhileHeld(state, delay: delay)
      state.heldStart = nil
      if let output = state.output, !state.pausedInPlace, output.pauseInPlace() {
        // The device keeps what it holds, and the stream stays open: resuming goes on from it.
        state.pausedInPlace = true
        state.lastDelay = delay
        publish(&state, delay: delay, running: false)
        report(.held(generation: state.generation, frame: frame, inPlace: true))
        return true
      }
      try state.output?.dropQueued()
      // What was dropped is not heard: the generation now ends where the pause stopped.
      state.written = max(0, state.written - delay)
      state.stretched.removeAll()
      state.stretchedOffset = 0
      state.lastDelay = 0
      publish(&state, delay: 0, running: false)
      report(.held(generation: state.generation, frame: frame, inPlace: false))
      return true
    }
    guard control.running, let output = state.output else {
      outputWake.wait()
      return false
    }
    if state.pausedInPlace {
      state.pausedInPlace = false
      if try !output.resumeInPlace() {
        // It would not resume, so what it held is gone: go on from the frame the pause stopped at.
        report(.interrupted(generation: state.generation, frame: heard(state, delay: state.lastDelay)))
        return true
      }
    }
    if restartForSettings(&state, output, control) { return false }
    if try waitToStartHeld(&state, output, ended: false) { return false }
    state.gain.target = control.gain
    changeSpeed(&state, control)
    changeBoost(&state, control)
    changeEnhance(&state, control)
    changeSkip(&state, control)
    markSettings(&state, control, channels: output.channels)
    if state.stretchedOffset * output.channels < state.stretched.count {
      return try handStretched(&state, output, control)
    }
    // What the voice filters have made goes out before more goes in, a block at a time (a change
    // of the boost or the noise reduction reaches what is not out yet).
    if state.voice.pull(into: &state.stretched, limit: Self.stretchBlock) > 0 { return true }
    if state.pending == nil { takeChunk(&state, control) }
    guard let chunk = state.pending else {
      // Nothing decoded yet: wait for the decoder, but keep the clock moving meanwhile.
      outputWake.wait(timeout: 50)
      measure(&state, output)
      return false
    }
    // A chunk from a generation this thread has not switched to yet: switch first.
    if chunk.generation > state.generation { return true }
    switch chunk.content {
    case .audio(let samples):
      let frames = samples.count / output.channels - state.pendingOffset
      noteMemoFrame(&state, chunk.firstFrame + state.pendingOffset)
      if state.stretcher == nil, !state.voice.isEmpty {
        try feed(
          &state, samples, frames: frames, channels: output.channels, to: state.voice.push,
          "the voice boost or noise reduction (libavfilter)")
        state.voice.pull(into: &state.stretched, limit: Self.stretchBlock)
        return true
      }
      if let stretcher = state.stretcher {
        try feed(
          &state, samples, frames: frames, channels: output.channels, to: stretcher.push,
          "the speed filter (atempo)")
        try pullStretched(&state, stretcher)
        return true
      }
      let taken = try samples.withUnsafeBufferPointer { all throws(PlaybackError) in
        let rest = UnsafeBufferPointer(rebasing: all[(state.pendingOffset * output.channels)...])
        return try hand(&state, output, rest, frames: frames, control)
      }
      if taken > 0 {
        state.fed += taken
        state.pendingOffset += taken
        if taken == frames { state.pending = nil }
      }
      measure(&state, output)
      return try goOnOrWaitForRoom(taken: taken, output)
    case .end, .failure:
      // What comes before the end (or before audio that would not decode) is played out first.
      if let stretcher = state.stretcher {
        // The filter holds the last few milliseconds until told the input is over.
        stretcher.finish()
        if state.voice.isEmpty {
          if let got = stretcher.pull(into: &state.stretched), got > 0 { return true }
        } else {
          try pullStretched(&state, stretcher)
        }
      }
      if !state.voice.isEmpty {
        // So do the voice filters (a frame of dynaudnorm, the limiter's look-ahead, afftdn's window).
        state.voice.finish()
        state.voice.pull(into: &state.stretched, limit: Self.stretchBlock)
      }
      // Whatever the filters let out is handed over before the end.
      if state.stretchedOffset * output.channels < state.stretched.count { return true }
      if try waitToStartHeld(&state, output, ended: true) { return false }
      try output.startIfWaiting()
      let delay = measure(&state, output)
      if delay <= 0 || !output.isRunning {
        state.pending = nil
        // Nothing is left to hear; dropping also makes a file sink write out all it was given
        // before anyone learns that playing ended.
        try output.dropQueued()
        if case .failure(let error) = chunk.content {
          report(.failed(error, generation: state.generation, frame: heard(state)))
        } else {
          report(.ended(generation: state.generation, frame: chunk.firstFrame))
        }
        return true
      }
      // Wait for the device to play out what it holds (or for a seek).
      outputWake.wait(timeout: Int32(min(50, max(1, delay * 1000 / output.rate))))
      return false
    }
  }

  /// On a device that holds seconds (a pulse device, `PCMDevice.holdsSeconds`), a setting changed
  /// while playing would be heard only after what the device holds: the frames are made again
  /// instead, from a frame about to be heard, as after a seek (the core starts a new generation
  /// there, and the device's second stream takes over, the first sounding until the second
  /// starts). The two streams cannot fade into each other, so where they meet is chosen where it
  /// is not heard: the quietest stretch (a pause between words) among what is heard in the next
  /// `switchSearchSeconds` once the new frames can be ready (`switchLead`), when it is clearly
  /// quieter than what is heard then. The new stream is held until the old one gets there
  /// (`waitToStartHeld`), so a switch made late by a busy machine is still made in the pause, at
  /// the frame its new frames start at: nothing is heard twice or left out. True when it asked for
  /// a new generation (or had asked) and waited a little for it.
  private func restartForSettings(_ state: inout OutputState, _ output: PCMOutput, _ control: Control) -> Bool
  {
    let asked = FrameSettings(control)
    guard output.device.holdsSeconds, state.written > 0, let made = state.madeWith, made != asked else {
      // Nothing handed over yet, or the change is heard at once anyway: made from here as asked.
      state.madeWith = asked
      return false
    }
    if let asked = state.switchAskedAt, asked.generation == state.generation,
      PlaybackClock.now() - asked.stamp < 500_000_000
    {
      // Asked already: the new generation is on its way.
      outputWake.wait(timeout: 20)
      return true
    }
    let delay = measure(&state, output)
    let heard = max(0, state.written - delay)
    // A stream not started yet (nothing of it heard: the new frames start where it does; held, the
    // stream before it plays on) switches at once; one that sounds, where it is not heard, when
    // the device can hold the new stream until then; else (a standby not set up yet) from where
    // the old one will be when the new one starts by itself, the last lead later.
    let running = output.isRunning
    let holds = running && output.device.canHoldStart
    let at =
      holds
      ? switchFrame(state, heard: heard, rate: output.rate)
      : running ? min(state.written, heard + Int(state.switchLead * Double(output.rate))) : heard
    let frame = Int(memoFrame(state, device: at).rounded(.down))
    state.switchAskedAt = SwitchAsked(
      stamp: PlaybackClock.now(), generation: state.generation, to: frame, at: holds ? at : nil,
      remain: state.heldStart)
    report(.interrupted(generation: state.generation, frame: frame))
    outputWake.wait(timeout: 20)
    return true
  }

  /// The device frame, of those handed over and not heard yet, where a change made again is least
  /// heard (`restartForSettings`): the start of the quietest `switchQuietSeconds` that begins
  /// within `switchSearchSeconds` of the first frame the new frames can be ready for.
  private func switchFrame(_ state: OutputState, heard: Int, rate: Int) -> Int {
    let earliest = heard + max(rate / 100, Int((state.switchLead + 0.02) * Double(rate)))
    let latest = earliest + Int(Self.switchSearchSeconds * Double(rate))
    let length = Int(Self.switchQuietSeconds * Double(rate))
    var at = earliest
    if let now = state.peaks.quietest(from: earliest, to: earliest + state.peaks.block - 1, length: length),
      let best = state.peaks.quietest(from: earliest, to: latest, length: length),
      best.peak < now.peak / 2
    {
      at = best.start
    }
    return min(at, state.written)
  }

  /// A stream held at a change made again (`heldStart`): once it has the frames it would have
  /// started with, it waits for the stream taken over from to reach the frame where they meet,
  /// then starts. True when it waited. `ended`: the memo ends before the stream has those frames;
  /// it starts with what it has.
  private func waitToStartHeld(_ state: inout OutputState, _ output: PCMOutput, ended: Bool)
    throws(PlaybackError)
    -> Bool
  {
    guard let remain = state.heldStart else { return false }
    guard !output.isRunning else {
      state.heldStart = nil
      return false
    }
    guard ended || output.device.readyToStart else { return false }
    if let asked = state.switchAskedAt, asked.generation < state.generation, !asked.leadNoted {
      // How long the new frames took to be ready is the lead the next change allows for.
      state.switchLead = min(0.25, max(0.005, Double(PlaybackClock.now() - asked.stamp) / 1e9))
      state.switchAskedAt?.leadNoted = true
    }
    let left = (output.device.retiringDelay ?? 0) - remain
    if left > 0 {
      outputWake.wait(timeout: Int32(min(50, max(1, left * 1000 / output.rate))))
      return true
    }
    state.heldStart = nil
    try output.startIfWaiting()
    measure(&state, output)
    return false
  }

  /// How long a stretch a change made again looks for to be quiet in: the switch is made at its
  /// start, and the old stream may sound this much past it (a late wake-up) unheard.
  static let switchQuietSeconds = 0.08

  /// How far ahead of what is heard a change of settings made again looks for a pause.
  static let switchSearchSeconds = 0.3

  /// Makes the next chunk pending: from the ring, through the skipper when there is one (which may
  /// take several chunks in before it gives one out, in a pause). A chunk of a newer generation is
  /// made pending as it is: the generation is switched first.
  private func takeChunk(_ state: inout OutputState, _ control: Control) {
    state.pendingOffset = 0
    while true {
      if let skipped = state.skipper?.pop() {
        noteCut(&state, before: skipped, channels: max(1, control.channels))
        state.pending = skipped
        return
      }
      guard let (chunk, wasFull) = ring.pop() else { return }
      if wasFull { decoderWake.signal() }
      guard chunk.generation >= state.generation else { continue }
      if chunk.generation == state.generation { remember(&state, chunk, control) }
      guard let skipper = state.skipper, chunk.generation == state.generation else {
        // A skipper made later takes the memo on from here.
        if case .audio(let samples) = chunk.content {
          state.skipperNext = chunk.firstFrame + samples.count / max(1, control.channels)
        }
        state.pending = chunk
        return
      }
      skipper.push(chunk)
    }
  }

  /// Where the skipper's chunk `chunk` (or the end) starts past the memo frame it was to start at,
  /// it cut what lies between: a cut, fed from the next frame fed. (A loop's wrap goes back.)
  private func noteCut(_ state: inout OutputState, before chunk: AudioChunk, channels: Int) {
    if let expected = state.skipperNext, chunk.firstFrame > expected {
      switch chunk.content {
      case .audio, .end: state.cuts.append((state.fed, chunk.firstFrame - expected))
      case .failure: break
      }
    }
    if case .audio(let samples) = chunk.content {
      state.skipperNext = chunk.firstFrame + samples.count / channels
    }
  }

  /// How much of the memo the history keeps: the skipper runs ahead through a pause it is cutting,
  /// so a change in one goes back that far. 30 s holds the pauses of 3 to 25 s people leave while
  /// thinking (11.5 MB of stereo at 48 kHz); in a longer one a change waits behind what the
  /// filters hold, as much as the level keeps (0.4 s for mild with the boost on, where 12 s of
  /// history made a change in a 25 s pause wait so).
  static let historySeconds = 30

  /// Keeps `chunk` (of this generation, taken from the ring) in the history.
  private func remember(_ state: inout OutputState, _ chunk: AudioChunk, _ control: Control) {
    state.history.append(chunk)
    let channels = max(1, control.channels)
    func frames(_ chunk: AudioChunk) -> Int {
      if case .audio(let samples) = chunk.content { return samples.count / channels }
      return 0
    }
    state.historyFrames += frames(chunk)
    var dropped = 0
    while state.historyFrames > Self.historySeconds * control.rate, dropped + 1 < state.history.count {
      state.historyFrames -= frames(state.history[dropped])
      dropped += 1
    }
    if dropped > 0 { state.history.removeFirst(dropped) }
  }

  /// How much of the memo before a re-run the fresh voice filters warm up on (dynaudnorm's gain
  /// looks 300 ms around a frame).
  static let warmSeconds = 1

  /// How long the frames made again after a skip silence change fade in from those dropped.
  static let junctionSeconds = 0.005

  /// A skip silence change while the speed filter or the voice filters hold frames made at the
  /// old level (the boost 200-400 ms, atempo about 40 ms, afftdn 25 ms): rather than wait behind
  /// them, everything not handed to the device yet is dropped and made again from the memo frame
  /// after the last one handed: the chunks it came from (`history`) go through the skipper, now at
  /// the new level (its floor kept), and through fresh filters, and the first 5 ms made fade in
  /// from the frames dropped, so nothing clicks. False, with nothing changed, when that memo frame
  /// is no longer in the history.
  private func rerunSkip(_ state: inout OutputState, _ control: Control, channels: Int) -> Bool {
    guard let skipper = state.skipper else { return false }
    let carried = min(state.deviceMap.value(Double(state.written)), Double(state.fed))
    let memo = Int(state.fedMap.value(carried).rounded(.down))
    guard
      let start = state.history.lastIndex(where: { chunk in
        guard case .audio(let samples) = chunk.content else { return false }
        return chunk.firstFrame <= memo && memo < chunk.firstFrame + samples.count / channels
      })
    else { return false }
    // The cuts after the last frame handed over are made again: those among the frames dropped
    // and those the skipper has not given out yet are not counted.
    state.cuts.removeAll { Double($0.fed) > carried }
    state.skipperNext = memo
    let fadeFrames = max(1, Int(Self.junctionSeconds * Double(control.rate)))
    // The old frames to fade from: what is staged, else what the old filters have ready.
    if state.stretched.count / channels - state.stretchedOffset < fadeFrames {
      if !state.voice.isEmpty {
        state.voice.pull(into: &state.stretched, limit: fadeFrames)
      } else if let stretcher = state.stretcher {
        _ = stretcher.pull(into: &state.stretched)
      }
    }
    let staged = state.stretched.count / channels - state.stretchedOffset
    let fade = min(staged, fadeFrames)
    let from = state.stretchedOffset * channels
    state.junction = Array(state.stretched[from..<(from + fade * channels)])
    state.junctionOffset = 0
    state.stretched.removeAll(keepingCapacity: true)
    state.stretchedOffset = 0
    state.pending = nil
    state.pendingOffset = 0
    if state.stretcher != nil {
      state.stretcher = TempoStretcher(rate: control.rate, channels: channels, tempo: state.speed)
    }
    let voice = VoiceChain()
    voice.setBoost(control.voiceBoost, rate: control.rate, channels: channels, fadingIn: false)
    voice.setEnhance(control.enhance, rate: control.rate, channels: channels, fadingIn: false)
    // The fresh filters warm up on the memo before `memo` (what was heard last).
    var before: [Float] = []
    for chunk in state.history[...start].reversed() {
      guard case .audio(let samples) = chunk.content,
        before.count < Self.warmSeconds * control.rate * channels
      else { break }
      let end = min(samples.count, max(0, (memo - chunk.firstFrame) * channels))
      before.insert(contentsOf: samples[0..<end], at: 0)
    }
    let warming = min(before.count / channels, Self.warmSeconds * control.rate / 1)
    _ = before.withUnsafeBufferPointer { all in
      voice.warm(
        UnsafeBufferPointer(rebasing: all[((before.count / channels - warming) * channels)...]),
        frames: warming)
    }
    state.voice = voice
    // From the next device frame on, the frames fed from here carry the memo from `memo`.
    state.deviceMap.mark(
      x: Double(state.written), y: Double(state.fed), slope: state.stretcher == nil ? 1 : state.speed)
    state.fedMap.mark(x: Double(state.fed), y: Double(memo), slope: 1)
    skipper.reset()
    for (index, chunk) in state.history[start...].enumerated() {
      if index == 0, case .audio(let samples) = chunk.content {
        let rest = Array(samples[((memo - chunk.firstFrame) * channels)...])
        skipper.push(AudioChunk(generation: chunk.generation, firstFrame: memo, content: .audio(rest)))
      } else {
        skipper.push(chunk)
      }
    }
    return true
  }

  /// Skip silence turned on, off or to another level while playing: the skipper (started now if
  /// there was none) acts from the next window it classifies (10 ms of memo).
  private func changeSkip(_ state: inout OutputState, _ control: Control) {
    if let skipper = state.skipper {
      skipper.level = control.skipSilence
    } else if control.skipSilence != nil {
      state.skipper = SilenceSkipper(
        rate: control.rate, channels: max(1, control.channels), level: control.skipSilence)
      state.skipperTrack = control.trackNumber
    }
  }

  /// The heard frame the device last confirmed (its last delay reading): a device that just
  /// failed cannot be asked, and running the clock on would count time in which nothing was heard.
  private func heardNow(_ state: OutputState) -> Int { heard(state, delay: state.lastDelay) }

  /// The memo frame heard, given this generation's `delay`; while its stream is held
  /// (`heldStart`), the one the stream taken over from is at, short of where it hands over (at
  /// the speed its frames were made at; a cut skip silence made in them is not counted).
  private func heardWhileHeld(_ state: OutputState, delay: Int) -> Int {
    guard let remain = state.heldStart, let left = state.output?.device.retiringDelay else {
      return heard(state, delay: delay)
    }
    return max(0, state.startFrame - Int(Double(max(0, left - remain)) * state.heldSpeed))
  }

  /// Memo frames put into the stretcher at a time: 512 at 48 kHz is 11 ms, or 21 ms of output at
  /// 0.5×, the most a speed change waits behind.
  static let stretchBlock = 512

  /// Pushes the next `stretchBlock` frames at most of the pending chunk's `samples` (`frames` of
  /// them left) to a filter's `push`: a little at a time, so that little filtered audio waits
  /// ahead of the device. Throws, naming the filter (`what`), when it refuses them.
  private func feed(
    _ state: inout OutputState, _ samples: [Float], frames: Int, channels: Int,
    to push: (UnsafeBufferPointer<Float>, Int) -> Bool, _ what: String
  ) throws(PlaybackError) {
    let count = min(frames, Self.stretchBlock)
    let offset = state.pendingOffset
    let pushed = samples.withUnsafeBufferPointer { all in
      push(UnsafeBufferPointer(rebasing: all[(offset * channels)..<((offset + count) * channels)]), count)
    }
    state.fed += count
    state.pendingOffset += count
    if state.pendingOffset * channels >= samples.count { state.pending = nil }
    if !pushed { throw PlaybackError(code: .decoder, message: "\(what) refused the audio") }
  }

  /// The heard frame given the device's delay.
  private func heard(_ state: OutputState, delay: Int = 0) -> Int {
    Int(memoFrame(state, device: max(0, state.written - delay)).rounded(.down))
  }

  /// The memo frame device frame `device` of this generation carries.
  private func memoFrame(_ state: OutputState, device: Int) -> Double {
    state.fedMap.value(min(state.deviceMap.value(Double(device)), Double(state.fed)))
  }

  /// A new generation: nothing fed, nothing stretched; the stretcher starts afresh at the speed
  /// (none at 1×, so that 1× is the decoder's frames bit for bit).
  private func startShaping(_ state: inout OutputState, _ control: Control) {
    state.fed = 0
    // Cuts ahead of what was heard of the last generation are never heard.
    state.cuts.removeAll()
    state.skipperNext = control.decodeFrom
    state.stretched.removeAll()
    state.stretchedOffset = 0
    state.speed = control.speed
    state.stretcher =
      control.speed == 1
      ? nil : TempoStretcher(rate: control.rate, channels: control.channels, tempo: control.speed)
    state.deviceMap = FrameMap(y: 0, slope: state.stretcher == nil ? 1 : control.speed)
    state.fedMap = FrameMap(y: Double(control.decodeFrom))
    state.speedFrom = control.speedAskedAt == nil ? nil : 0
    // Everything of a new generation is made with the settings asked so far.
    state.boostMarked = control.boostAskedAt
    state.boostFrom = control.boostAskedAt == nil ? nil : 0
    state.skipMarked = control.skipAskedAt
    state.skipFrom = control.skipAskedAt == nil ? nil : 0
    state.enhanceMarked = control.enhanceAskedAt
    state.enhanceFrom = control.enhanceAskedAt == nil ? nil : 0
    state.history.removeAll()
    state.historyFrames = 0
    state.junction.removeAll()
    state.junctionOffset = 0
    state.voice = VoiceChain()
    state.voice.setBoost(
      control.voiceBoost, rate: control.rate, channels: max(1, control.channels), fadingIn: false)
    state.voice.setEnhance(
      control.enhance, rate: control.rate, channels: max(1, control.channels), fadingIn: false)
    // The skipper keeps the floor it learnt on this memo; what it held is of the last generation.
    if state.skipperTrack != control.trackNumber { state.skipper = nil }
    state.skipper?.reset()
    changeSkip(&state, control)
    // A new generation starts from silence (a seek or a start): no ramp to the gain.
    state.gain.target = control.gain
    state.gain.settle()
    state.madeWith = FrameSettings(control)
  }

  /// A speed asked while playing: the stretcher (started now if there was none) makes what it
  /// gives from here at the new speed, keeping its state, so nothing clicks or jumps.
  private func changeSpeed(_ state: inout OutputState, _ control: Control) {
    guard control.speed != state.speed else { return }
    let channels = max(1, control.channels)
    let from = state.written + (state.stretched.count / channels - state.stretchedOffset)
    if let stretcher = state.stretcher {
      stretcher.setTempo(control.speed)
      state.deviceMap.mark(
        x: Double(from), y: state.deviceMap.value(Double(from)), slope: control.speed)
    } else if let stretcher = TempoStretcher(rate: control.rate, channels: channels, tempo: control.speed) {
      state.stretcher = stretcher
      state.deviceMap.mark(x: Double(from), y: Double(state.fed), slope: control.speed)
    } else {
      return
    }
    state.speed = control.speed
    state.speedFrom = from
  }

  /// Takes what the stretcher gave, through the voice filters when there are any, into `stretched`.
  private func pullStretched(_ state: inout OutputState, _ stretcher: TempoStretcher) throws(PlaybackError) {
    guard !state.voice.isEmpty else {
      _ = stretcher.pull(into: &state.stretched)
      return
    }
    state.unboosted.removeAll(keepingCapacity: true)
    guard let got = stretcher.pull(into: &state.unboosted), got > 0 else { return }
    let voice = state.voice
    let pushed = state.unboosted.withUnsafeBufferPointer { voice.push($0, frames: got) }
    if !pushed {
      throw PlaybackError(
        code: .decoder, message: "the voice boost or noise reduction (libavfilter) refused the audio")
    }
    voice.pull(into: &state.stretched, limit: Self.stretchBlock)
  }

  /// The voice boost turned on or off while playing: the booster (started now if there was none,
  /// fading in from the frames not yet staged) moves its mix over 10 ms, so nothing clicks.
  private func changeBoost(_ state: inout OutputState, _ control: Control) {
    state.voice.setBoost(
      control.voiceBoost, rate: control.rate, channels: max(1, control.channels), fadingIn: state.written > 0)
  }

  /// The noise reduction turned on or off while playing: the same, for the reducer.
  private func changeEnhance(_ state: inout OutputState, _ control: Control) {
    state.voice.setEnhance(
      control.enhance, rate: control.rate, channels: max(1, control.channels), fadingIn: state.written > 0)
  }

  /// Hands over what the stretcher gave.
  private func handStretched(_ state: inout OutputState, _ output: PCMOutput, _ control: Control)
    throws(PlaybackError) -> Bool
  {
    let channels = output.channels
    let frames = state.stretched.count / channels - state.stretchedOffset
    let offset = state.stretchedOffset * channels
    let stretched = state.stretched
    let taken = try stretched.withUnsafeBufferPointer { all throws(PlaybackError) in
      try hand(&state, output, UnsafeBufferPointer(rebasing: all[offset...]), frames: frames, control)
    }
    state.stretchedOffset += taken
    if taken == frames {
      state.stretched.removeAll(keepingCapacity: true)
      state.stretchedOffset = 0
    }
    measure(&state, output)
    return try goOnOrWaitForRoom(taken: taken, output)
  }

  /// After a hand-over that took `taken` frames: true to go on at once; false, once the device
  /// has room (or 500 ms have passed, or the wake-up came), when it is full (it took nothing, or
  /// has no room left): waiting rather than being refused once more.
  private func goOnOrWaitForRoom(taken: Int, _ output: PCMOutput) throws(PlaybackError) -> Bool {
    guard taken == 0 || output.isFull else { return true }
    try output.wait(wake: outputWake.descriptor, timeout: 500)
    return false
  }

  /// Hands up to `frames` frames to the device with the gain applied; the count taken. Just after
  /// a re-run (`rerunSkip`), the first of them fade in from the frames dropped.
  private func hand(
    _ state: inout OutputState, _ output: PCMOutput, _ source: UnsafeBufferPointer<Float>, frames: Int,
    _ control: Control
  ) throws(PlaybackError) -> Int {
    let channels = output.channels
    let length = state.junction.count / channels
    guard state.junctionOffset < length else {
      return try handPlain(&state, output, source, frames: frames, control)
    }
    let count = min(frames, length - state.junctionOffset)
    state.blended.removeAll(keepingCapacity: true)
    for frame in 0..<count {
      let weight = Float(state.junctionOffset + frame + 1) / Float(length + 1)
      for channel in 0..<channels {
        let index = frame * channels + channel
        let old = state.junction[state.junctionOffset * channels + index]
        state.blended.append(old + (source[index] - old) * weight)
      }
    }
    let blended = state.blended
    let taken = try blended.withUnsafeBufferPointer { all throws(PlaybackError) in
      try handPlain(&state, output, all, frames: count, control)
    }
    state.junctionOffset += taken
    if state.junctionOffset >= length {
      state.junction.removeAll()
      state.junctionOffset = 0
    }
    return taken
  }

  /// `hand` without the fade.
  private func handPlain(
    _ state: inout OutputState, _ output: PCMOutput, _ source: UnsafeBufferPointer<Float>, frames: Int,
    _ control: Control
  ) throws(PlaybackError) -> Int {
    let taken: Int
    if state.gain.isUnity {
      taken = try output.write(source, frames: frames)
      if taken > 0 { state.peaks.add(source, frames: taken, channels: output.channels) }
    } else {
      // A block at a time, so that a ramp in progress is not worked out for frames not taken.
      let count = min(frames, 1024)
      state.gain.apply(
        source, frames: count, channels: output.channels, rate: output.rate, into: &state.shaped)
      let shaped = state.shaped
      taken = try shaped.withUnsafeBufferPointer { all throws(PlaybackError) in
        let taken = try output.write(all, frames: count)
        if taken > 0 { state.peaks.add(all, frames: taken, channels: output.channels) }
        return taken
      }
      state.gain.advance(frames: taken, rate: output.rate)
    }
    guard taken > 0 else { return 0 }
    if state.written == 0 { noteFirstFrame() }
    state.written += taken
    if state.written >= output.rate { state.troubles = 0 }
    noteSettingsHeard(state, control)
    return taken
  }

  /// Where a chunk's frames go on from something other than the memo frame next in line (a loop's
  /// wrap), the map of fed frames says so.
  private func noteMemoFrame(_ state: inout OutputState, _ memo: Int) {
    let fed = Double(state.fed)
    if state.fedMap.value(fed) != Double(memo) { state.fedMap.mark(x: fed, y: Double(memo), slope: 1) }
  }

  /// Reads the device's delay, keeps it, and publishes the clock; returns the delay.
  @discardableResult
  private func measure(_ state: inout OutputState, _ output: PCMOutput) -> Int {
    let delay = output.delay()
    state.lastDelay = delay
    let running = output.isRunning
    if running, let asked = state.switchAskedAt, state.generation > asked.generation, state.written > 0 {
      // A change made again sounds: how long that took is the lead the next one allows for (a
      // held one's was noted when it was ready, `waitToStartHeld`).
      if !asked.leadNoted {
        state.switchLead = min(0.25, max(0.005, Double(PlaybackClock.now() - asked.stamp) / 1e9))
      }
      state.switchAskedAt = nil
    }
    publish(&state, delay: delay, running: running)
    return delay
  }

  /// Publishes the clock (and the underrun count) for snapshots.
  private func publish(_ state: inout OutputState, delay: Int, running: Bool) {
    let underruns = state.output?.underruns ?? 0
    let stamp = now()
    let device = Double(max(0, state.written - delay))
    let fed = min(state.deviceMap.value(device), Double(state.fed))
    let memo = state.fedMap.value(fed)
    // Up to the end of what was handed over, or to the next wrap, whichever comes first.
    let end = memoFrame(state, device: state.written)
    var ahead = max(0, end - memo)
    if let wrap = state.fedMap.next(after: fed) { ahead = min(ahead, max(0, wrap - fed)) }
    let speed = state.stretcher == nil ? 1 : state.deviceMap.slope(device)
    // A change being made again, its frames not sounding yet: the stream taken over from plays
    // on, so its clock is kept (the snapshot runs it on up to where the new frames start).
    let keep =
      !running && state.written <= delay && (state.switchAskedAt?.generation ?? .max) < state.generation
    state.deviceMap.forget(before: device)
    state.fedMap.forget(before: fed)
    state.peaks.forget(before: Int(device))
    // The cuts whose next frames are heard.
    let heardCuts = state.cuts.prefix { Double($0.fed) <= fed }
    let skipped = heardCuts.reduce(0) { $0 + $1.frames }
    state.cuts.removeFirst(heardCuts.count)
    let clock = PlaybackClock(
      generation: state.generation, heard: Int(memo.rounded(.down)), ahead: Int(ahead.rounded(.down)),
      stamp: stamp, running: running, rate: state.output?.rate ?? 48_000, speed: speed)
    shared.withLock { shared in
      if !keep { shared.clock = clock }
      shared.underruns = max(shared.underruns, underruns)
      shared.silenceSaved += skipped
    }
  }

  /// A voice boost or skip silence change not marked yet: what was made before it (staged for
  /// the device; for skip silence also what the skipper had ready and the rest of the chunk being
  /// fed) goes out first, so its frames start after that.
  private func markSettings(_ state: inout OutputState, _ control: Control, channels: Int) {
    let staged = state.written + state.stretched.count / channels - state.stretchedOffset
    if let asked = control.boostAskedAt, asked != state.boostMarked {
      state.boostMarked = asked
      // The boost's frames then go through what the noise reduction holds.
      state.boostFrom = staged + state.voice.heldAfterBoost
    }
    if let asked = control.enhanceAskedAt, asked != state.enhanceMarked {
      state.enhanceMarked = asked
      state.enhanceFrom = staged
    }
    if let asked = control.skipAskedAt, asked != state.skipMarked {
      state.skipMarked = asked
      if state.stretcher != nil || !state.voice.isEmpty, rerunSkip(&state, control, channels: channels) {
        // Every frame fed from here on is made at the new level.
        state.skipFrom = state.fed
        return
      }
      var rest = 0
      if let pending = state.pending, case .audio(let samples) = pending.content {
        rest = samples.count / channels - state.pendingOffset
      }
      state.skipFrom = state.fed + rest + (state.skipper?.readyFrames ?? 0)
    }
  }

  /// Once frames made with the speed, the gain, the voice boost and skip silence last asked reach
  /// the device, records how long they took (on the player's clock).
  private func noteSettingsHeard(_ state: OutputState, _ control: Control) {
    let speedArrived = control.speedAskedAt != nil && state.speedFrom.map { state.written > $0 } == true
    let gainArrived = control.gainAskedAt != nil
    let boostArrived =
      control.boostAskedAt != nil && control.boostAskedAt == state.boostMarked
      && state.boostFrom.map { state.written > $0 } == true
    // The fed frame the last frame handed over carries.
    let carried = min(state.deviceMap.value(Double(state.written)), Double(state.fed))
    let skipArrived =
      control.skipAskedAt != nil && control.skipAskedAt == state.skipMarked
      && state.skipFrom.map { carried > Double($0) } == true
    let enhanceArrived =
      control.enhanceAskedAt != nil && control.enhanceAskedAt == state.enhanceMarked
      && state.enhanceFrom.map { state.written > $0 } == true
    guard speedArrived || gainArrived || boostArrived || enhanceArrived || skipArrived else { return }
    let stamp = now()
    // A change arrived is timed once, and only if no newer one of its kind was asked meanwhile.
    func settle(_ arrived: Bool, _ seen: UInt64?, _ pending: inout UInt64?, _ latency: inout Double?) {
      guard arrived, let asked = pending, asked == seen else { return }
      latency = Double(stamp &- asked) / 1e9
      pending = nil
    }
    shared.withLock { shared in
      settle(speedArrived, control.speedAskedAt, &shared.control.speedAskedAt, &shared.lastSpeedLatency)
      settle(gainArrived, control.gainAskedAt, &shared.control.gainAskedAt, &shared.lastGainLatency)
      settle(boostArrived, control.boostAskedAt, &shared.control.boostAskedAt, &shared.lastBoostLatency)
      settle(
        enhanceArrived, control.enhanceAskedAt, &shared.control.enhanceAskedAt, &shared.lastEnhanceLatency)
      settle(skipArrived, control.skipAskedAt, &shared.control.skipAskedAt, &shared.lastSkipLatency)
    }
  }

  /// Records how long the last seek took to reach the device.
  private func noteFirstFrame() {
    shared.withLock { shared in
      guard let asked = shared.control.seekAskedAt else { return }
      shared.lastSeekLatency = Double(PlaybackClock.now() - asked) / 1e9
      shared.control.seekAskedAt = nil
    }
  }
}
