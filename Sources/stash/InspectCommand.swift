import StashFormat

/// `stash inspect FILE [--json]`: one file parsed into a documented JSON, chosen by its suffix.
enum InspectCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, flags: ["json"], options: [])
    guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
      throw UsageError(message: "give one file: stash inspect FILE --json")
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
