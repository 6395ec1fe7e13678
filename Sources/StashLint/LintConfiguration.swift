import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// What `.stashlint` (or `--config FILE`) and the command line change: rules turned off or
/// selected, severities, paths ignored, the severity that fails the run. Format (docs/lint/README.md):
///
///     # comment
///     fail-on = warning
///     ignore = lint-cue-overlap, folder-unrecognised   (rules; `disable` is the same)
///     select = folder-*, mp4-*            (only these)
///     exclude = *.pdf, drafts-*           (globs on names in the folder)
///     [severity]
///     title-too-long = error              (error, warning, info, or off)
///
/// A rule pattern is a code, a glob (`vtt-*`), or a family (`vtt`). Unknown rules are errors, so a
/// typo never silently turns nothing off. One meaning per word, on the command line and in the
/// file alike: `ignore` takes rules (as `--ignore` does), `exclude` file globs (as `--exclude`);
/// a rule given where globs go, or a glob where rules go, is an error that says which word fits.
package struct LintConfiguration: Equatable {
  /// Rule patterns turned off.
  package var disabled: [String] = []
  /// When set, only rules matching one of these patterns are reported.
  package var selected: [String]?
  /// Severity overrides, by pattern, in file order (the last match wins).
  package var severities: [(pattern: String, severity: Severity?)] = []
  /// Globs on names (relative to the linted folder) whose findings are dropped.
  package var ignoredPaths: [String] = []
  /// The lowest severity that makes the run fail (exit 1).
  package var failOn: Severity?

  /// No configuration: every rule at its own severity, no file left out.
  package init() {}

  package static func == (a: LintConfiguration, b: LintConfiguration) -> Bool {
    a.disabled == b.disabled && a.selected == b.selected && a.ignoredPaths == b.ignoredPaths
      && a.failOn == b.failOn && a.severities.map(\.pattern) == b.severities.map(\.pattern)
      && a.severities.map(\.severity) == b.severities.map(\.severity)
  }

  /// The name of the file read from a linted folder.
  package static let fileName = ".stashlint"

  /// Parses a configuration's text; `source` names it in errors.
  package static func parse(_ text: String, source: String) throws(LintSetupError) -> LintConfiguration {
    var configuration = LintConfiguration()
    var section = ""
    for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = Text.trimmed(raw)
      let at = "\(source):\(number + 1)"
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
      if line.hasPrefix("[") {
        guard line.hasSuffix("]") else { throw LintSetupError(message: "\(at): a section is written [name]") }
        section = Text.trimmed(line.dropFirst().dropLast())
        guard section == "severity" || section == "lint" else {
          throw LintSetupError(
            message: "\(at): unknown section [\(section)]; the sections are [lint] and [severity]")
        }
        continue
      }
      guard let equals = line.firstIndex(of: "=") else {
        throw LintSetupError(message: "\(at): expected `key = value`")
      }
      let key = Text.trimmed(line[..<equals])
      let value = Text.trimmed(line[line.index(after: equals)...])
      if section == "severity" {
        try checkPattern(key, at: at)
        configuration.severities.append((key, try severity(value, at: at, allowOff: true)))
        continue
      }
      switch key {
      case "disable", "ignore":
        let patterns = list(value)
        for pattern in patterns { try checkPattern(pattern, at: at) }
        configuration.disabled += patterns
      case "select":
        let patterns = list(value)
        for pattern in patterns { try checkPattern(pattern, at: at) }
        configuration.selected = (configuration.selected ?? []) + patterns
      case "exclude":
        let globs = list(value)
        for glob in globs { try checkGlob(glob, at: at) }
        configuration.ignoredPaths += globs
      case "fail-on":
        configuration.failOn = try severity(value, at: at, allowOff: false)
      default:
        if isRule(key) {
          throw LintSetupError(
            message: "\(at): '\(key)' is a rule, not a key: set its severity under [severity], "
              + "or turn it off with `ignore = \(key)`")
        }
        throw LintSetupError(
          message:
            "\(at): unknown key '\(key)'; the keys are ignore (or disable), select, exclude and fail-on")
      }
    }
    return configuration
  }

  /// Reads `path`; a missing file is an error only when `required`.
  package static func load(_ path: String, required: Bool) throws(LintSetupError) -> LintConfiguration? {
    let bytes: [UInt8]
    do {
      bytes = try ReadOnlyFile.contents(of: path, limit: 1 << 20)
    } catch {
      // A folder without its own file is the usual case; a file that is there but unreadable is not.
      if !required, access(path, F_OK) != 0 { return nil }
      throw LintSetupError(
        message: "cannot read the configuration \(PathText.escaped(path)): \(error.message)")
    }
    return try parse(String(decoding: bytes, as: UTF8.self), source: PathText.escaped(path))
  }

  /// A comma- or space-separated list.
  package static func list(_ value: String) -> [String] {
    value.split { $0 == "," || $0 == " " || $0 == "\t" }.map(String.init)
  }

  package static func severity(_ value: String, at: String, allowOff: Bool) throws(LintSetupError)
    -> Severity?
  {
    if allowOff && value == "off" { return nil }
    guard let severity = Severity(rawValue: value) else {
      throw LintSetupError(
        message: "\(at): '\(value)' is not a severity (error, warning, info\(allowOff ? ", off" : ""))")
    }
    return severity
  }

  /// Refuses a pattern that matches no rule: a typo must not silently do nothing. A pattern that
  /// looks like a file name is said to belong with `exclude`.
  package static func checkPattern(_ pattern: String, at: String) throws(LintSetupError) {
    guard isRule(pattern) else {
      let file = pattern.contains(".") || pattern.contains("/")
      throw LintSetupError(
        message: "\(at): '\(pattern)' matches no rule; `stash lint --list-rules` lists them"
          + (file ? " (to leave files out, give their names to `exclude`)" : ""))
    }
  }

  /// Refuses a file glob that is a rule pattern (`exclude = lint-cue-overlap`): it would match no
  /// file and silently do nothing.
  package static func checkGlob(_ glob: String, at: String) throws(LintSetupError) {
    guard glob.contains("*") && !glob.contains(where: { $0.isLetter || $0.isNumber }) || !isRule(glob)
    else {
      throw LintSetupError(
        message: "\(at): '\(glob)' is a rule, not a file name: `exclude` leaves files out; "
          + "turn rules off with `ignore`")
    }
  }

  /// Whether `pattern` (code, glob or family) matches a rule.
  package static func isRule(_ pattern: String) -> Bool {
    LintCatalogue.rules.contains { matches(pattern, $0.code.rawValue) }
  }

  /// Whether a rule pattern (code, glob or family) matches `code`.
  package static func matches(_ pattern: String, _ code: String) -> Bool {
    if pattern == code { return true }
    if !pattern.contains("-") && !pattern.contains("*") { return code.hasPrefix(pattern + "-") }
    return fnmatch(pattern, code, 0) == 0
  }

  /// Whether findings of `code` are reported at all.
  package func reports(_ code: String) -> Bool {
    if let selected, !selected.contains(where: { Self.matches($0, code) }) { return false }
    return !disabled.contains { Self.matches($0, code) }
  }

  /// Whether `apply` can drop a finding or change its severity (false for no configuration at all,
  /// the usual case, where findings are passed on without a look at each).
  package var changesFindings: Bool {
    !disabled.isEmpty || selected != nil || !severities.isEmpty || !ignoredPaths.isEmpty
  }

  /// The finding as configured: nil when its rule is off or its path ignored, else with its severity.
  package func apply(_ finding: LintFinding) -> LintFinding? {
    guard reports(finding.code.rawValue) else { return nil }
    if ignoredPaths.contains(where: { fnmatch($0, finding.name, 0) == 0 || fnmatch($0, finding.path, 0) == 0 }
    ) {
      return nil
    }
    var out = finding
    for (pattern, severity) in severities where Self.matches(pattern, finding.code.rawValue) {
      guard let severity else { return nil }
      out.severity = severity
    }
    return out
  }

  /// This configuration with `other`'s settings added on top (command-line options over the file).
  package func merged(with other: LintConfiguration) -> LintConfiguration {
    var out = self
    out.disabled += other.disabled
    if let selected = other.selected { out.selected = selected }
    out.severities += other.severities
    out.ignoredPaths += other.ignoredPaths
    if let failOn = other.failOn { out.failOn = failOn }
    return out
  }
}
