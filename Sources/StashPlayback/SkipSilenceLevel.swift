/// How hard skip silence shortens the pauses of a memo: each pause longer than `keptSeconds` is
/// shortened to that; shorter ones are left as they are.
public enum SkipSilenceLevel: String, Sendable, CaseIterable {
  /// Keeps half a second: a thinking pause still sounds like one; only the long gaps go.
  case mild
  /// Keeps 0.3 s: about the shortest pause a listener still hears as the end of a sentence.
  case medium
  /// Keeps 0.15 s: a little longer than the gaps between words, so words do not run together.
  case strong

  /// Seconds of memo a long pause is shortened to.
  public var keptSeconds: Double {
    switch self {
    case .mild: 0.5
    case .medium: 0.3
    case .strong: 0.15
    }
  }
}
