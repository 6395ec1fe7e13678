import StashFormat
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// `stash recover [DIR] [--dry-run] [--routes=publish|drop] [--repair-audio] [--include-recent]
/// [--recent-window SECONDS] [--no-wait] [--json]`: finishes what killed recordings left in a memo
/// folder. Exit 0 when nothing needs a person, 1 when something does, 2 on usage or I/O errors.
enum RecoverCommand {
  static let usage =
    "stash recover [DIR] [--dry-run] [--routes=publish|drop] [--repair-audio] [--include-recent] "
    + "[--recent-window SECONDS] [--no-wait] [--json]"

  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(
      words, flags: ["dry-run", "repair-audio", "include-recent", "json", "no-wait"],
      options: ["routes", "recent-window"])
    guard arguments.positionals.count <= 1 else {
      throw UsageError(message: "give at most one folder: \(usage)")
    }
    let folder = arguments.positionals.first ?? "."
    let publishRoutes: Bool
    switch arguments.options["routes"] ?? "publish" {
    case "publish": publishRoutes = true
    case "drop": publishRoutes = false
    case let other: throw UsageError(message: "--routes takes publish or drop, not '\(other)'")
    }
    var options = SweepOptions(now: Double(time(nil)))
    if let window = arguments.options["recent-window"] {
      guard let seconds = Double(window), seconds >= 0, seconds.isFinite else {
        throw UsageError(message: "--recent-window takes a number of seconds, not '\(window)'")
      }
      options.recentWindow = seconds
    }
    options.includeRecent = arguments.flags.contains("include-recent")
    options.repairAudio = arguments.flags.contains("repair-audio")
    let dryRun = arguments.flags.contains("dry-run")

    let fileSystem = SystemFileSystem()
    do {
      guard try fileSystem.status(folder)?.kind == .directory else {
        standardError("stash recover: \(PathText.escaped(folder)): not a folder")
        return 2
      }
    } catch {
      standardError("stash recover: \(error)")
      return 2
    }
    let sweeper = Sweeper(
      fileSystem: fileSystem, assembler: FormatAssembler(), audioRepairer: MP4AudioRepairer())
    let report: SweepReport
    do {
      report = try sweeper.run(
        folder, options: options, dryRun: dryRun, routeConsent: { publishRoutes },
        wait: !arguments.flags.contains("no-wait"),
        onWait: {
          standardError(
            "stash recover: another stash process is writing in \(PathText.escaped(folder)); waiting for it")
        })
    } catch {
      standardError("stash recover: \(error)")
      return 2
    }
    if arguments.flags.contains("json") {
      print(report.json.serialized(pretty: true))
    } else {
      print(text(of: report), terminator: "")
    }
    return report.exitCode
  }

  /// The report for a person: one block per capture, one line per event.
  static func text(of report: SweepReport) -> String {
    var out = report.dryRun ? "Dry run: nothing is written or removed. The plan:\n" : ""
    for name in report.temporariesRemoved {
      out +=
        "\(report.dryRun ? "would remove" : "removed") the leftover temporary file \(PathText.escaped(name))\n"
    }
    if report.captures.isEmpty && report.temporariesRemoved.isEmpty {
      out += "Nothing to recover in \(PathText.escaped(report.folder)).\n"
    }
    for capture in report.captures {
      out += (capture.base.isEmpty ? "(folder)" : PathText.escaped(capture.base)) + "\n"
      for event in capture.events {
        let verb = report.dryRun ? "would be \(event.action.rawValue)" : event.action.rawValue
        let names = event.names.map { PathText.escaped($0) }.joined(separator: ", ")
        out += "  \(event.needsPerson ? "!" : " ") \(verb): \(names)\n      \(event.detail)\n"
      }
    }
    if report.needsPerson {
      out += "\nLines marked ! need a person: see what each says.\n"
    }
    return out
  }
}
