import StashBrowser

/// The key script of the `--render-once` test hook: characters are keys; `<name>` is a named key
/// (`<enter>`, `<esc>`, `<c-left>`, `<f1>`, `<c-l>`, `<space>`, `<lt>` for `<`) or a step
/// (`<wait 2.5>` moves the virtual clock, `<resize 60x20>`, `<click X,Y>`, `<wheelup X,Y>`,
/// `<wheeldown X,Y>`, `<changed>` as if the folder watcher fired).
enum KeyScript {
  /// One step of a script.
  enum Step: Equatable {
    case event(BrowserEvent)
    case wait(Double)
    case folderChanged
  }

  /// The steps of `script`, or a message naming what could not be read.
  static func parse(_ script: String) -> Result<[Step], ScriptError> {
    var steps: [Step] = []
    var chars = Array(script)
    var i = 0
    while i < chars.count {
      let c = chars[i]
      if c != "<" {
        steps.append(.event(.key(.char(c))))
        i += 1
        continue
      }
      guard let close = chars[i...].firstIndex(of: ">") else {
        return .failure(ScriptError(message: "unclosed < at character \(i + 1)"))
      }
      let token = String(chars[(i + 1)..<close])
      guard let step = step(token) else {
        return .failure(ScriptError(message: "unknown key script token <\(token)>"))
      }
      steps.append(step)
      i = close + 1
    }
    chars.removeAll()
    return .success(steps)
  }

  /// Why a script could not be read.
  struct ScriptError: Error {
    var message: String
  }

  private static let named: [String: Key] = [
    "enter": .enter, "esc": .escape, "tab": .tab, "btab": .backTab, "bs": .backspace, "del": .delete,
    "up": .up, "down": .down, "left": .left, "right": .right, "c-left": .ctrlLeft, "c-right": .ctrlRight,
    "pgup": .pageUp, "pgdn": .pageDown, "home": .home, "end": .end, "space": .char(" "), "lt": .char("<"),
  ]

  private static func step(_ token: String) -> Step? {
    if let key = named[token] { return .event(.key(key)) }
    let words = token.split(separator: " ")
    if token.hasPrefix("c-"), token.count == 3, let c = token.last { return .event(.key(.ctrl(c))) }
    if token.hasPrefix("f"), let n = Int(token.dropFirst()), (1...12).contains(n) {
      return .event(.key(.function(n)))
    }
    if token == "changed" { return .folderChanged }
    guard words.count == 2 else { return nil }
    let argument = String(words[1])
    switch words[0] {
    case "wait":
      return Double(argument).map { .wait($0) }
    case "resize":
      let wh = argument.split(separator: "x").compactMap { Int($0) }
      return wh.count == 2 ? .event(.resize(width: wh[0], height: wh[1])) : nil
    case "click", "wheelup", "wheeldown":
      let xy = argument.split(separator: ",").compactMap { Int($0) }
      guard xy.count == 2 else { return nil }
      let kind: MouseEvent.Kind = words[0] == "click" ? .click : words[0] == "wheelup" ? .wheelUp : .wheelDown
      return .event(.mouse(MouseEvent(kind: kind, x: xy[0], y: xy[1])))
    default:
      return nil
    }
  }
}
