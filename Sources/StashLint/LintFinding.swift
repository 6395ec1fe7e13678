import StashFormat

/// One problem `stash lint` reports: a rule's code, a severity, where, and what to do.
package struct LintFinding: Sendable, Equatable {
  /// The rule's stable code: a reader's `FormatError.Code` or a `LintCode` (`.stashlint` globs
  /// match its text, and the output sorts by it).
  package var code: RuleCode
  /// The severity after `.stashlint` is applied.
  package var severity: Severity
  /// The file's path as printed: the linted folder joined with the name, already escaped (PathText).
  package var path: String
  /// The name relative to the linted folder (escaped), which `ignore` globs match.
  package var name: String
  /// Where in the file, when the reader knows.
  package var location: SourceLocation
  /// What was found and what to do.
  package var message: String
  /// For a finding that stands for others of its code past a limit, how many it stands for; they
  /// count in the summary though they are not listed. 0 for an ordinary finding.
  package var unlisted = 0

  /// Creates a finding from a reader's diagnostic about the file `name` in `folder`.
  package init(_ diagnostic: Diagnostic, name: String, folder: String) {
    self.init(
      code: .reader(diagnostic.code), severity: diagnostic.severity, name: name, folder: folder,
      location: diagnostic.location, message: diagnostic.message)
    unlisted = diagnostic.unlisted
  }

  /// Creates a finding; `name` is already escaped for printing.
  package init(
    code: RuleCode, severity: Severity, name: String, folder: String, location: SourceLocation = .init(),
    message: String
  ) {
    self.init(
      code: code, severity: severity, name: name, path: LintFinding.join(folder, name), location: location,
      message: message)
  }

  /// Creates a finding whose printed path (`join(folder, name)`) is already made: a file's checks
  /// join it once, not once per finding.
  package init(
    code: RuleCode, severity: Severity, name: String, path: String, location: SourceLocation = .init(),
    message: String, unlisted: Int = 0
  ) {
    self.unlisted = unlisted
    self.code = code
    self.severity = severity
    self.name = name
    self.path = path
    self.location = location
    self.message = message
  }

  /// `folder/name` as printed; a folder of `.` is left out, so paths read as the user typed them.
  package static func join(_ folder: String, _ name: String) -> String {
    if folder == "." || folder.isEmpty { return name }
    return PathText.join(PathText.escaped(folder), name)
  }
}
