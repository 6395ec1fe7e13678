import StashFormat

/// A folder given to `stash lint` that is a memo's parts folder (`<base>.parts`, FORMAT.md §6.1):
/// it holds parts, not memos, so its memo's folder is linted instead, and only that memo's
/// findings are kept (its files and its parts folder).
package struct PartsFolderArgument {
  /// The folder the parts folder is in: the memo folder.
  package var memoFolder: String
  /// The memo's base.
  package var base: String

  /// Nil unless the path's last name is `<base>.parts` with a base that is not empty or hidden.
  package init?(_ path: String) {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
    let name = trimmed.split(separator: "/", omittingEmptySubsequences: false).last ?? trimmed
    let suffix = MemoFileKind.parts.suffix
    guard name.hasSuffix(suffix), name.count > suffix.count, !name.hasPrefix(".") else { return nil }
    base = String(name.dropLast(suffix.count))
    var parent = trimmed.dropLast(name.count)
    if parent.count > 1 && parent.hasSuffix("/") { parent.removeLast() }
    memoFolder = parent.isEmpty ? "." : String(parent)
  }

  /// Whether the finding's name (relative to the memo folder, escaped) is one of `base`'s.
  package static func belongs(_ name: String, to base: String) -> Bool {
    let escaped = PathText.escaped(base)
    let parts = escaped + MemoFileKind.parts.suffix
    return name == parts || name.hasPrefix(parts + "/")
      || MemoFileKind.allCases.contains { name == escaped + $0.suffix }
  }
}
