/// The codes of the linter's own checks, across a memo's files (the readers' codes are
/// `FormatError.Code`). The raw value is the published code: never rename one, only add.
package enum LintCode: String, Sendable, Hashable, CaseIterable {
  /// A cue that ends after the audio does.
  case cuePastAudio = "lint-cue-past-audio"
  /// A cue that starts before the previous one ends.
  case cueOverlap = "lint-cue-overlap"
  /// A track point with no time.
  case gpxTimeMissing = "lint-gpx-time-missing"
  /// A time written with an offset instead of `Z`.
  case gpxTimeNotUTC = "lint-gpx-time-not-utc"
  /// A point earlier than the point before it.
  case gpxTimeBackwards = "lint-gpx-time-backwards"
  /// A point timed outside the recording.
  case gpxPointOutsideRecording = "lint-gpx-point-outside-recording"
  /// `<hdop>` where accuracy is meant.
  case gpxHdopAsAccuracy = "lint-gpx-hdop-as-accuracy"
}
