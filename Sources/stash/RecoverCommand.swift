import StashFormat
import StashRecover

#if canImport(Glibc)
  import Glibc
#endif

/// `stash recover [DIR] [--dry-run] [--routes=publish|drop] [--repair-audio] [--accept-loss] [--include-recent]
/// [--recent-window SECONDS] [--no-wait] [--json|--format json]`: finishes what killed recordings left in a memo
/// folder. Exit 0 when nothing needs a person, 1 when something does, 2 on usage or I/O errors.
enum RecoverCommand {
  static let usage =
    "stash recover [DIR] [--dry-run] [--routes=publish|drop] [--repair-audio] [--accept-loss] [--include-recent] "
    + "[--recent-window SECONDS] [--no-wait] [--json]"

  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "recover")
    guard arguments.positionals.count <= 1 else {
      throw UsageError(message: "give at most one folder: \(usage)")
    }
    let json = try arguments.format(among: ["text", "json"]) == "json"
    let given = arguments.positionals.first ?? "."
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
    options.acceptLoss = arguments.flags.contains("accept-loss")
    let dryRun = arguments.flags.contains("dry-run")

    let fileSystem = SystemFileSystem()
    // The folder named here is followed if it is a link (as `stash ls` follows it); nothing inside
    // it ever is. Everything below works on the resolved folder.
    let folder: String
    do {
      folder = try MemoFolderPath.resolve(given)
    } catch {
      let reason = String(cString: strerror(error.number))
      standardError("stash recover: \(PathText.escaped(given)): not a folder (\(reason))")
      return 2
    }
    do {
      guard try fileSystem.status(folder)?.kind == .directory else {
        standardError("stash recover: \(PathText.escaped(given)): not a folder")
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
            "stash recover: another stash process is writing in \(PathText.escaped(given)); waiting for it")
        })
    } catch {
      standardError("stash recover: \(error)")
      return 2
    }
    if json {
      print(report.json.serialized(pretty: true))
    } else {
      print(report.textLines.joined(separator: "\n"))
    }
    return report.exitCode
  }
}
