extension Engine {
  /// The decoder thread: decodes the current generation into the ring, a little ahead of the
  /// output, and sleeps when the ring is full or there is nothing to decode.
  func runDecoder() {
    var decoder: TrackDecoder? = nil
    var trackNumber = -1
    var generation: UInt64 = .max
    var active = false
    var endFrame = 0
    while true {
      let control = shared.withLock { $0.control }
      if control.quit { return }
      if control.trackNumber != trackNumber {
        trackNumber = control.trackNumber
        decoder = control.handoff?.decoder
        generation = .max
      }
      if control.generation != generation {
        generation = control.generation
        active = control.decoding && decoder != nil
        if active, let decoder {
          decoder.start(atHeardFrame: control.decodeFrom, until: control.decodeUntil)
          endFrame = min(control.decodeUntil ?? decoder.timeline.heardFrames, decoder.timeline.heardFrames)
        }
      }
      guard active, let decoder, !ring.isFull else {
        decoderWake.wait()
        continue
      }
      let chunk: AudioChunk
      do {
        if let (first, samples) = try decoder.next() {
          chunk = AudioChunk(generation: generation, firstFrame: first, content: .audio(samples))
        } else {
          chunk = AudioChunk(generation: generation, firstFrame: endFrame, content: .end)
          active = false
        }
      } catch {
        chunk = AudioChunk(generation: generation, firstFrame: 0, content: .failure(error))
        active = false
      }
      if ring.push(chunk) == 0 { outputWake.signal() }
    }
  }
}
