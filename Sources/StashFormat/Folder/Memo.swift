/// One memo (or a capture whose audio is missing): the files that share a base, read as a listing needs.
public struct Memo: Sendable, Equatable {
  /// The shared start of every file name of the memo.
  public var base: String
  /// The name of each file present, by kind (`parts` is the parts folder).
  public var files: [MemoFileKind: String]
  /// When it was recorded, seconds since 1970 UTC.
  public var recordedAt: Double
  /// Where `recordedAt` came from.
  public var dateSource: DateSource
  /// The title file as read, or nil when there is none.
  public var title: Title?
  /// The title on one line (`Title.displayText`), else the recording date in local time (`2026-03-14 08:05`).
  public var displayName: String
  /// What the audio says about itself; nil only for a capture whose audio file is missing.
  public var audio: AudioSummary?
  /// The parts folder as read, or nil when there is none.
  public var parts: PartsFolder?
  /// Everything wrong with the memo's files, each naming its file; `folder-` and `title-` codes.
  public var problems: [MemoProblem]
  /// The kinds in `files` whose name is not a regular file nor a symbolic link to one.
  public var notFiles: Set<MemoFileKind>
  /// How many bookmarks its bookmarks file holds (FORMAT.md §8); 0 without one, or when it cannot
  /// be read (lint says why).
  public var bookmarkCount = 0

  /// Creates a memo from its parts.
  public init(
    base: String, files: [MemoFileKind: String], recordedAt: Double, dateSource: DateSource, title: Title?,
    displayName: String, audio: AudioSummary?, parts: PartsFolder?, problems: [MemoProblem],
    notFiles: Set<MemoFileKind> = []
  ) {
    self.base = base
    self.files = files
    self.recordedAt = recordedAt
    self.dateSource = dateSource
    self.title = title
    self.displayName = displayName
    self.audio = audio
    self.parts = parts
    self.problems = problems
    self.notFiles = notFiles
  }

  /// Whether it has audio; one without is a capture that can only be recovered, not played.
  public var hasAudio: Bool { files[.audio] != nil }
  /// Whether a finished transcript file is present: a file, not a FIFO or a link to nowhere
  /// (the `T` mark).
  public var hasTranscript: Bool { isFile(.transcript) }
  /// Whether a finished route file is present (the `R` mark).
  public var hasRoute: Bool { isFile(.route) }

  /// Whether the name of `kind` is there and is a file or a link to one: a FIFO, a folder or a
  /// link that leads nowhere or cannot be followed is named but stands for no finished file.
  private func isFile(_ kind: MemoFileKind) -> Bool { files[kind] != nil && !notFiles.contains(kind) }
  /// The length in seconds, or nil when unknown.
  public var durationSeconds: Double? { audio?.durationSeconds }
  /// The title's text (trimmed, line breaks kept) when a title file gave one.
  public var titleText: String? { title?.text }

  /// The kinds whose parts wait with no finished file beside them: what the recovery sweep assembles.
  public var partsToAssemble: [MemoFileKind] {
    guard let parts else { return [] }
    var kinds: [MemoFileKind] = []
    // A name of the finished file's that is not a file still stops an assembly: it would not
    // replace it.
    if !parts.transcriptParts.isEmpty && files[.transcript] == nil { kinds.append(.transcript) }
    if !parts.routeParts.isEmpty && files[.route] == nil && !parts.routeWithdrawn { kinds.append(.route) }
    return kinds
  }

  /// The kinds whose parts were kept beside a finished file: an assembly that had gaps.
  public var partsBesideFinished: [MemoFileKind] {
    guard let parts else { return [] }
    var kinds: [MemoFileKind] = []
    if !parts.transcriptParts.isEmpty && files[.transcript] != nil { kinds.append(.transcript) }
    if !parts.routeParts.isEmpty && files[.route] != nil && !parts.routeWithdrawn { kinds.append(.route) }
    return kinds
  }

  /// Whether the recovery sweep has work here: parts to assemble, or a route withdrawal to finish.
  public var needsRecovery: Bool { !partsToAssemble.isEmpty || parts?.routeWithdrawn == true }
}
