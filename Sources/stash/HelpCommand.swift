/// `stash help [COMMAND]` and `stash help --man` (the man page, docs/stash.1).
enum HelpCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "help")
    if arguments.flags.contains("man") {
      print(CommandCatalogue.manual(), terminator: "")
      return 0
    }
    guard let name = arguments.positionals.first else {
      print(CommandCatalogue.overview(), terminator: "")
      return 0
    }
    guard arguments.positionals.count == 1, let help = CommandCatalogue.help(for: name) else {
      throw UsageError(message: "no command '\(name)'. Run 'stash --help' for the list.")
    }
    print(help, terminator: "")
    return 0
  }
}
