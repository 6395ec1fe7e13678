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

  /// Creates a memo from its parts.
  public init(
    base: String, files: [MemoFileKind: String], recordedAt: Double, dateSource: DateSource, title: Title?,
    displayName: String, audio: AudioSummary?, parts: PartsFolder?, problems: [MemoProblem]
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
  }

  /// Whether it has audio; one without is a capture that can only be recovered, not played.
  public var hasAudio: Bool { files[.audio] != nil }
  /// Whether a finished transcript file is present.
  public var hasTranscript: Bool { files[.transcript] != nil }
  /// Whether a finished route file is present.
  public var hasRoute: Bool { files[.route] != nil }
  /// The length in seconds, or nil when unknown.
  public var durationSeconds: Double? { audio?.durationSeconds }
  /// The title's text (trimmed, line breaks kept) when a title file gave one.
  public var titleText: String? { title?.text }

  /// The kinds whose parts wait with no finished file beside them: what the recovery sweep assembles.
  public var partsToAssemble: [MemoFileKind] {
    guard let parts else { return [] }
    var kinds: [MemoFileKind] = []
    if !parts.transcriptParts.isEmpty && !hasTranscript { kinds.append(.transcript) }
    if !parts.routeParts.isEmpty && !hasRoute && !parts.routeWithdrawn { kinds.append(.route) }
    return kinds
  }

  /// The kinds whose parts were kept beside a finished file: an assembly that had gaps.
  public var partsBesideFinished: [MemoFileKind] {
    guard let parts else { return [] }
    var kinds: [MemoFileKind] = []
    if !parts.transcriptParts.isEmpty && hasTranscript { kinds.append(.transcript) }
    if !parts.routeParts.isEmpty && hasRoute && !parts.routeWithdrawn { kinds.append(.route) }
    return kinds
  }

  /// Whether the recovery sweep has work here: parts to assemble, or a route withdrawal to finish.
  public var needsRecovery: Bool { !partsToAssemble.isEmpty || parts?.routeWithdrawn == true }
}
