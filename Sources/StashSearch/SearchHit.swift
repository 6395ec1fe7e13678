/// One place a pattern was found in a memo: in its title, or in its transcript, where the words
/// that match start.
package struct SearchHit: Sendable, Equatable {
  /// Where the hit is.
  package enum Place: Sendable, Equatable {
    /// In the title.
    case title
    /// In the transcript, in cues `first` through `last` (more than one when the match runs from a
    /// cue into the next).
    case cues(first: Int, last: Int)
  }

  package var place: Place
  /// The line shown: the title, or the text of the cues the match is in, joined by spaces.
  package var text: String
  /// The match, in Unicode scalars of `text`.
  package var match: Range<Int>
  /// For a transcript hit: the first cue's start and the last cue's end, in seconds.
  package var cueStart: Double?
  package var cueEnd: Double?
  /// For a transcript hit: when the matching words start (an inline timestamp's time where the
  /// cue has them, else the cue's start).
  package var start: Double?
}
