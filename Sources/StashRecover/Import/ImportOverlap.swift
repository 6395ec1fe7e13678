import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// Whether an import's target and its sources overlap: the same folder, a target inside a source,
/// or a source inside the target. An import reads its sources while it writes its target, and
/// `--move` and `--watch` act on what they read; with one folder inside the other, the import
/// would read what it writes (the target, listed from the source, or `--watch` woken by its own
/// copies) or write where it reads. It refuses instead, before anything is made.
public enum ImportOverlap {
  /// Why `target` cannot take memos from `sources`, in plain words with both folders, or nil.
  /// Paths are compared resolved (`realpath(3)`; a target not made yet by its nearest existing
  /// folder), so a link or `..` hides nothing.
  public static func reason(sources: [String], target: String) -> String? {
    let into = resolved(target)
    for source in sources {
      let from = resolved(source)
      let (s, t) = (PathText.escaped(source), PathText.escaped(target))
      if from == into { return "\(s) is both a source and the target" }
      if contains(from, into) {
        return
          "the target \(t) is inside the source \(s): an import does not write into a folder it reads; give a target outside every source"
      }
      if contains(into, from) {
        return
          "the source \(s) is inside the target \(t): an import does not read from inside the folder it writes; move the source out of the target, or give another target"
      }
    }
    return nil
  }

  /// Whether `inner` is a folder below `outer` (both resolved, absolute).
  static func contains(_ outer: String, _ inner: String) -> Bool {
    outer == "/" ? inner != "/" : inner.hasPrefix(outer + "/")
  }

  /// `path` resolved; when it does not exist, its nearest existing folder resolved, with the rest
  /// of the path after it as given.
  static func resolved(_ path: String) -> String {
    if let real = realpath(path, nil) {
      defer { free(real) }
      return String(cString: real)
    }
    var trimmed = path
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return resolved(".") + "/" + trimmed }
    let parent = slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    let name = String(trimmed[trimmed.index(after: slash)...])
    let above = resolved(parent)
    return (above == "/" ? "" : above) + "/" + name
  }
}
