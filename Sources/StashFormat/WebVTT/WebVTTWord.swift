/// A word of a cue, with when it is spoken (from the inline timestamps before it, else the cue's
/// start) and whether the speech engine confirmed it.
public struct WebVTTWord: Sendable, Equatable {
  /// The word, references decoded, without surrounding whitespace.
  public var text: String
  /// When it starts, in seconds.
  public var startTime: Double
  /// When the next word starts, or the cue's end for the last word.
  public var endTime: Double
  /// False inside a `<c.unconfirmed>` span.
  public var confirmed: Bool

  /// A word.
  public init(text: String, startTime: Double, endTime: Double, confirmed: Bool) {
    self.text = text
    self.startTime = startTime
    self.endTime = endTime
    self.confirmed = confirmed
  }

  /// The word being spoken at `time`: the last one starting at or before it (binary search;
  /// words are in time order).
  static func index(in words: [WebVTTWord], at time: Double) -> Int? {
    var low = 0
    var high = words.count
    while low < high {
      let mid = (low + high) / 2
      if words[mid].startTime <= time { low = mid + 1 } else { high = mid }
    }
    return low > 0 ? low - 1 : (words.isEmpty ? nil : 0)
  }
}
