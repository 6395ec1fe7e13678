/// What the list shows about one memo; built from the folder reading.
struct MemoRow: Equatable, Sendable {
  /// The condition of the audio, as the list and the transport need it.
  enum Audio: Equatable, Sendable {
    case ok
    /// Plays up to its last whole sample.
    case cutShort
    /// Cannot play; the reason in plain words.
    case damaged(String)
    /// Plays, but its length is unknown; the reason in plain words.
    case lengthUnknown(String)
    /// There is no audio file (a capture that only left parts).
    case missing
  }

  /// The shared name of the memo's files.
  var base: String
  /// The title, or the recording date when there is none.
  var displayName: String
  /// The title file's text, if any.
  var title: String?
  /// Recording date, seconds since 1970 UTC.
  var recordedAt: Double
  /// Length in seconds, or nil when unknown.
  var durationSeconds: Double?
  /// The audio's condition.
  var audio: Audio
  /// Whether a finished transcript is present.
  var hasTranscript: Bool
  /// Whether a finished route is present.
  var hasRoute: Bool
  /// Whether parts are waiting to be assembled.
  var needsRecovery: Bool
  /// Problems in plain words (unreadable files and the like).
  var problems: [String]
  /// Whether any of the memo's files has a problem (the `!` of MemoMarks, as `stash ls` shows it).
  var hasProblem = false
  /// The files of the memo, names only, in the folder.
  var files: [String]
  /// The files Stash wrote in `<base>.parts/`, names only.
  var partFiles: [String]
  /// The name of the memo's parts folder, when it has one (watched for changes).
  var partsFolder: String?
}
