extension AudioTrack {
  /// Decodes the first sample that holds audio once, with `decoder` from `reader`, to learn what
  /// the decoder puts out: the output rate and channels (HE-AAC without explicit signalling shows
  /// itself only there), as the track's timeline. Throws `damagedAudio` when every sample is empty
  /// (an empty access unit tells a decoder nothing), saying there is nothing to `verb`; a decoding
  /// failure is thrown with the track's path.
  func probeOutput(
    with decoder: AACDecoder, reader: SampleReader, nothingTo verb: String
  ) throws(PlaybackError) -> (timeline: TrackTimeline, channels: Int) {
    guard let audible = samples.firstIndex(where: { $0.size > 0 }) else {
      throw PlaybackError(
        code: .damagedAudio, message: "every sample in the audio file is empty: there is nothing to \(verb)",
        path: path)
    }
    var scratch: [Float] = []
    do {
      try reader.withSample(audible, time: 0) { bytes throws(PlaybackError) in
        _ = try decoder.decode(bytes, time: 0, into: &scratch)
      }
    } catch {
      var failure = error
      failure.path = path
      throw failure
    }
    return (TrackTimeline(track: self, outputRate: decoder.outputRate), decoder.outputChannels)
  }
}
