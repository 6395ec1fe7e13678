/// What the list shows about one memo; built from the folder reading.
package struct MemoRow: Equatable, Sendable {
  /// The condition of the audio, as the list and the transport need it.
  package enum Audio: Equatable, Sendable {
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
  package var base: String
  /// The title, or the recording date when there is none.
  package var displayName: String
  /// The title file's text, if any.
  package var title: String?
  /// Recording date, seconds since 1970 UTC.
  package var recordedAt: Double
  /// Length in seconds, or nil when unknown.
  package var durationSeconds: Double?
  /// The audio's condition.
  package var audio: Audio
  /// Whether a finished transcript is present.
  package var hasTranscript: Bool
  /// Whether a finished route is present.
  package var hasRoute: Bool
  /// Whether parts are waiting to be assembled.
  package var needsRecovery: Bool
  /// Problems in plain words (unreadable files and the like).
  package var problems: [String]
  /// Whether any of the memo's files has a problem (the `!` of MemoMarks, as `stash ls` shows it).
  package var hasProblem = false
  /// Whether the memo was left off partway when the folder was read: a place is remembered for
  /// it (`PositionBook.isPartlyHeard`), so it continues there.
  package var partlyHeard = false
  /// The files of the memo, names only, in the folder.
  package var files: [String]
  /// The files Stash wrote in `<base>.parts/`, names only.
  package var partFiles: [String]
  /// The name of the memo's parts folder, when it has one (watched for changes).
  package var partsFolder: String?
  /// True while only the memo's names are known: its length, title and problems are not read yet
  /// (the browser shows the list at once and fills these in as they are read).
  package var pending: Bool

  /// A value with every field given.
  package init(
    base: String, displayName: String, title: String? = nil, recordedAt: Double,
    durationSeconds: Double? = nil, audio: Audio, hasTranscript: Bool, hasRoute: Bool, needsRecovery: Bool,
    problems: [String], files: [String], partFiles: [String], partsFolder: String? = nil,
    pending: Bool = false
  ) {
    self.base = base
    self.displayName = displayName
    self.title = title
    self.recordedAt = recordedAt
    self.durationSeconds = durationSeconds
    self.audio = audio
    self.hasTranscript = hasTranscript
    self.hasRoute = hasRoute
    self.needsRecovery = needsRecovery
    self.problems = problems
    self.files = files
    self.partFiles = partFiles
    self.partsFolder = partsFolder
    self.pending = pending
  }
}
