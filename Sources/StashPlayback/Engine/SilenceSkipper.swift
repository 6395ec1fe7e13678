#if canImport(Glibc)
  import Glibc
#endif

/// Skip silence, on the output thread between the ring and the speed filter: chunks of memo
/// frames in, chunks out with each long pause shortened to the level's length, every chunk
/// tagged with the memo frame it starts at, so that where a cut was made the output's map from
/// fed frames to memo frames jumps, as at a loop's wrap, and the clock stays in memo time.
///
/// A pause (a run of silent windows, `SilenceDetector`) keeps its first 40 % of the level's
/// length and its last 60 %: the onset of the next sentence, which a soft first consonant can
/// start below the threshold, gets the larger share. What comes after the kept head is held back
/// until the pause ends, keeping only its newest frames; a pause that outgrows the level is cut,
/// and the head's end cross-fades into the kept tail over 5 ms (equal power: both sides are
/// background), so nothing clicks. Two loud windows in a row end a pause (one is a click in it).
/// The first 0.3 s of a memo wait until the detector has learnt the floor from them.
/// It works in memo time, before the speed: a pause keeps the same share of the speech at every
/// speed, and the map stays exact (the speed filter does not keep frames in place).
final class SilenceSkipper {
  /// The level, or nil while it is off (frames pass as they are; the floor is still followed).
  var level: SkipSilenceLevel?
  let channels: Int
  let rate: Int
  private(set) var detector: SilenceDetector
  /// Memo frames cut out since last taken (`takeSaved`): its own account, which its tests hold to
  /// what went in less what came out. The player counts a cut where the next chunk it gives out
  /// starts past the frame it was to start at, once that is heard (`Engine.noteCut`).
  private var saved = 0

  /// Share of the kept length kept at the pause's start.
  static let headShare = 0.4
  /// The cross-fade at a cut.
  static let fadeSeconds = 0.005
  /// Loud windows in a row that end a pause.
  static let onsetWindows = 2

  private let fade: Int
  private var generation: UInt64 = 0
  /// The memo frame the next input frame should be (a jump is a loop's wrap).
  private var next: Int? = nil
  /// Input not yet a whole window, and the memo frame of its first frame.
  private var window: [Float] = []
  private var windowFirst = 0
  /// Windows measured while the floor was being learnt, waiting to be judged, with their levels.
  private var learnt: [(first: Int, samples: [Float], level: Float)] = []

  /// The pause being heard, if any.
  private struct Pause {
    /// Frames of the head still to be passed on as they come.
    var headLeft: Int
    /// Frames of the tail kept.
    var tail: Int
    /// Loud windows in a row at the end of `held`.
    var loud = 0
    /// Whether it has outgrown the level: `fadeOut` holds the frames after the head, to fade out.
    var cutting = false
  }
  private var pause: Pause? = nil
  /// The pause's frames after the head (once cutting, only its newest), and the memo frame of
  /// the first.
  private var held: [Float] = []
  private var heldFirst = 0
  private var fadeOut: [Float] = []

  /// What is ready to go on: runs of memo-contiguous frames, then the end if it came.
  private var ready: [(first: Int, samples: [Float])] = []
  private var readyOffset = 0
  private var last: AudioChunk? = nil

  init(rate: Int, channels: Int, level: SkipSilenceLevel?) {
    self.rate = rate
    self.channels = max(1, channels)
    self.level = level
    detector = SilenceDetector(rate: rate)
    fade = max(1, Int((Double(rate) * Self.fadeSeconds).rounded()))
  }

  /// Memo frames cut out since the last call.
  func takeSaved() -> Int {
    defer { saved = 0 }
    return saved
  }

  /// Frames classified and ready to go on, not popped yet.
  var readyFrames: Int {
    ready[readyOffset...].reduce(0) { $0 + $1.samples.count / channels }
  }

  /// Takes the next chunk in (of the generation being played).
  func push(_ chunk: AudioChunk) {
    generation = chunk.generation
    switch chunk.content {
    case .audio(let samples):
      if let next, next != chunk.firstFrame { flush() }
      if window.isEmpty { windowFirst = chunk.firstFrame }
      next = chunk.firstFrame + samples.count / channels
      let windowLength = detector.windowFrames * channels
      var offset = 0
      while offset < samples.count {
        let count = min(windowLength - window.count, samples.count - offset)
        window.append(contentsOf: samples[offset..<(offset + count)])
        offset += count
        if window.count == windowLength { take() }
      }
    case .end, .failure:
      flush()
      last = chunk
    }
  }

  /// The next chunk ready to be played, if any.
  func pop() -> AudioChunk? {
    if readyOffset < ready.count {
      let run = ready[readyOffset]
      readyOffset += 1
      if readyOffset == ready.count {
        ready.removeAll(keepingCapacity: true)
        readyOffset = 0
      }
      return AudioChunk(generation: generation, firstFrame: run.first, content: .audio(run.samples))
    }
    defer { last = nil }
    return last
  }

  /// Forgets everything held (a new generation); the floor is kept.
  func reset() {
    next = nil
    window.removeAll(keepingCapacity: true)
    learnt.removeAll()
    pause = nil
    held.removeAll(keepingCapacity: true)
    fadeOut.removeAll(keepingCapacity: true)
    ready.removeAll(keepingCapacity: true)
    readyOffset = 0
    last = nil
    saved = 0
  }

  /// Classifies the part of a window there is, and ends the pause: the input jumps or ends.
  private func flush() {
    if !window.isEmpty { take() }
    judgeLearnt()
    endPause()
    next = nil
  }

  /// Measures the window; judges it, or holds it back while the floor is being learnt.
  private func take() {
    let frames = window.count / channels
    let first = windowFirst
    defer {
      window.removeAll(keepingCapacity: true)
      windowFirst = first + frames
    }
    let level = detector.measure(window[...])
    if detector.learning {
      learnt.append((first, window, level))
      return
    }
    judgeLearnt()
    judge(first, window[...], level: level)
  }

  /// Judges the windows held back while the floor was learnt, against the floor learnt.
  private func judgeLearnt() {
    for (first, samples, level) in learnt { judge(first, samples[...], level: level) }
    learnt.removeAll()
  }

  /// Passes a window on, holds it back, or cuts.
  private func judge(_ first: Int, _ samples: ArraySlice<Float>, level measured: Float) {
    if pause != nil, level == nil { endPause() }
    guard var current = pause else {
      guard measured < detector.threshold, let level else {
        emit(first, samples)
        return
      }
      let kept = Int((level.keptSeconds * Double(rate)).rounded())
      let head = Int((Double(kept) * Self.headShare).rounded())
      pause = Pause(headLeft: head, tail: kept - head)
      holdOrPass(first, samples)
      return
    }
    current.loud = measured > detector.onsetThreshold ? current.loud + 1 : 0
    pause = current
    holdOrPass(first, samples)
    if current.loud >= Self.onsetWindows {
      endPause()
    } else if current.loud == 0 {
      shorten()
    }
  }

  /// Passes a window's frames on while the pause's head lasts; holds back the rest.
  private func holdOrPass(_ first: Int, _ samples: ArraySlice<Float>) {
    guard var current = pause else { return }
    let frames = samples.count / channels
    let passed = min(current.headLeft, frames)
    let start = samples.startIndex
    if passed > 0 {
      emit(first, samples[start..<(start + passed * channels)])
      current.headLeft -= passed
      pause = current
    }
    guard passed < frames else { return }
    if held.isEmpty { heldFirst = first + passed }
    held.append(contentsOf: samples[(start + passed * channels)...])
  }

  /// Once the pause has outgrown the level by a fade, keeps the fade's worth of frames after the
  /// head (`fadeOut`) and, of the rest, only the tail's worth of its newest: what is dropped is
  /// saved.
  private func shorten() {
    guard var current = pause else { return }
    let frames = held.count / channels
    if !current.cutting {
      guard frames > current.tail + fade else { return }
      fadeOut = Array(held[0..<(fade * channels)])
      current.cutting = true
      pause = current
    }
    let drop = frames - current.tail
    guard drop > 0 else { return }
    held.removeFirst(drop * channels)
    heldFirst += drop
    saved += drop
  }

  /// The pause is over: what is held goes on, the head's end faded into the tail when it was cut.
  private func endPause() {
    guard let current = pause else { return }
    pause = nil
    guard !held.isEmpty else { return }
    if current.cutting {
      let count = min(fade, held.count / channels)
      CrossFade.mix(fadeOut, from: 0, into: &held, frames: count, length: count, channels: channels)
      fadeOut.removeAll(keepingCapacity: true)
    }
    emit(heldFirst, held[...])
    held.removeAll(keepingCapacity: true)
  }

  /// Queues frames starting at memo frame `first`, joined to the run before when they follow it.
  private func emit(_ first: Int, _ samples: ArraySlice<Float>) {
    guard !samples.isEmpty else { return }
    if let run = ready.last, readyOffset < ready.count, run.first + run.samples.count / channels == first {
      ready[ready.count - 1].samples.append(contentsOf: samples)
    } else {
      ready.append((first, Array(samples)))
    }
  }
}
