/// Checks on a `<base>` given by a caller before any name is built from it.
enum MemoBase {
  /// Throws code `bad-base` unless `base` is one plain name: not empty, no `/`, no NUL, not `.`/`..`.
  static func validate(_ base: String) throws {
    guard !base.isEmpty, base != ".", base != "..", !base.utf8.contains(UInt8(ascii: "/")),
      !base.utf8.contains(0)
    else {
      throw RecoverError(code: .badBase, message: "'\(base)' is not a memo name", path: base)
    }
  }
}
