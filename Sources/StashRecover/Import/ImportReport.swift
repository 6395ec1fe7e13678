/// What an import did (or, in a dry run, would do), per memo and per name it left behind.
public struct ImportReport: Sendable, Equatable {
  /// What became of one memo.
  public enum Outcome: String, Sendable, Equatable {
    /// Its files were copied (with `moved`, and removed from the source).
    case copied
    /// The target already holds every one of its files with the same bytes.
    case alreadyHere
    /// The target holds the files of it an import brought, some changed or deleted here since (a
    /// new title, a repaired audio, a recovered transcript, a transcript deleted): kept as they are
    /// here.
    case changedHere
    /// Every file an import brought of it was deleted from the target since: not copied again
    /// (`again` brings it back).
    case deletedHere
    /// The target holds the same base with different bytes (or the source changed since its
    /// import): nothing was overwritten.
    case conflict
    /// It changed while it was looked at, or its times fit a recording still running: left alone.
    case stillRecording
    /// Something the memo needs is not on the source (its audio), or is not a file.
    case incomplete
    /// A file could not be read, written or verified: the reason says which and why.
    case failed

    /// Whether a person has to do something about it.
    public var needsPerson: Bool { self == .conflict || self == .incomplete || self == .failed }
  }

  /// One memo of a source.
  public struct Memo: Sendable, Equatable {
    /// The folder it came from.
    public var source: String
    /// Its base name.
    public var base: String
    /// What became of it.
    public var outcome: Outcome
    /// The names copied (or to copy, in a dry run), relative to the target; parts as
    /// `<base>.parts/<name>`.
    public var copied: [String]
    /// Their bytes.
    public var bytes: Int
    /// Whether it was removed from the source (`--move`).
    public var moved: Bool
    /// Whether `--move` had to leave it on the source (the detail says why): a person's to see to.
    public var keptOnSource = false
    /// Plain words: why, and what the person can do where it needs one.
    public var detail: String

    /// Whether a person has to do something about it.
    public var needsPerson: Bool { outcome.needsPerson || keptOnSource }
  }

  /// A name of a source that belongs to no memo, and was not copied.
  public struct Skipped: Sendable, Equatable {
    /// The folder it is in.
    public var source: String
    /// The name.
    public var name: String
    /// Why it is not a memo's file.
    public var reason: String
  }

  /// The folder imported into.
  public var target: String
  /// Whether nothing was written.
  public var dryRun: Bool
  /// Leftover temporary files of an interrupted import or sweep, removed from the target first.
  public var temporariesRemoved: [String]
  /// Every memo of every source, in source order then base order.
  public var memos: [Memo]
  /// Names that are no memo's, per source.
  public var skipped: [Skipped]
  /// Whole sources that could not be read, with why.
  public var errors: [String]
  /// What a person should know that did not stop the import (the import record could not be read
  /// or written), one line each, for standard error.
  public var notices: [String] = []

  /// Whether anything needs a person.
  public var needsPerson: Bool { memos.contains(where: \.needsPerson) }

  /// 2 when a source could not be read or a file failed, 1 when something needs a person
  /// (a conflict, a memo incomplete on the source, one `--move` had to keep), 0 otherwise: everything that could be imported
  /// was (a memo still recording waits for a later run, and is not a person's to fix).
  public var exitCode: Int32 {
    if !errors.isEmpty || memos.contains(where: { $0.outcome == .failed }) { return 2 }
    return needsPerson ? 1 : 0
  }
}
