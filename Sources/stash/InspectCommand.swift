import StashFormat

/// `stash inspect FILE [--json]`: one file parsed into a documented JSON, chosen by its suffix
/// (`--json` and `--format json` are accepted, as everywhere; JSON is the only output).
enum InspectCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "inspect")
    _ = try arguments.format(among: ["json"])
    guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
      throw UsageError(message: "give one file: stash inspect FILE --json")
    }
    // A title is only ever `<base>_title.txt`: any other .txt is not a Stash file.
    if path.lowercased().hasSuffix(".txt") && !path.hasSuffix(MemoFileKind.title.suffix) {
      standardError(
        "stash inspect: \(PathText.escaped(path)): a text file is inspected only as a title, named <base>_title.txt"
      )
      return 2
    }
    let json: JSONValue
    do {
      json = try Inspection.json(forFileAt: path)
    } catch {
      standardError("stash inspect: \(error)")
      return 2
    }
    print(json.serialized(pretty: true))
    return 0
  }
}
