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
    if let audio = audioTotal { lines.append(audio) }
    if needsPerson {
      lines += ["", "Lines marked ! need a person: see what each says."]
    }
    return lines
  }

  /// One line on the audio looked at for repair: how many were (or would be) repaired, how many
  /// were already whole, and how many were left for a reason given above.
  var audioTotal: String? {
    guard audioLookedAt > 0 else { return nil }
    let events = captures.flatMap(\.events).filter {
      $0.names.contains { $0.hasSuffix(MemoFileKind.audio.suffix) }
    }
    let repaired = events.filter { $0.action == .repaired }.count
    let left = events.filter { $0.action != .repaired }.count
    let whole = max(0, audioLookedAt - repaired - left)
    var parts = ["\(repaired) \(dryRun ? "would be repaired" : "repaired")", "\(whole) already whole"]
    if left > 0 { parts.append("\(left) left as \(left == 1 ? "it is" : "they are") (said above)") }
    return "Audio: \(audioLookedAt) file\(audioLookedAt == 1 ? "" : "s") looked at; "
      + parts.joined(separator: ", ") + "."
  }
}
