import CNcursesw
import StashBrowser

/// How each style looks: an attribute always, a colour pair when colours are on.
enum TerminalPalette {
  /// Defines the colour pairs (`init_pair`); -1 is the terminal's default colour.
  static func install() {
    for style in Style.allCases {
      let (fg, bg) = colours(style)
      _ = init_pair(Int16(style.rawValue) + 1, fg, bg)
    }
  }

  /// The attributes and colour pair for `style`.
  static func attributes(_ style: Style, colours: Bool) -> (attr_t, Int16) {
    let pair: Int16 = colours ? Int16(style.rawValue) + 1 : 0
    switch style {
    case .normal: return (stash_a_normal(), pair)
    case .heading: return (stash_a_bold(), pair)
    case .dim: return (colours ? stash_a_normal() : stash_a_dim(), pair)
    case .selected: return (stash_a_reverse(), pair)
    case .spoken: return (stash_a_bold(), pair)
    case .spokenWord: return (stash_a_bold() | stash_a_underline() | stash_a_reverse(), pair)
    case .unconfirmed: return (stash_a_underline(), pair)
    case .warning: return (stash_a_bold(), pair)
    case .error: return (stash_a_bold(), pair)
    case .scrubberDone: return (stash_a_bold(), pair)
    case .bar: return (colours ? stash_a_normal() : stash_a_reverse(), pair)
    case .match: return (stash_a_reverse(), pair)
    case .bookmark: return (stash_a_bold(), pair)
    }
  }

  private static func colours(_ style: Style) -> (Int16, Int16) {
    let c = Int16(COLOR_CYAN)
    switch style {
    case .normal, .heading, .selected, .unconfirmed: return (-1, -1)
    case .dim: return (Int16(stash_colors() >= 16 ? 8 : COLOR_BLUE), -1)
    case .spoken, .spokenWord: return (c, -1)
    case .warning: return (Int16(COLOR_YELLOW), -1)
    case .error: return (Int16(COLOR_RED), -1)
    case .scrubberDone: return (c, -1)
    case .bar: return (Int16(COLOR_BLACK), Int16(COLOR_WHITE))
    case .match: return (Int16(COLOR_BLACK), Int16(COLOR_YELLOW))
    case .bookmark: return (Int16(COLOR_MAGENTA), -1)
    }
  }
}
