import StashFormat

/// Findings as a SARIF 2.1.0 log (OASIS), in the shape GitHub code scanning accepts: the rule
/// catalogue in `tool.driver.rules`, each result with `ruleId`, `level` and a physical location
/// relative to the folder linted (`%SRCROOT%`).
package enum LintSARIF {
  package static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

  /// The log with `results` as its one run's results, naming the tool's `version`.
  package static func log(results: JSONValue, version: String) -> JSONValue {
    let rules = LintCatalogue.rules
    return .object([
      ("$schema", .string(schema)),
      ("version", .string("2.1.0")),
      (
        "runs",
        .array([
          .object([
            (
              "tool",
              .object([
                (
                  "driver",
                  .object([
                    ("name", .string("stash")),
                    ("version", .string(version)),
                    ("rules", .array(rules.map(rule))),
                  ])
                )
              ])
            ),
            ("results", results),
          ])
        ])
      ),
    ])
  }

  package static func level(_ severity: Severity) -> String {
    switch severity {
    case .error: "error"
    case .warning: "warning"
    case .info: "note"
    }
  }

  package static func rule(_ rule: LintRule) -> JSONValue {
    .object([
      ("id", .string(rule.code.rawValue)),
      ("name", .string(rule.slug)),
      ("shortDescription", .object([("text", .string(rule.summary))])),
      ("fullDescription", .object([("text", .string(rule.reason))])),
      ("help", .object([("text", .string(rule.fix)), ("markdown", .string(LintExplain.markdown(rule)))])),
      ("defaultConfiguration", .object([("level", .string(level(rule.severity)))])),
    ])
  }

  /// Each rule's position in `tool.driver.rules`, which a result names as its `ruleIndex`.
  package static let ruleIndexes: [RuleCode: Int] = Dictionary(
    LintCatalogue.rules.enumerated().map { ($1.code, $0) }, uniquingKeysWith: { _, last in last })

  /// One finding as a SARIF result.
  package static func result(_ finding: LintFinding) -> JSONValue {
    let ruleIndex = ruleIndexes[finding.code]
    var region: [(String, JSONValue)] = []
    if let line = finding.location.line {
      region.append(("startLine", .int(line)))
      if let column = finding.location.column { region.append(("startColumn", .int(column))) }
    } else if let offset = finding.location.offset {
      region.append(("byteOffset", .int(offset)))
    }
    var physical: [(String, JSONValue)] = [
      (
        "artifactLocation",
        .object([("uri", .string(uri(finding.path))), ("uriBaseId", .string("%SRCROOT%"))])
      )
    ]
    if !region.isEmpty { physical.append(("region", .object(region))) }
    var members: [(String, JSONValue)] = [("ruleId", .string(finding.code.rawValue))]
    if let ruleIndex { members.append(("ruleIndex", .int(ruleIndex))) }
    members += [
      ("level", .string(level(finding.severity))),
      ("message", .object([("text", .string(finding.message))])),
      ("locations", .array([.object([("physicalLocation", .object(physical))])])),
    ]
    return .object(members)
  }

  /// A relative URI reference (RFC 3986): every byte but unreserved characters and `/` percent-encoded.
  package static func uri(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      let c = Character(Unicode.Scalar(byte))
      if byte < 0x80 && (c.isLetter || c.isNumber || "-._~/".contains(c)) {
        out.append(c)
      } else {
        out += "%" + Text.zeroPadded(String(byte, radix: 16, uppercase: true), width: 2)
      }
    }
    return out
  }
}
