/// A stretch of a cue's text with one confirmation state and one start time: what a transcript
/// view draws in one style.
public struct WebVTTRun: Sendable, Equatable {
  /// The text, references decoded, line breaks kept.
  public var text: String
  /// False inside a `<c.unconfirmed>` span (words recovered from a crash, never confirmed).
  public var confirmed: Bool
  /// When this stretch starts: the last inline timestamp before it, else the cue's start.
  public var startTime: Double

  /// A run.
  public init(text: String, confirmed: Bool, startTime: Double) {
    self.text = text
    self.confirmed = confirmed
    self.startTime = startTime
  }
}
