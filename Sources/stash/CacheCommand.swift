import StashFormat
import StashLint

/// `stash cache [--clear]`: where the findings cache is and how big, or emptied; and the one way
/// the commands that take `--no-cache` open it.
enum CacheCommand {
  static func run(_ words: [String]) throws -> Int32 {
    let arguments = try Arguments(words, for: "cache")
    guard arguments.positionals.isEmpty else { throw UsageError(message: "stash cache takes no folder") }
    guard let directory = FindingsCache.directory() else {
      standardError("stash cache: neither XDG_CACHE_HOME nor HOME says where the cache is; there is none")
      return 2
    }
    do {
      if arguments.flags.contains("clear") {
        let removed = try FindingsCache.clear(directory)
        print("\(PathText.escaped(directory)): emptied (\(Text.count(removed, "file")) removed)")
        return 0
      }
      let (files, bytes) = try FindingsCache.size(of: directory)
      print(
        "\(PathText.escaped(directory)): \(Text.count(files, "folder")) cached, \(bytes) bytes "
          + "(at most \(FindingsCache.bound) kept; `stash cache --clear` empties it)")
      return 0
    } catch {
      standardError("stash cache: \(error)")
      return 2
    }
  }

  /// The findings cache of `folder` for this build of stash, or nil when it cannot be used (said
  /// once to `warn`).
  static func open(folder: String, warn: (String) -> Void) -> FindingsCache? {
    FindingsCache.open(
      folder: folder, version: ToolVersion.current, directory: FindingsCache.directory(), warn: warn)
  }
}
