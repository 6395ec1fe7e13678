extension Engine {
  /// The decoder thread: decodes the current generation into the ring, a little ahead of the
  /// output, and sleeps when the ring is full or there is nothing to decode. In a loop it goes
  /// back to the loop's start at its end, in the same generation, splicing the passes together.
  func runDecoder() {
    var decoder: TrackDecoder? = nil
    var trackNumber = -1
    var generation: UInt64 = .max
    var active = false
    var endFrame = 0
    var splice: LoopSplice? = nil
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
        splice = nil
        if active, let decoder {
          var until = control.decodeUntil
          if let loop = control.decodeLoop, control.decodeFrom < loop.upperBound {
            splice = LoopSplice(loop: loop, channels: decoder.channels, rate: decoder.rate)
            until = loop.upperBound
          }
          decoder.start(atHeardFrame: control.decodeFrom, until: until)
          endFrame = min(until ?? decoder.timeline.heardFrames, decoder.timeline.heardFrames)
        }
      }
      guard active, let decoder, !ring.isFull else {
        decoderWake.wait()
        continue
      }
      var chunk: AudioChunk? = nil
      do {
        if let (first, samples) = try decoder.next() {
          if splice != nil {
            if let (spliced, out) = splice!.take(first: first, samples), !out.isEmpty {
              chunk = AudioChunk(generation: generation, firstFrame: spliced, content: .audio(out))
            }
          } else {
            chunk = AudioChunk(generation: generation, firstFrame: first, content: .audio(samples))
          }
        } else if let from = splice?.wrap() {
          // The pass is over: the next starts a little before the loop's start, to overlap.
          decoder.start(atHeardFrame: from, until: splice!.loop.upperBound)
        } else {
          chunk = AudioChunk(generation: generation, firstFrame: endFrame, content: .end)
          active = false
        }
      } catch {
        chunk = AudioChunk(generation: generation, firstFrame: 0, content: .failure(error))
        active = false
      }
      if let chunk, ring.push(chunk) == 0 { outputWake.signal() }
    }
  }
}

/// What makes an A-B loop seamless: the last few milliseconds of each pass are held back and
/// cross-faded (equal power) into the audio just before the loop's start, so the wrap has no gap
/// and no click. Each pass after the first is then exactly the loop's length (the fade sits just
/// before A); a loop starting within a fade of the memo's start fades into A itself instead.
struct LoopSplice {
  let loop: Range<Int>
  let channels: Int
  /// Frames cross-faded at each wrap (10 ms).
  let fade: Int
  /// The pass's last frames so far, held back (interleaved), and the memo frame of the first.
  private var tail: [Float] = []
  private var tailFirst = 0
  /// The previous pass's tail, being faded into the new pass's first frames.
  private var outgoing: [Float] = []
  /// Frames of `outgoing` faded in so far.
  private var faded = 0

  init(loop: Range<Int>, channels: Int, rate: Int) {
    self.loop = loop
    self.channels = max(1, channels)
    fade = min(rate / 100, loop.count / 4)
  }

  /// Where the next pass starts.
  var restart: Int { loop.lowerBound >= fade ? loop.lowerBound - fade : loop.lowerBound }

  /// Takes decoded frames (starting at memo frame `first`) and gives back what may be played now:
  /// the previous pass's tail faded in at the start of a pass, and everything but the last `fade`
  /// frames, which are held back in case the pass ends there.
  mutating func take(first: Int, _ samples: [Float]) -> (first: Int, samples: [Float])? {
    var frames = samples
    let length = outgoing.count / channels
    if faded < length {
      let count = min(length - faded, frames.count / channels)
      CrossFade.mix(outgoing, from: faded, into: &frames, frames: count, length: length, channels: channels)
      faded += count
    }
    let all = tail + frames
    let start = tail.isEmpty ? first : tailFirst
    let keep = min(all.count, fade * channels)
    let release = all.count - keep
    tail = Array(all[release...])
    tailFirst = start + release / channels
    guard release > 0 else { return nil }
    return (start, Array(all[..<release]))
  }

  /// The pass ended at the loop's end: its held-back tail is to be faded into the next pass,
  /// which starts at the frame returned.
  mutating func wrap() -> Int {
    outgoing = tail
    faded = 0
    tail = []
    return restart
  }
}

#if canImport(Glibc)
  import Glibc
#endif
