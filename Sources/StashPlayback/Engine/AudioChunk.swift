/// What the decoder thread hands the output thread: heard frames, the end, or a failure, tagged
/// with the generation (one per start, seek or pause) they were decoded for.
struct AudioChunk: Sendable {
  /// What the chunk carries.
  enum Content: Sendable {
    /// Interleaved frames.
    case audio([Float])
    /// The range is done: nothing follows in this generation.
    case end
    /// Decoding failed here: nothing follows in this generation.
    case failure(PlaybackError)
  }

  /// The generation it belongs to; the output thread ignores chunks of older generations.
  var generation: UInt64
  /// Heard frame of its first frame (for `.end`, where the range ended).
  var firstFrame: Int
  /// What it carries.
  var content: Content
}
