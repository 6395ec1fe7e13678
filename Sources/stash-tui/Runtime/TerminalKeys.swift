import CNcursesw
import StashBrowser

/// Turns curses key codes and characters into `Key`s.
enum TerminalKeys {
  /// A curses function-key code (`KEY_UP` and so on) as a key.
  static func functionKey(_ code: Int32) -> Key? {
    switch code {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_PPAGE: return .pageUp
    case KEY_NPAGE: return .pageDown
    case KEY_HOME: return .home
    case KEY_END: return .end
    case KEY_BACKSPACE: return .backspace
    case KEY_DC: return .delete
    case KEY_ENTER: return .enter
    case KEY_BTAB: return .backTab
    case KEY_F0 + 1...KEY_F0 + 12: return .function(Int(code - KEY_F0))
    default: return nil
    }
  }

  /// A character read by `get_wch` as a key: controls become named keys or Ctrl chords.
  static func character(_ value: UInt32) -> Key? {
    switch value {
    case 13, 10: return .enter
    case 9: return .tab
    case 27: return .escape
    case 8, 127: return .backspace
    case 1...26: return .ctrl(Character(Unicode.Scalar(value + 96)!))
    case 0, 28...31: return nil
    default:
      guard let scalar = Unicode.Scalar(value) else { return nil }
      return .char(Character(scalar))
    }
  }
}
