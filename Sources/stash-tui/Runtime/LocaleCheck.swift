#if canImport(Glibc)
  import Glibc
#endif

/// Makes sure the browser runs in a UTF-8 locale: under `LANG=C` curses drops accents, blanks
/// right-to-left titles and garbles the header's `·` and `…`. Called once after `setlocale(LC_ALL,
/// "")`, before curses starts.
enum LocaleCheck {
  /// The UTF-8 locale tried when the user's is not.
  static let fallback = "C.UTF-8"

  /// When the locale's codeset (`nl_langinfo(3)`, `CODESET`) is not UTF-8, switches the character
  /// category (`LC_CTYPE`, by which curses reads characters) to `C.UTF-8` with `setlocale(3)`,
  /// leaving the others as the user set them; returns the one warning to print on stderr, or nil
  /// when the locale was UTF-8 already.
  static func ensureUTF8() -> String? {
    let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
    guard !isUTF8(codeset) else { return nil }
    let name = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
    if setlocale(LC_CTYPE, fallback) != nil {
      return "stash-tui: the locale \(name) (\(codeset)) is not UTF-8; using \(fallback)"
    }
    return "stash-tui: the locale \(name) (\(codeset)) is not UTF-8 and \(fallback) is not installed; "
      + "accented and right-to-left titles may not show"
  }

  /// Whether a codeset name is UTF-8 (`UTF-8`, `utf8`).
  static func isUTF8(_ codeset: String) -> Bool {
    let plain = codeset.lowercased().filter { $0 != "-" && $0 != "_" }
    return plain == "utf8"
  }
}
