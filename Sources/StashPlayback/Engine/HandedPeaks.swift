/// How loud what was handed to the device is, a short block at a time, counted in device frames
/// of one generation: where a change that has the frames made again (on a device that holds
/// seconds) is least heard, in a pause between words rather than in the middle of one.
struct HandedPeaks {
  /// Frames in a block (5 ms).
  private(set) var block = 240
  /// The device frame `peaks[0]`'s block starts at.
  private(set) var first = 0
  /// The peak of each whole block handed over, oldest first.
  private(set) var peaks: [Float] = []
  /// The block being filled.
  private var current: Float = 0
  private var filled = 0

  /// Forgets everything: the next frame handed over is device frame 0.
  mutating func reset(rate: Int) {
    block = max(1, rate / 200)
    first = 0
    peaks.removeAll(keepingCapacity: true)
    current = 0
    filled = 0
  }

  /// Notes `frames` frames of `channels` interleaved samples, the next handed over.
  mutating func add(_ samples: UnsafeBufferPointer<Float>, frames: Int, channels: Int) {
    var index = 0
    let end = frames * channels
    while index < end {
      let take = min(end - index, (block - filled) * channels)
      var peak = current
      for sample in samples[index..<(index + take)] { peak = max(peak, abs(sample)) }
      index += take
      filled += take / channels
      current = peak
      if filled == block {
        peaks.append(current)
        current = 0
        filled = 0
      }
    }
  }

  /// Forgets the blocks that end at or before device frame `frame` (already heard), a batch at a
  /// time.
  mutating func forget(before frame: Int) {
    let gone = min(peaks.count, max(0, (frame - first) / block))
    guard gone >= 512 else { return }
    peaks.removeFirst(gone)
    first += gone * block
  }

  /// The stretch of `length` frames, starting on a block between device frames `from` and `to`
  /// and lying wholly in whole blocks handed over, whose loudest block is the quietest (the
  /// earliest of equals), with that peak; nil when no such stretch is known.
  func quietest(from: Int, to: Int, length: Int) -> (start: Int, peak: Float)? {
    let span = max(1, (length + block - 1) / block)
    let lowest = max(0, (from - first + block - 1) / block)
    let highest = min((to - first) / block, peaks.count - span)
    guard lowest <= highest else { return nil }
    var best: (start: Int, peak: Float)? = nil
    for index in lowest...highest {
      let peak = peaks[index..<(index + span)].max() ?? 0
      if best == nil || peak < best!.peak { best = (first + index * block, peak) }
    }
    return best
  }
}
