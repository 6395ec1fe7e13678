/// Decodes a track from any heard frame to any other: the samples are fed to the AAC decoder from a
/// little before the start (pre-roll, so the decoder's overlap state is right by then) and what comes
/// out before the start, in the priming or past the end is dropped. What it returns is exactly the
/// heard audio of the range, sample-accurate.
final class TrackDecoder {
  /// The track being decoded.
  let track: AudioTrack
  /// Frame arithmetic at the decoder's output rate.
  let timeline: TrackTimeline
  /// Channels of every frame returned.
  let channels: Int

  /// Samples decoded before the one holding the start, whose output is thrown away. One is what the
  /// AAC-LC overlap needs; SBR (HE-AAC) keeps state over a few more. Four cost well under a
  /// millisecond per seek.
  private let preRollSamples = 4
  private let decoder: AACDecoder
  private let reader: SampleReader
  private var nextSample = 0
  /// Absolute frame of the next frame the decoder will output.
  private var cursor = 0
  /// Absolute frames before this are dropped.
  private var keepFrom = 0
  /// Absolute frames from this on are dropped, and decoding stops there.
  private var stopAt = 0
  private var scratch: [Float] = []

  /// Opens the file and the decoder, and decodes the first sample once to learn the output rate
  /// and channels (HE-AAC without explicit signalling shows itself only there).
  init(track: AudioTrack) throws(PlaybackError) {
    guard !track.samples.isEmpty else {
      throw PlaybackError(
        code: .damagedAudio, message: "the audio file holds no whole sample: there is nothing to play",
        path: track.path)
    }
    self.track = track
    decoder = try AACDecoder(
      audioSpecificConfig: track.audioSpecificConfig, sampleRate: track.sampleRate, channels: track.channels)
    reader = try SampleReader(track: track)
    // A throwaway decoder, because decoding leaves state behind (the noise generator that
    // perceptual noise substitution draws from) that a flush does not reset.
    let probe = try AACDecoder(
      audioSpecificConfig: track.audioSpecificConfig, sampleRate: track.sampleRate, channels: track.channels)
    (timeline, channels) = try track.probeOutput(with: probe, reader: reader, nothingTo: "play")
    stopAt = timeline.endFrame
  }

  /// Output frames per second.
  var rate: Int { timeline.rate }

  /// Prepares to return heard frames from `start` up to (not including) `end` (the track's end when
  /// nil); the next `next()` returns the frame at `start` first.
  func start(atHeardFrame start: Int, until end: Int? = nil) {
    let P = timeline.primingFrames
    keepFrom = P + max(0, min(start, timeline.heardFrames))
    stopAt = min(timeline.endFrame, P + max(0, end ?? timeline.heardFrames))
    let holding = timeline.sample(containing: keepFrom)
    nextSample = max(0, holding - preRollSamples)
    cursor = timeline.absoluteStart(ofSample: nextSample)
    decoder.flush()
  }

  /// The next run of heard frames, interleaved, with the heard frame of its first frame; nil once
  /// the range is done. Decodes `samplesPerCall` samples at most.
  func next(samplesPerCall: Int = 2) throws(PlaybackError) -> (firstFrame: Int, samples: [Float])? {
    var output: [Float] = []
    var first: Int? = nil
    var decoded = 0
    // Samples wholly in the pre-roll give nothing: go on until something is kept or the range ends.
    while decoded < samplesPerCall || first == nil, nextSample < track.samples.count, cursor < stopAt {
      let index = nextSample
      let time = Double(max(0, cursor - timeline.primingFrames)) / Double(timeline.rate)
      let decoder = self.decoder
      // Borrow the buffer (a copy would be copied again on the first append).
      var scratch: [Float] = []
      swap(&scratch, &self.scratch)
      scratch.removeAll(keepingCapacity: true)
      do {
        if track.samples[index].size == 0 {
          // An empty access unit carries no audio (and FFmpeg refuses an empty packet): its time
          // passes in silence, so the samples after it still play at their times.
          let frames = timeline.frames(lasting: track.samples[index].duration)
          scratch.append(contentsOf: repeatElement(0, count: frames * channels))
        } else {
          try reader.withSample(index, time: time) { bytes throws(PlaybackError) in
            _ = try decoder.decode(bytes, time: time, into: &scratch)
          }
        }
      } catch {
        var failure = error
        if failure.path == nil { failure.path = track.path }
        throw failure
      }
      defer { swap(&scratch, &self.scratch) }
      nextSample += 1
      decoded += 1
      let frames = scratch.count / channels
      // Keep the part of [cursor, cursor + frames) inside [keepFrom, stopAt).
      let from = max(cursor, keepFrom)
      let to = min(cursor + frames, stopAt)
      if from < to {
        if first == nil { first = from - timeline.primingFrames }
        output.append(contentsOf: scratch[(from - cursor) * channels..<(to - cursor) * channels])
      }
      cursor += frames
    }
    if let first { return (first, output) }
    return nil
  }
}
