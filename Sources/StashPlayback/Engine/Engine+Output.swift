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
        // The device failed: close it; playing again opens it afresh.
        let frame = heard(state)
        state.output = nil
        state.pending = nil
        shared.withLock { $0.control.wantDevice = false }
        report(.failed(error, generation: nil, frame: frame))
      }
    }
  }

  /// One turn of the output loop; true to go round again at once, false after having waited.
  private func turn(_ state: inout OutputState, _ control: Control) throws(PlaybackError) -> Bool {
    if control.wantDevice {
      let stale = state.output.map { $0.rate != control.rate || $0.channels != control.channels } ?? true
      if stale {
        state.output = nil
        do {
          state.output = try PCMOutput(
            name: deviceName, opener: opener, rate: control.rate, channels: control.channels)
        } catch {
          shared.withLock { $0.control.wantDevice = false }
          report(.failed(error, generation: nil, frame: heard(state)))
          return true
        }
      }
    }
    if !control.wantDevice && !control.running, let output = state.output {
      _ = output.device.drop()
      state.output = nil
    }
    if control.generation != state.generation {
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
      let delay = try state.output?.delay() ?? 0
      let frame = heard(state, delay: delay)
      try state.output?.dropQueued()
      // What was dropped is not heard: the generation now ends where the pause stopped.
      state.written = frame - state.startFrame
      publish(state, delay: 0, running: false)
      report(.held(generation: state.generation, frame: frame))
      return true
    }
    guard control.running, let output = state.output else {
      outputWake.wait()
      return false
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
      publish(state, delay: try output.delay(), running: output.isRunning)
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
      }
      publish(state, delay: try output.delay(), running: output.isRunning)
      if taken == 0 {
        try output.wait(wake: outputWake.descriptor, timeout: 500)
        return false
      }
      return true
    case .end:
      try output.startIfWaiting()
      let delay = try output.delay()
      publish(state, delay: delay, running: output.isRunning)
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

  /// The heard frame given the device's delay.
  private func heard(_ state: OutputState, delay: Int = 0) -> Int {
    state.startFrame + max(0, state.written - delay)
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
