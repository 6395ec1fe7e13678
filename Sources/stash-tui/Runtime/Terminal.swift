import CNcursesw
import StashBrowser

#if canImport(Glibc)
  import Glibc
#endif

/// The curses screen: starts and ends it, reads keys and mouse events, and copies a grid to it.
/// Every curses call in the browser goes through here.
final class Terminal {
  /// Whether colours are used (the terminal has them and NO_COLOR is not set).
  private(set) var colours = false
  /// The grid last copied, to write only what changed.
  private var shown: CellGrid?
  /// Key codes of Ctrl-← and Ctrl-→ in this terminal's terminfo (`kLFT5`, `kRIT5`), 0 when absent.
  private var ctrlLeftCode: Int32 = 0
  private var ctrlRightCode: Int32 = 0
  /// Key codes given to the terminal's marks around pasted text (bracketed paste).
  private let pasteStartCode = Int32(KEY_MAX) - 3
  private let pasteEndCode = Int32(KEY_MAX) - 4
  /// The text of a paste under way (between its marks), nil when none is.
  private var pasted: String?
  /// The most of a paste kept: a prompt takes a line, not a document.
  private static let pasteLimit = 4_096

  /// Starts curses (`initscr`): raw keys, no echo, keypad, mouse unless disabled.
  init(mouse: Bool) {
    _ = initscr()
    StandardErrorHold.start()
    _ = cbreak()
    _ = noecho()
    _ = nonl()
    _ = keypad(stash_stdscr(), true)
    _ = nodelay(stash_stdscr(), true)
    set_escdelay(25)
    _ = curs_set(0)
    let noColour = Environment.value("NO_COLOR").map { !$0.isEmpty } ?? false
    if has_colors() && !noColour {
      _ = start_color()
      _ = use_default_colors()
      colours = true
      TerminalPalette.install()
    }
    if mouse {
      var old: mmask_t = 0
      _ = mousemask(stash_mouse_mask(), &old)
      _ = mouseinterval(0)
    }
    // Home and End as tmux and screen send them, whatever TERM says.
    for (sequence, code) in [
      ("\u{1B}[1~", KEY_HOME), ("\u{1B}[4~", KEY_END), ("\u{1B}[H", KEY_HOME),
      ("\u{1B}[F", KEY_END), ("\u{1B}OH", KEY_HOME), ("\u{1B}OF", KEY_END),
    ]
    where key_defined(sequence) <= 0 {
      _ = define_key(sequence, code)
    }
    ctrlLeftCode = Int32(stash_key_for_capability("kLFT5"))
    ctrlRightCode = Int32(stash_key_for_capability("kRIT5"))
    // Ctrl-arrows as xterm sends them, for terminfo entries that do not list them.
    if ctrlLeftCode == 0 {
      ctrlLeftCode = Int32(KEY_MAX) - 2
      _ = define_key("\u{1B}[1;5D", ctrlLeftCode)
    }
    if ctrlRightCode == 0 {
      ctrlRightCode = Int32(KEY_MAX) - 1
      _ = define_key("\u{1B}[1;5C", ctrlRightCode)
    }
    // Bracketed paste: the terminal marks pasted text, so a line break in it is not Enter and
    // what follows it is not taken for keys (a paste into the rename prompt once went on to `d`
    // and `y`). A terminal that does not know the mode ignores the request.
    _ = define_key("\u{1B}[200~", pasteStartCode)
    _ = define_key("\u{1B}[201~", pasteEndCode)
    Self.send("\u{1B}[?2004h")
  }

  /// Writes `sequence` to the terminal at once, outside curses' drawing (which has flushed
  /// whatever it drew: a refresh writes everything it has).
  private static func send(_ sequence: String) {
    let bytes = Array(sequence.utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
  }

  /// The terminal's size now.
  var size: (width: Int, height: Int) { (Int(stash_cols()), Int(stash_lines())) }

  /// Ends curses (`endwin`), giving the terminal back as it was, then standard error with what
  /// was written to it meanwhile (`StandardErrorHold`).
  func close() {
    Self.send("\u{1B}[?2004l")
    _ = endwin()
    StandardErrorHold.giveBack()
  }

  /// Copies `grid` to the screen, writing only cells that changed, then refreshes.
  func draw(_ grid: CellGrid) {
    if let shown, shown.width != grid.width || shown.height != grid.height {
      self.shown = nil
      _ = clearok(stash_stdscr(), true)
    }
    for y in 0..<grid.height {
      // Every cell is written, the bottom-right one too: curses places it without scrolling
      // (scrollok is off; the call reports ERR only because the cursor cannot move on), and a
      // cell left unwritten keeps whatever an earlier, larger screen had there.
      for x in 0..<grid.width {
        let cell = grid[x, y]
        if cell.isContinuation { continue }
        if let shown, shown[x, y] == cell, cell.width == 1 || shown[x + 1, y] == grid[x + 1, y] {
          continue
        }
        let (attrs, pair) = TerminalPalette.attributes(cell.style, colours: colours)
        var wide = Array(cell.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) })
        wide.append(0)
        _ = stash_put_cell(Int32(y), Int32(x), wide, attrs, pair)
      }
    }
    shown = grid
    _ = refresh()
  }

  /// Forgets what is on screen so the next draw writes everything (after a resize or Ctrl-L).
  func invalidate() {
    shown = nil
    _ = clearok(stash_stdscr(), true)
  }

  /// The next input, or nil when none is waiting.
  func read() -> TerminalInput? {
    var ch: wint_t = 0
    let r = get_wch(&ch)
    if r == ERR { return nil }
    if r == KEY_CODE_YES && Int32(ch) == pasteStartCode {
      pasted = ""
      return .ignored
    }
    if r == KEY_CODE_YES && Int32(ch) == pasteEndCode {
      defer { pasted = nil }
      return pasted.map { .paste($0) } ?? .ignored
    }
    if pasted != nil {
      // Inside a paste every character is text (a function key there is dropped).
      if r != KEY_CODE_YES, let scalar = Unicode.Scalar(UInt32(ch)),
        pasted!.unicodeScalars.count < Self.pasteLimit
      {
        pasted!.unicodeScalars.append(scalar)
      }
      return .ignored
    }
    if r == KEY_CODE_YES {
      let code = Int32(ch)
      if code == KEY_RESIZE { return .resize }
      if code == KEY_MOUSE {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return .ignored }
        let kind: MouseEvent.Kind
        if stash_mouse_is_wheel_up(event.bstate) != 0 {
          kind = .wheelUp
        } else if stash_mouse_is_wheel_down(event.bstate) != 0 {
          kind = .wheelDown
        } else if stash_mouse_is_click(event.bstate) != 0 {
          kind = .click
        } else {
          return .ignored
        }
        return .mouse(MouseEvent(kind: kind, x: Int(event.x), y: Int(event.y)))
      }
      if code != 0 && code == ctrlLeftCode { return .key(.ctrlLeft) }
      if code != 0 && code == ctrlRightCode { return .key(.ctrlRight) }
      return TerminalKeys.functionKey(code).map { .key($0) } ?? .ignored
    }
    return TerminalKeys.character(UInt32(ch)).map { .key($0) } ?? .ignored
  }
}

/// What the terminal delivered.
enum TerminalInput {
  case key(Key)
  case mouse(MouseEvent)
  /// Text the terminal marked as pasted.
  case paste(String)
  case resize
  case ignored
}
