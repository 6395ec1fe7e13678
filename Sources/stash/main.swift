import StashFormat
import StashLint

#if canImport(Glibc)
  import Glibc
#endif

/// The `stash` command line: dispatches to one subcommand and exits with its code.
enum StashCLI {
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
      print("stash \(ToolVersion.current)")
      return 0
    default:
      guard let command = CommandCatalogue.command(first) else {
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
      } catch let error as LintSetupError {
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
