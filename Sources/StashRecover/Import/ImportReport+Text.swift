import StashFormat

extension ImportReport {
  /// The report for a person: one line per memo (what became of it and its name), an indented
  /// line saying why where it is not plain, then the names no memo owns.
  public var textLines: [String] { textLines(showing: { _ in true }, skippedToo: true) }

  /// The report with only the memos `shown` picks (and without the names no memo owns unless
  /// `skippedToo`); the summary still counts every memo, as `--watch` prints a pass.
  public func textLines(showing shown: (Memo) -> Bool, skippedToo: Bool) -> [String] {
    var lines = ReportText.opening(dryRun: dryRun, temporariesRemoved: temporariesRemoved)
    for error in errors { lines.append("! \(error)") }
    for memo in memos where shown(memo) {
      let mark = memo.needsPerson ? "!" : " "
      lines.append("\(mark) \(verb(memo.outcome, moved: memo.moved)): \(PathText.escaped(memo.base))")
      if !memo.detail.isEmpty { lines.append("      \(memo.detail)") }
    }
    for skipped in skipped where skippedToo {
      lines.append("  not copied: \(PathText.escaped(skipped.name)) (\(skipped.reason))")
    }
    let count = { (outcome: Outcome) in memos.filter { $0.outcome == outcome }.count }
    let bytes = memos.filter { $0.outcome == .copied }.reduce(0) { $0 + $1.bytes }
    var summary = "\(count(.copied)) \(dryRun ? "to copy" : "copied") (\(Self.bytesText(bytes)))"
    summary += ", \(count(.alreadyHere)) already here"
    for (outcome, words) in [
      (Outcome.changedHere, "changed here since imported"), (.deletedHere, "deleted here since imported"),
      (.conflict, "in conflict"), (.stillRecording, "still recording"),
      (.incomplete, "incomplete on the source"), (.failed, "failed"),
    ] where count(outcome) > 0 {
      summary += ", \(count(outcome)) \(words)"
    }
    if !skipped.isEmpty { summary += "; \(Text.count(skipped.count, "other file")) not copied" }
    lines.append(summary)
    return lines
  }

  private func verb(_ outcome: Outcome, moved: Bool) -> String {
    switch outcome {
    case .copied: dryRun ? (moved ? "would move" : "would copy") : (moved ? "moved" : "copied")
    case .alreadyHere: "already here" + removal(moved)
    case .changedHere: "changed here since it was imported" + removal(moved)
    case .deletedHere: "deleted here since it was imported" + removal(moved)
    case .conflict: "conflict"
    case .stillRecording: "still recording"
    case .incomplete: "incomplete on the source"
    case .failed: "failed"
    }
  }

  private func removal(_ moved: Bool) -> String {
    moved ? (dryRun ? ", would be removed from the source" : ", removed from the source") : ""
  }

  /// Bytes for a person: `512 B`, `1.5 MB` (powers of 1000, as file managers show them).
  public static func bytesText(_ bytes: Int) -> String {
    if bytes < 1000 { return "\(bytes) B" }
    var value = Double(bytes)
    for unit in ["kB", "MB", "GB", "TB"] {
      value /= 1000
      if value < 1000 || unit == "TB" {
        let tenths = (value * 10).rounded() / 10
        return "\(tenths) \(unit)"
      }
    }
    return "\(bytes) B"
  }
}
