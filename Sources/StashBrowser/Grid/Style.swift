/// How a cell is drawn. Every style reads without colour too: colour only adds to an attribute
/// (reverse, bold, underline, dim), so NO_COLOR and monochrome terminals lose nothing.
package enum Style: UInt8, CaseIterable, Sendable {
  case normal
  /// A title or heading.
  case heading
  /// Secondary text: dates, times, hints.
  case dim
  /// The row or cue under the cursor.
  case selected
  /// The cue being spoken.
  case spoken
  /// The word being spoken.
  case spokenWord
  /// Words the speech engine never confirmed.
  case unconfirmed
  /// Something the user should know about: missing speech, a capture needing recovery.
  case warning
  /// Something broken: damaged audio, an unreadable file.
  case error
  /// The played part of the scrubber.
  case scrubberDone
  /// A prompt or the status bar.
  case bar
  /// A text match of the filter.
  case match
  /// A bookmark: its line in the transcript, its sign on the scrubber.
  case bookmark
}
