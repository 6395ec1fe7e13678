import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// A memo's loudness over its length, in a fixed number of equal cells: the short-term RMS of each
/// cell's heard audio (all channels together) in dBFS, for a waveform strip and for scripts.
///
/// Why dB: speech in a quiet room sits around -40 dBFS and a loud voice near -6; on a linear scale
/// the quiet one is a line of zeros beside the loud one, on a logarithmic scale both are readable.
/// The level follows AES17: a full-scale sine reads 0 dBFS (the mean square doubled), so a tone whose
/// peak is at -20 dBFS reads -20. Anything quieter than `floor`, digital silence included (whose
/// logarithm has no value), reads `floor`.
///
/// It decodes with its own file handle and its own AAC decoder, sharing nothing with a `Player`.
/// Cells are measured in any order the caller asks (`fill`), so the part around the playing position
/// can come first and the rest after, with a check between cells (and inside long ones) to stop.
///
/// The cells span the track's heard length as FORMAT.md §2 counts it: its whole samples, less the
/// priming and the end trim. A torn file's index lists only its whole samples, so its cells span what
/// it holds; a file whose length is otherwise unknown (no usable times) spans what its samples hold.
/// What it does not know it does not guess: a cell any frame of which did not decode (garbage the
/// decoder refuses, or bytes the file no longer holds because it was torn or cut after its index was
/// read) is nil.
///
/// Not thread-safe: one thread measures at a time. A caller measuring in the background makes the
/// profile on that thread (only the path crosses) and sends the cells back as `onCell` gives them.
public final class LoudnessProfile {
  /// The level every quieter cell reads, in dBFS: below the noise of any real room's recording.
  public static let floor: Double = -70

  /// The audio file measured.
  public let path: String
  /// How many cells the length is cut into.
  public let cellCount: Int
  /// Seconds of heard audio the cells span.
  public let duration: Double
  /// Each cell's level in dBFS (at least `floor`), nil while it is unmeasured or when it is unknown.
  public private(set) var levels: [Double?]
  /// Whether each cell has been measured (a measured cell whose level is nil is unknown).
  public private(set) var measured: [Bool]

  private let track: AudioTrack
  private let timeline: TrackTimeline
  private let channels: Int
  private let decoder: AACDecoder
  private let reader: SampleReader
  /// Samples decoded ahead of the first one a cell needs, for the decoder's overlap state (as in
  /// `TrackDecoder`).
  private let preRollSamples = 4
  /// While the decoder's state runs on from the last cell measured: the next sample to decode, the
  /// absolute frame it starts at, and the frames decoded past the last cell's end (interleaved, up
  /// to that frame); nil when the next cell must start afresh.
  private var position: (sample: Int, frame: Int, tail: [Float])? = nil
  private var scratch: [Float] = []

  /// Reads the MP4 index of the audio file at `path` and prepares `cells` cells (at least 1); nothing
  /// is decoded yet beyond the first sample (which tells the output rate and channels). Throws what
  /// `Player.load` would: a file with no index, no AAC, or no whole sample.
  public convenience init(path: String, cells: Int) throws(PlaybackError) {
    let audio: MP4Audio
    do {
      audio = try MP4Audio.read(path: path)
    } catch {
      var failure = PlaybackError(reading: error)
      failure.path = path
      throw failure
    }
    try self.init(track: try AudioTrack(audio, path: path), cells: cells)
  }

  /// A profile of a track already read (its file is opened again here, and read only as cells are
  /// measured, so what it no longer holds then is unknown).
  public init(track: AudioTrack, cells: Int) throws(PlaybackError) {
    self.track = track
    path = track.path
    cellCount = max(1, cells)
    levels = Array(repeating: nil, count: cellCount)
    measured = Array(repeating: false, count: cellCount)
    let decoder = try AACDecoder(
      audioSpecificConfig: track.audioSpecificConfig, sampleRate: track.sampleRate, channels: track.channels)
    let reader = try SampleReader(track: track)
    self.decoder = decoder
    self.reader = reader
    // The first audible sample shows the output rate and channels; the decoder is flushed before
    // any cell is measured.
    (timeline, channels) = try track.probeOutput(with: decoder, reader: reader, nothingTo: "measure")
    duration = timeline.duration
  }

  /// The cell that holds the heard position `seconds` (the first or the last cell outside the
  /// length): where a caller starts `fill(outwardFrom:)` for the playing position.
  public func cell(atSeconds seconds: Double) -> Int {
    guard seconds.isFinite, duration > 0 else { return 0 }
    return min(cellCount - 1, max(0, Int((seconds / duration * Double(cellCount)).rounded(.down))))
  }

  /// The heard frames of cell `index`, from the first up to (not including) the second.
  private func frames(ofCell index: Int) -> (start: Int, end: Int) {
    let span = Int64(timeline.heardFrames)
    let count = Int64(cellCount)
    return (Int(span * Int64(index) / count), Int(span * Int64(index + 1) / count))
  }

  /// `start`, then its neighbours alternately after and before it (`start + 1`, `start - 1`,
  /// `start + 2`, ...), then the rest of whichever side is longer: every cell of `0..<count` once.
  public static func outwardOrder(from start: Int, count: Int) -> [Int] {
    guard count > 0 else { return [] }
    let center = min(max(0, start), count - 1)
    var order = [center]
    order.reserveCapacity(count)
    var distance = 1
    while order.count < count {
      if center + distance < count { order.append(center + distance) }
      if center - distance >= 0 { order.append(center - distance) }
      distance += 1
    }
    return order
  }

  /// Measures the cells around `cell` first and then outward (`outwardOrder`); see `fill(_:)`.
  @discardableResult
  public func fill(
    outwardFrom cell: Int, shouldStop: () -> Bool = { false }, onCell: (Int, Double?) -> Void = { _, _ in }
  ) -> Bool {
    fill(Self.outwardOrder(from: cell, count: cellCount), shouldStop: shouldStop, onCell: onCell)
  }

  /// Measures the cells of `order` in that order, skipping those already measured, and calls
  /// `onCell` with each cell and its level as soon as it is known. `shouldStop` is asked before each
  /// cell and every few hundred samples inside one; when it says stop, the cell under way is left
  /// unmeasured and this returns false. Returns true once every cell of `order` is measured. Indices
  /// outside the cells are ignored.
  @discardableResult
  public func fill(
    _ order: some Sequence<Int>, shouldStop: () -> Bool = { false },
    onCell: (Int, Double?) -> Void = { _, _ in }
  ) -> Bool {
    for cell in order where cell >= 0 && cell < cellCount && !measured[cell] {
      if shouldStop() { return false }
      guard let level = measure(cell: cell, shouldStop: shouldStop) else { return false }
      levels[cell] = level.value
      measured[cell] = true
      onCell(cell, level.value)
    }
    return true
  }

  /// A measured cell's level (the value is nil when it is unknown).
  private struct Level { var value: Double? }

  /// Decodes cell `index` and returns its level; nil when `shouldStop` said stop before the end.
  private func measure(cell index: Int, shouldStop: () -> Bool) -> Level? {
    let (start, end) = frames(ofCell: index)
    // A cell of no frames (more cells than frames) has no level to measure.
    guard end > start else { return Level(value: nil) }
    let keepFrom = timeline.primingFrames + start
    let stopAt = timeline.primingFrames + end
    var (sample, cursor) = (0, 0)
    var sumOfSquares = 0.0
    var kept = 0
    // Frames decoded past what is measured so far, ending at `cursor`.
    var tail: [Float] = []
    if let position, position.frame - position.tail.count / channels <= keepFrom,
      position.frame >= keepFrom
    {
      // Going on from the cell before: the decoder's state is already right, and the frames it
      // decoded past that cell's end open this one.
      (sample, cursor, tail) = position
      let tailStart = cursor - position.tail.count / channels
      let to = min(cursor, stopAt)
      if keepFrom < to {
        for i in (keepFrom - tailStart) * channels..<(to - tailStart) * channels {
          sumOfSquares += Double(position.tail[i] * position.tail[i])
        }
        kept += to - keepFrom
      }
    } else {
      sample = max(0, timeline.sample(containing: keepFrom) - preRollSamples)
      cursor = timeline.absoluteStart(ofSample: sample)
      decoder.flush()
    }
    self.position = nil
    var decodedSinceCheck = 0
    while sample < track.samples.count, cursor < stopAt {
      decodedSinceCheck += 1
      if decodedSinceCheck >= 256 {
        decodedSinceCheck = 0
        if shouldStop() { return nil }
      }
      let time = Double(max(0, cursor - timeline.primingFrames)) / Double(timeline.rate)
      var scratch: [Float] = []
      swap(&scratch, &self.scratch)
      defer { swap(&scratch, &self.scratch) }
      scratch.removeAll(keepingCapacity: true)
      var decoded = true
      if track.samples[sample].size == 0 {
        // As the player plays it: an empty access unit's time passes in silence.
        let frames = timeline.frames(lasting: track.samples[sample].duration)
        scratch.append(contentsOf: repeatElement(0, count: frames * channels))
      } else {
        do {
          try reader.withSample(sample, time: time) { [decoder] bytes throws(PlaybackError) in
            _ = try decoder.decode(bytes, time: time, into: &scratch)
          }
        } catch {
          decoded = false
        }
      }
      sample += 1
      guard decoded else {
        // Its frames are unknown; the decoder starts afresh on the sample after it, at its time.
        decoder.flush()
        cursor = max(cursor, timeline.absoluteStart(ofSample: sample))
        tail = []
        continue
      }
      let frames = scratch.count / channels
      let from = max(cursor, keepFrom)
      let to = min(cursor + frames, stopAt)
      if from < to {
        scratch.withUnsafeBufferPointer { buffer in
          var sum: Float = 0
          for i in (from - cursor) * channels..<(to - cursor) * channels { sum += buffer[i] * buffer[i] }
          sumOfSquares += Double(sum)
        }
        kept += to - from
      }
      cursor += frames
      tail.removeAll(keepingCapacity: true)
      if cursor > stopAt {
        let past = (frames - min(frames, cursor - stopAt)) * channels
        tail.append(contentsOf: scratch[past..<scratch.count])
      }
    }
    if cursor >= stopAt { position = (sample, cursor, tail) }
    guard kept == end - start else { return Level(value: nil) }
    return Level(value: Self.dbfs(meanSquare: sumOfSquares / Double(kept * channels)))
  }

  /// The AES17 level of a mean square (a full-scale sine's 0.5 reads 0 dBFS), at least `floor`.
  static func dbfs(meanSquare: Double) -> Double {
    guard meanSquare > 0 else { return floor }
    return max(floor, 10 * log10(meanSquare * 2))
  }
}
