import StashFormat

/// What a lint run's summary needs, counted as findings go by: nothing else of them is kept.
package struct LintTally {
  /// How many findings.
  package var findings = 0
  /// How many distinct paths they are on.
  package var files = 0
  /// How many are fixable with `--fix`.
  package var fixable = 0
  /// The highest severity seen, nil with no findings.
  package var worst: Severity?
  private var bySeverity: [Severity: Int] = [:]

  /// How many findings of `severity`.
  package subscript(severity: Severity) -> Int { bySeverity[severity, default: 0] }

  /// Counts one finding (as the `unlisted` findings it stands for, when it stands for some);
  /// `newFile` says whether its path is one not counted yet.
  package mutating func count(_ finding: LintFinding, newFile: Bool) {
    let n = max(1, finding.unlisted)
    findings += n
    if newFile { files += 1 }
    bySeverity[finding.severity, default: 0] += n
    if LintCatalogue.rule(finding.code)?.fixable == true { fixable += n }
    worst = max(worst ?? finding.severity, finding.severity)
  }
}

/// Prints a lint run in one format as its findings arrive, in the order given, with the summary
/// (or the document's end) last: the output of every format is what rendering all the findings at
/// once would print, byte for byte, and memory stays flat however many there are.
package struct LintReport {
  package let format: LintFormat
  package let colour: Bool
  /// How many elements the streamed array has so far (a finding that stands for unlisted ones
  /// is one element and several findings in the tally).
  private var elements = 0
  /// The counts so far.
  package private(set) var tally = LintTally()
  /// The last finding's path: within one linted path findings arrive sorted, so a path differing
  /// from the last is new.
  private var lastPath: String?
  /// Every path seen, kept only when several paths are linted (the same file could come twice).
  private var paths: Set<String>?
  /// Text not yet written.
  private var buffer = ""
  /// The human format's findings of the current file, held until the file's last so that its
  /// repeats can be counted (`LintFormat.human(file:colour:)`): one file's findings at the most.
  private var file: [LintFinding] = []
  /// The text of a JSON or SARIF document around its array of findings, split where it goes.
  private var document: (head: String, indent: String)?

  /// The JSON or SARIF member that is streamed stands for this placeholder in the document.
  private static let placeholder = "\u{1}stash-lint-findings"

  /// The version SARIF names the tool by.
  package let toolVersion: String

  /// Starts a report; `severalPaths` when more than one path is linted into it; `toolVersion` is
  /// the version SARIF names.
  package init(format: LintFormat, colour: Bool, severalPaths: Bool, toolVersion: String) {
    self.toolVersion = toolVersion
    self.format = format
    self.colour = colour
    if severalPaths { paths = [] }
    switch format {
    case .json:
      document = (
        Self.split(LintFormat.json(findings: .string(Self.placeholder), tally: LintTally())).head, "    "
      )
    case .sarif:
      document = (
        Self.split(LintSARIF.log(results: .string(Self.placeholder), version: toolVersion)).head, "        "
      )
    case .human, .github, .gcc:
      document = nil
    }
    if let document { write(document.head) }
  }

  /// The document's text before and after the placeholder.
  private static func split(_ value: JSONValue) -> (head: String, tail: String) {
    let text = value.serialized(pretty: true)
    let quoted = JSONValue.string(placeholder).serialized()
    let cut = text.firstRange(of: quoted)!
    return (String(text[..<cut.lowerBound]), String(text[cut.upperBound...]))
  }

  /// Prints one finding (after every finding before it in the output).
  package mutating func add(_ finding: LintFinding) {
    let newFile: Bool
    if paths != nil {
      newFile = paths!.insert(finding.path).inserted
    } else {
      newFile = lastPath.map { !LintFinding.sameBytes($0, finding.path) } ?? true
    }
    lastPath = finding.path
    tally.count(finding, newFile: newFile)
    switch format {
    case .human:
      if newFile || file.first.map({ !LintFinding.sameBytes($0.path, finding.path) }) == true { writeFile() }
      file.append(finding)
    case .github: write(LintFormat.github(finding))
    case .gcc: write(LintFormat.gcc(finding))
    case .json: element(LintFormat.json(finding))
    case .sarif: element(LintSARIF.result(finding))
    }
  }

  /// One element of the document's array, indented where the whole document would put it.
  private mutating func element(_ value: JSONValue) {
    let indent = document!.indent
    write(elements == 0 ? "[\n" + indent : ",\n" + indent)
    elements += 1
    write(value.serialized(pretty: true).replacingAll("\n", "\n" + indent))
  }

  /// Writes the current file's findings in the human format.
  private mutating func writeFile() {
    guard !file.isEmpty else { return }
    write(LintFormat.human(file: file, colour: colour))
    file.removeAll(keepingCapacity: true)
  }

  /// Prints the end: the summary, or the rest of the document. `fixableCount` is the number the
  /// human summary offers to fix; `unchecked` of `paths` could not be checked at all.
  package mutating func finish(fixableCount: Int, unchecked: Int = 0, paths: Int = 1) {
    switch format {
    case .human:
      writeFile()
      write(
        LintFormat.summary(tally, fixableCount: fixableCount, unchecked: unchecked, paths: paths) + "\n")
    case .github, .gcc: break
    case .json, .sarif:
      let close = elements == 0 ? "[]" : "\n" + document!.indent.dropLast(2) + "]"
      let whole =
        format == .json
        ? LintFormat.json(findings: .string(Self.placeholder), tally: tally)
        : LintSARIF.log(results: .string(Self.placeholder), version: toolVersion)
      write(close + Self.split(whole).tail + "\n")
    }
    flush()
  }

  private mutating func write(_ text: String) {
    buffer += text
    if buffer.utf8.count >= 1 << 16 { flush() }
  }

  /// Writes what is buffered to standard output.
  package mutating func flush() {
    guard !buffer.isEmpty else { return }
    print(buffer, terminator: "")
    buffer.removeAll(keepingCapacity: true)
  }
}
