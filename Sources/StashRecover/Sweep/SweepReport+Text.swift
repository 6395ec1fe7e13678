import StashFormat

extension SweepReport {
  /// The report for a person, a line each: a block per capture, two lines per event (what was
  /// done to which names, then why), a `!` on events that need a person. `stash recover` prints
  /// these lines and the browser shows them in its overlay, so both say the same thing.
  public var textLines: [String] {
    var lines = ReportText.opening(dryRun: dryRun, temporariesRemoved: temporariesRemoved)
    if captures.isEmpty && temporariesRemoved.isEmpty {
      lines.append("Nothing to recover in \(PathText.escaped(folder)).")
    }
    for capture in captures {
      lines.append(capture.base.isEmpty ? "(folder)" : PathText.escaped(capture.base))
      for event in capture.events {
        let verb = dryRun ? "would be \(event.action.rawValue)" : event.action.rawValue
        let names = event.names.map { PathText.escaped($0) }.joined(separator: ", ")
        lines.append("  \(event.needsPerson ? "!" : " ") \(verb): \(names)")
        lines.append("      \(event.detail)")
      }
    }
    if needsPerson {
      lines += ["", "Lines marked ! need a person: see what each says."]
    }
    return lines
  }
}
