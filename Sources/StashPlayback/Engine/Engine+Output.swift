extension Engine {
  /// What the output thread keeps between turns of its loop.
  private struct OutputState {
    var output: PCMOutput? = nil
    var generation: UInt64 = .max
    var startFrame = 0
    /// Frames handed to the device in this generation.
    var written = 0
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
    let frame = heardNow(state)
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
      try state.output?.dropQueued()
      state.generation = control.generation
      state.startFrame = control.decodeFrom
      state.written = 0
      if let pending = state.pending, pending.generation < control.generation { state.pending = nil }
      state.pendingOffset = state.pending == nil ? 0 : state.pendingOffset
      publish(state, delay: 0, running: false)
    }
    if control.holdRequests != state.handledHolds {
      state.handledHolds = control.holdRequests
      let delay = state.output?.delay() ?? 0
      let frame = heard(state, delay: delay)
      if let output = state.output, !state.pausedInPlace, output.pauseInPlace() {
        // The device keeps what it holds, and the stream stays open: resuming goes on from it.
        state.pausedInPlace = true
        state.lastDelay = delay
        publish(state, delay: delay, running: false)
        report(.held(generation: state.generation, frame: frame, inPlace: true))
        return true
      }
      try state.output?.dropQueued()
      // What was dropped is not heard: the generation now ends where the pause stopped.
      state.written = frame - state.startFrame
      state.lastDelay = 0
      publish(state, delay: 0, running: false)
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
    if state.pending == nil {
      while let (chunk, wasFull) = ring.pop() {
        if wasFull { decoderWake.signal() }
        if chunk.generation >= state.generation {
          state.pending = chunk
          state.pendingOffset = 0
          break
        }
      }
    }
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
      let taken = try samples.withUnsafeBufferPointer { all throws(PlaybackError) in
        let rest = UnsafeBufferPointer(rebasing: all[(state.pendingOffset * output.channels)...])
        return try output.write(rest, frames: frames)
      }
      if taken > 0 {
        if state.written == 0 { noteFirstFrame() }
        state.written += taken
        state.pendingOffset += taken
        if taken == frames { state.pending = nil }
        if state.written >= output.rate { state.troubles = 0 }
      }
      measure(&state, output)
      if taken == 0 {
        try output.wait(wake: outputWake.descriptor, timeout: 500)
        return false
      }
      return true
    case .end:
      try output.startIfWaiting()
      let delay = measure(&state, output)
      if delay <= 0 || !output.isRunning {
        state.pending = nil
        // Nothing is left to hear; dropping also makes a file sink write out all it was given
        // before anyone learns that playing ended.
        try output.dropQueued()
        report(.ended(generation: state.generation, frame: state.startFrame + state.written))
        return true
      }
      // Wait for the device to play out what it holds (or for a seek).
      outputWake.wait(timeout: Int32(min(50, max(1, delay * 1000 / output.rate))))
      return false
    case .failure(let error):
      state.pending = nil
      report(.failed(error, generation: state.generation, frame: heard(state)))
      return true
    }
  }

  /// The heard frame the device last confirmed (its last delay reading): a device that just
  /// failed cannot be asked, and running the clock on would count time in which nothing was heard.
  private func heardNow(_ state: OutputState) -> Int { heard(state, delay: state.lastDelay) }

  /// The heard frame given the device's delay.
  private func heard(_ state: OutputState, delay: Int = 0) -> Int {
    state.startFrame + max(0, state.written - delay)
  }

  /// Reads the device's delay, keeps it, and publishes the clock; returns the delay.
  @discardableResult
  private func measure(_ state: inout OutputState, _ output: PCMOutput) -> Int {
    let delay = output.delay()
    state.lastDelay = delay
    publish(state, delay: delay, running: output.isRunning)
    return delay
  }

  /// Publishes the clock (and the underrun count) for snapshots.
  private func publish(_ state: OutputState, delay: Int, running: Bool) {
    let underruns = state.output?.underruns ?? 0
    let stamp = now()
    shared.withLock { shared in
      shared.clock = PlaybackClock(
        generation: state.generation, startFrame: state.startFrame, written: state.written, delay: delay,
        stamp: stamp, running: running, rate: state.output?.rate ?? shared.control.rate)
      shared.underruns = max(shared.underruns, underruns)
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
