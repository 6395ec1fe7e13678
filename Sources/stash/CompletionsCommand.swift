/// `stash completions bash|zsh|fish`: a completion script made from the command table.
enum CompletionsCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "completions")
    guard arguments.positionals.count == 1,
      let script = CommandCatalogue.completions(arguments.positionals[0])
    else { throw UsageError(message: "give a shell: stash completions bash|zsh|fish") }
    print(script, terminator: "")
    return 0
  }
}
