/// A stretch of the recording, in seconds from its start: a gap in the transcript
/// (`NOTE stash missing-speech`) or the span a transcript part covers (`NOTE stash part`).
public struct WebVTTTimeSpan: Sendable, Equatable, Hashable {
  /// Start, in seconds.
  public var start: Double
  /// End, in seconds.
  public var end: Double

  /// A span from `start` to `end` seconds.
  public init(start: Double, end: Double) {
    self.start = start
    self.end = end
  }
}
