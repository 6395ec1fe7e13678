/// A key the browser understands, decoded from the terminal (or from a test's key script).
package enum Key: Hashable, Sendable {
  /// A printable character.
  case char(Character)
  /// A control chord, by its letter (`ctrl("l")` is Ctrl-L).
  case ctrl(Character)
  case enter, escape, tab, backTab, backspace, delete
  case up, down, left, right, ctrlLeft, ctrlRight
  case pageUp, pageDown, home, end
  case function(Int)

  /// How the help screen and the docs name the key.
  package var label: String {
    switch self {
    case .char(" "): return "space"
    case .char(let c): return String(c)
    case .ctrl(let c): return "Ctrl-" + String(c).uppercased()
    case .enter: return "Enter"
    case .escape: return "Esc"
    case .tab: return "Tab"
    case .backTab: return "Shift-Tab"
    case .backspace: return "Backspace"
    case .delete: return "Delete"
    case .up: return "↑"
    case .down: return "↓"
    case .left: return "←"
    case .right: return "→"
    case .ctrlLeft: return "Ctrl-←"
    case .ctrlRight: return "Ctrl-→"
    case .pageUp: return "PgUp"
    case .pageDown: return "PgDn"
    case .home: return "Home"
    case .end: return "End"
    case .function(let n): return "F\(n)"
    }
  }
}

/// A mouse event at a cell.
package struct MouseEvent: Equatable, Sendable {
  /// What happened.
  package enum Kind: Equatable, Sendable { case click, wheelUp, wheelDown }
  package var kind: Kind
  package var x: Int
  package var y: Int

  /// A value with every field given.
  package init(kind: Kind, x: Int, y: Int) {
    self.kind = kind
    self.x = x
    self.y = y
  }
}
