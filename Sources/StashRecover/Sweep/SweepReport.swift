/// What a sweep did (or, for a dry run, would do), per capture, in words a person can act on.
public struct SweepReport: Sendable, Equatable {
  /// One thing that happened to a capture.
  public struct Event: Sendable, Equatable {
    /// What kind of thing happened.
    public enum Action: String, Sendable {
      /// A finished file was written.
      case published
      /// Files Stash wrote were removed.
      case removed
      /// A route was not published because consent was withdrawn or refused; its parts were removed.
      case dropped
      /// An interrupted withdrawal of the route was finished.
      case withdrawn
      /// Files were left in place, for the reason given.
      case kept
      /// The capture was left alone, for the reason given.
      case skipped
      /// Audio was rewritten to end at its last whole sample.
      case repaired
      /// Something failed; the capture may be partly done and a rerun continues it.
      case failed
    }

    /// What happened.
    public var action: Action
    /// The names concerned, relative to the memo folder.
    public var names: [String]
    /// Why, or what a person should know, in plain words.
    public var detail: String
    /// Whether a person should look at it (a kept broken chain, a stranger's file, a skipped capture).
    public var needsPerson: Bool
    /// For a published file: what it holds.
    public var assembly: AssemblyFacts?
    /// Parts kept beside a finished file as the sign of a loss that `--accept-loss` would
    /// accept, once a person has seen it.
    public var lossToAccept = false
  }

  /// The facts of a published file, for the report (not its bytes).
  public struct AssemblyFacts: Sendable, Equatable {
    /// Which kind of file.
    public var kind: PartsKind
    /// Cues or points.
    public var items: Int
    /// Route segments (1 for a transcript).
    public var segments: Int
    /// Gaps that remain in it.
    public var gaps: [Gap]
    /// Whether the chain of parts was unbroken (so its parts were removed).
    public var unbroken: Bool
    /// Whether unconfirmed words were carried over with their marking.
    public var unconfirmedWords: Bool
  }

  /// The report of one capture.
  public struct Capture: Sendable, Equatable {
    /// The memo's base name.
    public var base: String
    /// What happened, in order.
    public var events: [Event]
  }

  /// The folder swept.
  public var folder: String
  /// Whether this is a dry run: nothing was written or removed.
  public var dryRun: Bool
  /// Leftover temporary files removed (or to remove).
  public var temporariesRemoved: [String]
  /// Per capture: only those something was done to (or would be), or that need a person.
  public var captures: [Capture]
  /// Audio files looked at for repair (`--repair-audio`), those left for being recent included.
  public var audioLookedAt = 0

  /// True when some event needs a person.
  public var needsPerson: Bool { captures.contains { $0.events.contains(where: \.needsPerson) } }
  /// True when some parts were kept as the sign of a loss a person may now accept.
  public var lossesToAccept: Bool { captures.contains { $0.events.contains(where: \.lossToAccept) } }
  /// True when some event failed.
  public var failed: Bool { captures.contains { $0.events.contains { $0.action == .failed } } }
  /// The CLI's exit code: 2 on a failure, 1 when a person is needed, else 0.
  public var exitCode: Int32 { failed ? 2 : needsPerson ? 1 : 0 }
}
