import StashFormat

/// `stash ls [DIR] [--json]`: the memos in a folder, newest first.
enum ListCommand {
  static func run(_ words: [String]) throws -> Int32 {
    _ = try Arguments(words, flags: ["json"], options: [])
    standardError("stash ls: this build cannot list folders yet")
    return 2
  }
}
