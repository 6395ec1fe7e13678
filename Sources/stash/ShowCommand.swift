import StashFormat
import StashLint

/// `stash show MEMO [--json]`: what is known about one memo, then its transcript as timed text.
/// MEMO is a base, a file of the memo, or a title (see `MemoReference`).
enum ShowCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "show")
    if arguments.flags.contains("help") || arguments.flags.contains("h") {
      print(CommandCatalogue.help(for: "show")!, terminator: "")
      return 0
    }
    guard arguments.positionals.count == 1 else {
      throw UsageError(message: "give one memo: stash show MEMO")
    }
    let json = try arguments.format(among: ["text", "json"]) == "json"
    let reference = try MemoReference(arguments.positionals[0])
    let memo = reference.memo
    let account = reference.account(cached: !arguments.flags.contains("no-cache")) {
      standardError("stash show: " + $0)
    }
    var transcript: WebVTTDocument?
    var route: GPXDocument?
    var status: Int32 = 0
    do { transcript = try reference.transcript() } catch {
      standardError("stash show: the transcript cannot be read: \(error.message)")
      status = 2
    }
    do { route = try reference.route() } catch {
      standardError("stash show: the route cannot be read: \(error.message)")
      status = 2
    }
    if json {
      let json = JSONValue.object([
        ("memo", memo.json(problems: account.map { $0.findings.map(\.problemJSON) })),
        (
          "transcript",
          transcript.map { document in
            .object([
              ("cues", .array(document.cues.map(ExportCommand.cueJSON))),
              ("diagnostics", .array(document.diagnostics.map(\.json))),
            ])
          } ?? .null
        ),
        (
          "route",
          route.map { document in
            .object([
              ("statistics", RouteStatistics(document: document).json),
              ("diagnostics", .array(document.diagnostics.map(\.json))),
            ])
          } ?? .null
        ),
      ])
      print(json.serialized(pretty: true))
      return status
    }
    print(text(memo, problems: account?.findings, transcript: transcript, route: route), terminator: "")
    return status
  }

  /// The facts, one per line (each of `problems`, the memo's one account, or else the reader's own
  /// problems), then the cues.
  static func text(_ memo: Memo, problems: [LintFinding]?, transcript: WebVTTDocument?, route: GPXDocument?)
    -> String
  {
    func row(_ label: String, _ value: String) -> String {
      "  " + label + String(repeating: " ", count: 11 - label.count) + value + "\n"
    }
    var out = PathText.escaped(memo.displayName) + "\n"
    out += row("base", PathText.escaped(memo.base))
    out += row(
      "recorded", "\(RecordingDate.localMinute(memo.recordedAt)) (from the \(memo.dateSource.rawValue))")
    var audio = "missing (a capture: only its transcript and route can be recovered)"
    switch memo.audio?.state {
    case .ok?: audio = "ok"
    case .cutShort(let tail)?:
      // The problem line below says where the file ends in its last box; this says what is lost.
      audio =
        "cut short: it plays up to its last whole sample; the file's last \(Text.count(tail, "byte")) come "
        + "after that sample and are not played"
    case .damaged(let reason)?: audio = "damaged: \(reason)"
    case .lengthUnreadable(let reason)?: audio = "length unreadable: \(reason)"
    case nil: break
    }
    if memo.hasAudio {
      out += row("length", memo.durationSeconds.map { TimeText.preciseClock($0) } ?? "unknown")
    }
    out += row("audio", audio)
    out += row(
      "files", memo.files.keys.sorted().map { PathText.escaped(memo.files[$0]!) }.joined(separator: ", "))
    if let text = memo.titleText { out += row("title", PathText.escaped(text)) }
    if memo.files[.bookmarks] != nil {
      out += row("bookmarks", "\(memo.bookmarkCount) (`stash bookmarks` lists them)")
    }
    if let route {
      let statistics = RouteStatistics(document: route)
      let km = (statistics.distance / 10).rounded() / 100
      out += row(
        "route",
        "\(Text.count(statistics.pointCount, "point")) in \(Text.count(statistics.segmentCount, "segment")), \(km) km"
          + (statistics.offGlobePointCount == 0
            ? ""
            : "; \(Text.count(statistics.offGlobePointCount, "point")) off the globe left out")
      )
    }
    if memo.needsRecovery { out += row("recovery", "needed: run `stash recover`") }
    if let problems {
      for finding in problems {
        let at =
          finding.location.line.map { ":\($0)" } ?? finding.location.offset.map { " (at byte \($0))" } ?? ""
        out += row(
          "problem",
          "\(finding.severity.rawValue) \(finding.code.rawValue) in \(finding.name)\(at): \(PathText.escaped(finding.message, keepingBackslashes: true))"
        )
      }
    } else {
      for problem in memo.problems {
        out += row(
          "problem",
          "\(problem.severity.rawValue) \(problem.code.rawValue): \(PathText.escaped(problem.message))")
      }
    }
    guard let transcript else {
      // A memo with a transcript file that could not be read has one: it was not read.
      out += memo.files[.transcript] == nil ? "\nNo transcript.\n" : "\nThe transcript could not be read.\n"
      return out
    }
    out += "\nTranscript (\(Text.count(transcript.cues.count, "cue"))):\n"
    for cue in transcript.cues {
      out += "  [\(TimeText.preciseClock(cue.startTime)) → \(TimeText.preciseClock(cue.endTime))] "
      out += PathText.escaped(ExportCommand.oneLine(cue.markedText)) + "\n"
    }
    return out
  }
}
