import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// The `stash` command line: dispatches to one subcommand and exits with its code.
enum StashCLI {
  /// Every subcommand: its name, a one-line summary for `--help`, and how it runs.
  /// Each returns the process exit code: 0 clean, 1 findings, 2 usage or I/O errors.
  static let commands: [(name: String, summary: String, run: @Sendable ([String]) throws -> Int32)] = [
    ("ls", "list the memos in a folder, newest first", ListCommand.run),
    ("inspect", "parse one .m4a, .vtt, .gpx or title file into JSON", InspectCommand.run),
    ("recover", "assemble what killed recordings left in a memo folder", RecoverCommand.run),
  ]

  static func printUsage() {
    print("usage: stash COMMAND [ARGS...]\n\ncommands:")
    for command in commands {
      let pad = String(repeating: " ", count: max(1, 10 - command.name.count))
      print("  " + command.name + pad + command.summary)
    }
    print("\nstash --version prints the version.")
  }

  static func main(_ words: [String]) -> Int32 {
    guard let first = words.first else {
      printUsage()
      return 2
    }
    switch first {
    case "--help", "-h", "help":
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
      do {
        return try command.run(Array(words.dropFirst()))
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
  var line = text
  if !line.hasSuffix("\n") { line += "\n" }
  var bytes = Array(line.utf8)
  var done = 0
  while done < bytes.count {
    let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + done, $0.count - done) }
    if n < 0 && errno == EINTR { continue }
    if n <= 0 { break }
    done += n
  }
}

exit(StashCLI.main(Array(CommandLine.arguments.dropFirst())))
