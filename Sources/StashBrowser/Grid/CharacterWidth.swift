import CWcwidth

/// The number of terminal cells a grapheme takes, as the terminal and curses count them.
///
/// Uses the C library's `wcwidth`, which is what ncurses and most terminals consult, so the grid
/// and the screen agree; a handful of cases `wcwidth` cannot see (emoji presentation selectors,
/// flags) are decided here.
package enum CharacterWidth {
  /// Cells taken by `character`: 0, 1 or 2. Control characters count as 1 because the grid
  /// replaces them with a visible placeholder.
  package static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if first.value < 0x80 { return 1 }
    // An emoji presentation selector turns a narrow symbol into a wide emoji.
    if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    // Two regional indicators make one flag, drawn two cells wide.
    if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }
    let w = Int(stash_wcwidth(first.value))
    if w >= 0 { return min(w, 2) }
    return fallback(first.value)
  }

  /// Cells taken by `text`.
  package static func of(_ text: String) -> Int {
    var total = 0
    for c in text { total += of(c) }
    return total
  }

  /// Widths for when the locale is not UTF-8 and `wcwidth` knows nothing: the East Asian wide
  /// blocks and the emoji planes are 2, the rest 1.
  private static func fallback(_ v: UInt32) -> Int {
    switch v {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }
}
