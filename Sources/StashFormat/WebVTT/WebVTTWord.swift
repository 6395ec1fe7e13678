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
  /// words are in time order). Words that share a start (no timestamp between them) share the
  /// stretch until the next timed word evenly, so the highlight still moves through them.
  static func index(in words: [WebVTTWord], at time: Double) -> Int? {
    guard !words.isEmpty else { return nil }
    var low = 0
    var high = words.count
    while low < high {
      let mid = (low + high) / 2
      if words[mid].startTime <= time { low = mid + 1 } else { high = mid }
    }
    guard low > 0 else { return 0 }
    let last = low - 1
    var first = last
    while first > 0 && words[first - 1].startTime == words[last].startTime { first -= 1 }
    let start = words[last].startTime
    let end = words[last].endTime
    guard end > start, last > first else { return first }
    let share = Int((time - start) / (end - start) * Double(last - first + 1))
    return first + min(max(share, 0), last - first)
  }
}
