import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// The `stash` command line: dispatches to one subcommand and exits with its code.
enum StashCLI {
  /// Every subcommand: its name, a one-line summary, and how it runs. Only the name and the run
  /// are read: `--help`, the manual and the completions take their text from CommandCatalogue.
  /// Each returns the process exit code: 0 clean, 1 findings, 2 usage or I/O errors.
  static let commands: [(name: String, summary: String, run: @Sendable ([String]) throws -> Int32)] = [
    ("ls", "list the memos in a folder, newest first", ListCommand.run),
    ("inspect", "parse one .m4a, .vtt, .gpx or title file into JSON", InspectCommand.run),
    ("recover", "assemble what killed recordings left in a memo folder", RecoverCommand.run),
    ("import", "bring whole memos into a memo folder, verified, nothing overwritten", ImportCommand.run),
    ("show", "one memo's facts and its transcript as timed text", ShowCommand.run),
    ("export", "the transcript as txt, md, srt or json; the route as GeoJSON", ExportCommand.run),
    ("lint", "check memo folders with stable codes, for people and CI", LintCommand.run),
    ("completions", "print a shell completion script (bash, zsh, fish)", CompletionsCommand.run),
    ("help", "show the help of stash or of one command", HelpCommand.run),
  ]

  static func printUsage() {
    print(CommandCatalogue.overview(), terminator: "")
  }

  static func main(_ words: [String]) -> Int32 {
    guard let first = words.first else {
      printUsage()
      return 2
    }
    switch first {
    case "--help", "-h":
      printUsage()
      return 0
    case "--version":
      print("stash \(StashFormat.version)")
      return 0
    default:
      guard let command = commands.first(where: { $0.name == first }) else {
        standardError("stash: unknown command '\(first)'. Run 'stash --help' for the list.")
        return 2
      }
      let rest = Array(words.dropFirst())
      // `stash COMMAND --help` for every command, from the one table (CommandCatalogue).
      if rest.contains(where: { $0 == "--help" || $0 == "-h" }), !rest.contains("--"),
        let help = CommandCatalogue.help(for: first)
      {
        print(help, terminator: "")
        return 0
      }
      do {
        return try command.run(rest)
      } catch let error as UsageError {
        standardError("stash \(first): \(error.message)")
        return 2
      } catch {
        standardError("stash \(first): \(error)")
        return 2
      }
    }
  }
}

/// Writes a line to standard error (`write(2)` on descriptor 2).
func standardError(_ text: String) {
  standardErrorRaw(text.hasSuffix("\n") ? text : text + "\n")
}

exit(StashCLI.main(Array(CommandLine.arguments.dropFirst())))
