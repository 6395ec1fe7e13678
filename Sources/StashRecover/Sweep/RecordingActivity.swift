/// Whether a memo's files may belong to a recording still running, from what the folder itself
/// tells: how long ago anything changed, the recording date (its base, else the audio's creation
/// time) and the audio's length. Copying gives every file the time of the copy, so "changed just
/// now" alone cannot tell a copy from a recording; a recording still running has its last change
/// where its date plus its length put it (the phone flushes the audio every few seconds and
/// rewrites the open route part every ten), and a copy of an earlier recording does not.
package enum RecordingActivity: Sendable, Equatable {
  /// Nothing changed within the recent window.
  case settled
  /// Changed `age` seconds ago, but its date and length put the recording's end long before: the
  /// files were copied (or touched) since, and no recording is running into them.
  case copied(age: Double)
  /// Changed `age` seconds ago, and nothing rules out a recording still running: `reason` says why.
  case possiblyRecording(age: Double, reason: String)

  /// How far a recording's last change may lie from its date plus its length: the seconds since
  /// the last flush, the open route part's rewrite, and a clock or two a little apart.
  package static let slack: Double = 60

  /// The verdict for files whose newest change was at `newest`, of a recording dated `recordedAt`
  /// (nil when no date can be told) whose audio plays `audioSeconds` (nil when unreadable or absent), at `now`, with a window of
  /// `window` seconds.
  package static func judge(
    newest: Double, recordedAt: Double?, audioSeconds: Double?, now: Double,
    window: Double
  ) -> RecordingActivity {
    let age = now - newest
    // A time in the future (a clock set wrong) counts as recent: leaving a capture is harmless.
    guard age < window else { return .settled }
    guard let recordedAt else {
      return .possiblyRecording(age: age, reason: "its recording date cannot be told")
    }
    let end = recordedAt + max(0, audioSeconds ?? 0)
    let gap = newest - end
    guard gap > slack else {
      return .possiblyRecording(age: age, reason: "its last change fits its recording date and length")
    }
    // A base without a zone is read in this machine's time zone, which need not be the phone's: a
    // gap of whole quarter hours (up to the 14 hours zones differ by) may be a recording under
    // another zone, so that is held too (for a base with a zone as well: the reader does not say
    // which it had, and holding is the safe side).
    if gap < 14 * 3600 + slack {
      let offZone = gap - (gap / 900).rounded() * 900
      if abs(offZone) <= slack {
        return .possiblyRecording(
          age: age, reason: "its last change fits its recording date and length in another time zone")
      }
    }
    return .copied(age: age)
  }
}
