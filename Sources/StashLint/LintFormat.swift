import StashFormat

/// How `stash lint` prints its findings.
package enum LintFormat: String, CaseIterable {
  /// For people: `path:line:col: severity[code] message`, coloured on a terminal, then a summary.
  case human
  /// One JSON object: `findings` and `summary` (docs/lint/README.md).
  case json
  /// GitHub Actions workflow commands (`::error file=…::…`), which become annotations.
  case github
  /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
  case sarif
  /// `path:line:col: error: message [code]`, as compilers print, for editors' error parsers.
  case gcc

  /// `path:line:column` where known, else `path`.
  package static func position(_ finding: LintFinding) -> String {
    guard let line = finding.location.line else { return finding.path }
    return "\(finding.path):\(line):\(finding.location.column ?? 1)"
  }

  /// The message, with the byte offset added when there is no line (binary files).
  package static func message(_ finding: LintFinding) -> String {
    let text =
      needsEscaping(finding.message)
      ? PathText.escaped(finding.message, keepingBackslashes: true) : finding.message
    if finding.location.line == nil, let offset = finding.location.offset {
      return text + " (at byte \(offset))"
    }
    return text
  }

  /// Whether `PathText.escaped` would change `text`: it holds a control character (C0, DEL, or C1,
  /// whose UTF-8 starts with 0xC2) or a backslash. Most messages hold none, and escaping scalar by
  /// scalar was the largest part of printing 100,000 findings.
  package static func needsEscaping(_ text: String) -> Bool {
    text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
  }

  /// How many findings of one code in one file the human format lists before counting the rest.
  package static let repeatsShown = 3

  /// One file's findings, in print order, one line each; past `repeatsShown` findings of one code,
  /// the rest (those listed and those a limit left unlisted alike) are counted on one line where the
  /// next would have stood, saying how many of them `--format json` lists.
  package static func human(file findings: [LintFinding], colour: Bool) -> String {
    var listed: [RuleCode: Int] = [:]
    var unlisted: [RuleCode: Int] = [:]
    for finding in findings {
      if finding.unlisted > 0 {
        unlisted[finding.code, default: 0] += finding.unlisted
      } else {
        listed[finding.code, default: 0] += 1
      }
    }
    func more(_ code: RuleCode, _ path: String, _ hidden: Int, inJSON: Int) -> String {
      let json =
        inJSON == 0
        ? "" : inJSON == hidden ? " (`--format json` lists each)" : " (`--format json` lists \(inJSON))"
      return paint("1", path, colour) + ": [" + paint("2", code.rawValue, colour) + "] "
        + "\(hidden) more like \(hidden == 1 ? "this" : "these") in this file\(json)\n"
    }
    var seen: [RuleCode: Int] = [:]
    var out = ""
    for finding in findings where finding.unlisted == 0 {
      seen[finding.code, default: 0] += 1
      let count = seen[finding.code]!
      if count <= repeatsShown {
        out += human(finding, colour: colour)
      } else if count == repeatsShown + 1 {
        let inJSON = listed[finding.code]! - repeatsShown
        out += more(finding.code, finding.path, inJSON + unlisted[finding.code, default: 0], inJSON: inJSON)
      }
    }
    // A code whose listed findings all fit still has its unlisted ones said.
    for finding in findings where finding.unlisted > 0 && listed[finding.code, default: 0] <= repeatsShown {
      out += more(finding.code, finding.path, unlisted[finding.code]!, inJSON: 0)
    }
    return out
  }

  /// `text` in the terminal style `code` when `colour`.
  private static func paint(_ code: String, _ text: String, _ colour: Bool) -> String {
    colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// One finding's line: `path:line:col: severity[code] message`, coloured when `colour`.
  package static func human(_ finding: LintFinding, colour: Bool) -> String {
    func paint(_ code: String, _ text: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    let severity: String
    switch finding.severity {
    case .error: severity = paint("1;31", "error")
    case .warning: severity = paint("1;33", "warning")
    case .info: severity = paint("1;36", "info")
    }
    return paint("1", position(finding)) + ": " + severity + "[" + paint("2", finding.code.rawValue) + "] "
      + message(finding) + "\n"
  }

  /// `3 findings (1 error, 2 warnings) in 2 files; 1 fixable with --fix`, or `No problems found.`
  /// With nothing found, what could not be checked (`unchecked` of `paths`) is said instead, so
  /// "No problems found." never stands beside an error.
  package static func summary(_ tally: LintTally, fixableCount: Int, unchecked: Int = 0, paths: Int = 1)
    -> String
  {
    if tally.findings == 0 && unchecked > 0 {
      return unchecked == paths
        ? "Nothing was checked."
        : "No problems found in what was checked; \(unchecked) of \(paths) could not be checked."
    }
    guard tally.findings > 0 else { return "No problems found." }
    let counts = Severity.allCases.reversed().compactMap { severity -> String? in
      let n = tally[severity]
      guard n > 0 else { return nil }
      return severity == .info ? "\(n) info" : Text.count(n, severity.rawValue)
    }
    var text =
      "\(Text.count(tally.findings, "finding")) (\(counts.joined(separator: ", "))) in \(Text.count(tally.files, "file"))"
    if fixableCount > 0 { text += "; \(fixableCount) fixable with --fix" }
    return text
  }

  /// The JSON document (docs/lint/README.md) with `findings` as its findings member.
  package static func json(findings: JSONValue, tally: LintTally) -> JSONValue {
    .object([
      ("version", .int(1)),
      ("findings", findings),
      (
        "summary",
        .object(
          [("findings", .int(tally.findings))]
            + Severity.allCases.reversed().map { severity in
              (severity.rawValue, JSONValue.int(tally[severity]))
            }
            + [("files", .int(tally.files))])
      ),
    ])
  }

  /// One finding as an element of the JSON document's `findings`.
  package static func json(_ finding: LintFinding) -> JSONValue {
    let rule = LintCatalogue.rule(finding.code)
    return .object(
      [
        ("code", .string(finding.code.rawValue)),
        ("slug", .optional(rule?.slug)),
        ("severity", .string(finding.severity.rawValue)),
        ("path", .string(finding.path)),
        ("line", .optional(finding.location.line)),
        ("column", .optional(finding.location.column)),
        ("offset", .optional(finding.location.offset)),
        ("message", .string(finding.message)),
        ("fixable", .bool(rule?.fixable ?? false)),
      ] + (finding.unlisted > 0 ? [("unlisted", .int(finding.unlisted))] : []))
  }

  /// A workflow command; values are escaped as the runner requires (`%`, CR, LF; `:` and `,` in properties).
  package static func github(_ finding: LintFinding) -> String {
    func data(_ s: String) -> String {
      s.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
    }
    func property(_ s: String) -> String { data(s).replacingAll(":", "%3A").replacingAll(",", "%2C") }
    let command: String
    switch finding.severity {
    case .error: command = "error"
    case .warning: command = "warning"
    case .info: command = "notice"
    }
    var properties = ["file=" + property(finding.path)]
    if let line = finding.location.line {
      properties.append("line=\(line)")
      if let column = finding.location.column { properties.append("col=\(column)") }
    }
    properties.append("title=" + property(finding.code.rawValue))
    return "::\(command) \(properties.joined(separator: ","))::\(data(message(finding)))\n"
  }

  package static func gcc(_ finding: LintFinding) -> String {
    let word: String
    switch finding.severity {
    case .error: word = "error"
    case .warning: word = "warning"
    case .info: word = "note"
    }
    return "\(position(finding)): \(word): \(message(finding)) [\(finding.code)]\n"
  }
}

extension String {
  /// Every occurrence of `target` replaced (Foundation-free).
  package func replacingAll(_ target: String, _ replacement: String) -> String {
    guard contains(target) else { return self }
    return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
