import StashFormat

/// What the sweep's and the import's reports for a person both open with.
enum ReportText {
  /// The dry-run line, when it is one, then a line per leftover temporary file removed.
  static func opening(dryRun: Bool, temporariesRemoved: [String]) -> [String] {
    var lines: [String] = []
    if dryRun { lines.append("Dry run: nothing is written or removed. The plan:") }
    for name in temporariesRemoved {
      lines.append(
        "\(dryRun ? "would remove" : "removed") the leftover temporary file \(PathText.escaped(name))")
    }
    return lines
  }
}
