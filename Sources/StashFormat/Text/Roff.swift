/// Text made safe for roff (`man 7 groff`): the one escaper of `stash`'s and `stash-tui`'s man
/// pages.
package enum Roff {
  /// `text` as roff prints it: a backslash as `\e`, a hyphen as `\-` (the minus sign an option
  /// needs, so that it can be copied), a leading `.` or `'` (a control line) behind `\&`. With
  /// `namingGlyphs`, a character outside ASCII as groff names it (arrows by name, so that an ASCII
  /// terminal shows `->`; any other as `\[uXXXX]`); without, it stays as it is (UTF-8).
  package static func escaped(_ text: String, namingGlyphs: Bool = false) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\e"
      case "-": out += "\\-"
      case _ where scalar.isASCII || !namingGlyphs: out.unicodeScalars.append(scalar)
      case "↑": out += "\\(ua"
      case "↓": out += "\\(da"
      case "←": out += "\\(<-"
      case "→": out += "\\(->"
      default:
        out += "\\[u" + Text.zeroPadded(String(scalar.value, radix: 16, uppercase: true), width: 4) + "]"
      }
    }
    if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
    return out
  }
}
