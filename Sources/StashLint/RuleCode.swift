import StashFormat

/// The stable code of a lint rule: a reader's `FormatError.Code` or one of the linter's own
/// `LintCode`s. Findings, rules and the catalogue hold and compare codes as this type; the text
/// (`rawValue`, such as `vtt-bad-timestamp`) is used only where text is the interface:
/// `.stashlint` and the command line's patterns, `--explain`, and the output formats.
package enum RuleCode: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// A code a reader reports.
  case reader(FormatError.Code)
  /// A code of the linter's own checks across files.
  case linter(LintCode)

  /// The published code.
  package var rawValue: String {
    switch self {
    case .reader(let code): code.rawValue
    case .linter(let code): code.rawValue
    }
  }

  package var description: String { rawValue }

  /// The code whose text is `rawValue`, or nil for none.
  package init?(rawValue: String) {
    if let code = FormatError.Code(rawValue: rawValue) {
      self = .reader(code)
    } else if let code = LintCode(rawValue: rawValue) {
      self = .linter(code)
    } else {
      return nil
    }
  }

  /// Which reader (or the linter itself) reports it.
  package var family: LintRule.Family {
    switch self {
    case .linter: .lint
    case .reader(let code):
      switch code.reader {
      case .folder, .thrown: .folder
      case .title: .title
      case .mp4: .mp4
      case .webVTT: .vtt
      case .gpx: .gpx
      case .bookmarks: .bookmarks
      case .files: .lint
      }
    }
  }

  /// Codes sort as their published text does, byte by byte, as the output has always sorted.
  package static func < (a: RuleCode, b: RuleCode) -> Bool {
    a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8)
  }
}

extension FormatError.Code {
  /// This code as a rule's code.
  package var rule: RuleCode { .reader(self) }
}

extension LintCode {
  /// This code as a rule's code.
  package var rule: RuleCode { .linter(self) }
}
