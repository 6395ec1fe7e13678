import StashFormat

/// One rule of `stash lint`: a stable code (the reader's own), its default severity, and the page
/// `stash lint --explain CODE` prints and `docs/lint/CODE.md` holds.
package struct LintRule: Sendable {
  /// Which reader (or the linter itself, for cross-file checks) reports it.
  package enum Family: String, Sendable, CaseIterable {
    case folder, title, mp4, vtt, gpx, bookmarks, lint

    /// The family's heading in the rule index.
    package var heading: String {
      switch self {
      case .folder: "Folder and names (FORMAT.md §1, §6)"
      case .title: "Titles (FORMAT.md §5)"
      case .mp4: "Audio (FORMAT.md §2, docs/inspect-audio.md)"
      case .vtt: "Transcripts (WebVTT, FORMAT.md §3)"
      case .gpx: "Routes (GPX, FORMAT.md §4, docs/inspect-route.md)"
      case .bookmarks: "Bookmarks (WebVTT chapters, FORMAT.md §8)"
      case .lint: "Across files (the linter's own checks)"
      }
    }
  }

  /// The stable code: a reader's `FormatError.Code` or the linter's own `LintCode`.
  package var code: RuleCode
  /// The severity a finding has unless `.stashlint` changes it.
  package var severity: Severity
  /// One line: what the rule finds.
  package var summary: String
  /// Why it matters.
  package var reason: String
  /// What to do about it.
  package var fix: String
  /// Whether `stash lint --fix` can repair it safely.
  package var fixable: Bool = false

  /// The reader family that reports it.
  package var family: Family { code.family }
  /// The code without its family prefix: the short slug (`bad-timestamp`).
  package var slug: String { String(code.rawValue.dropFirst(family.rawValue.count + 1)) }
}

extension LintRule {
  /// A rule for a code a reader reports.
  package init(
    code: FormatError.Code, severity: Severity, summary: String, reason: String, fix: String,
    fixable: Bool = false
  ) {
    self.init(
      code: .reader(code), severity: severity, summary: summary, reason: reason, fix: fix, fixable: fixable)
  }

  /// A rule for one of the linter's own checks.
  package init(code: LintCode, severity: Severity, summary: String, reason: String, fix: String) {
    self.init(code: .linter(code), severity: severity, summary: summary, reason: reason, fix: fix)
  }
}
