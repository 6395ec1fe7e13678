import StashBrowser

/// The `--render-once WxH --keys SCRIPT DIR` test hook: runs the real update step and view on a
/// key script, with the folder read and written for real and a virtual-clock player, and prints
/// the final screen as plain text (no curses). Golden screens come from here.
enum RenderOnce {
  /// Runs `script` on a `width` x `height` screen; returns the screen, with a style map under it
  /// when `styles` is set (one letter per cell, see `Style.code`). The folder is read in full
  /// before the first key; with `firstScreen`, the screen the browser draws first is printed: the
  /// list from the folder's names alone, before any memo is read or other file counted (the
  /// interactive browser starts reading behind it, `EffectRunner.holdsBackground`).
  static func run(
    width: Int, height: Int, script: [KeyScript.Step], folder: String, library: MemoLibrary,
    editor: MemoEditor, styles: Bool, firstScreen: Bool = false
  ) -> String {
    let player = VirtualPlayer()
    let runner = EffectRunner(
      library: library, editor: editor, player: player,
      selections: SelectionStore.fromEnvironment(memoFolder: folder))
    runner.readsListingAtOnce = !firstScreen
    runner.holdsBackground = firstScreen
    var model = BrowserModel(
      folderPath: folder, width: width, height: height, home: Environment.value("HOME"),
      importSource: editor.importSource, clipFolder: editor.clipFolder,
      suggestedClipFolder: editor.suggestedClipFolder)
    runner.drive(&model, [.list])
    for step in firstScreen ? [] : script {
      if model.finished { break }
      switch step {
      case .event(let event):
        runner.drive(&model, model.update(event))
      case .wait(let seconds):
        // In steps no longer than a frame of the real loop is apart under load, so what is heard
        // counts as heard (a longer step reads as a seek).
        var left = seconds
        while left > 0 && !model.finished {
          let step = min(left, 0.5)
          player.advance(step)
          left -= step
          runner.drive(&model, model.update(.player(player.snapshot())))
        }
      case .folderChanged:
        runner.drive(&model, [.list])
      }
    }
    runner.rememberSelection(model.selectedBase)
    if let warning = runner.selectionWarning { LaunchOptions.write(2, "stash-tui: \(warning)\n") }
    let grid = BrowserView.render(model)
    var out = grid.plainText
    if styles {
      out += "--- styles\n"
      for y in 0..<grid.height {
        var line = ""
        for x in 0..<grid.width { line.append(grid[x, y].style.code) }
        out += line + "\n"
      }
    }
    return out
  }
}

extension Style {
  /// A letter per style for the style map of a golden screen.
  var code: Character {
    switch self {
    case .normal: "."
    case .heading: "H"
    case .dim: "d"
    case .selected: "S"
    case .spoken: "p"
    case .spokenWord: "W"
    case .unconfirmed: "u"
    case .warning: "w"
    case .error: "e"
    case .scrubberDone: "b"
    case .bar: "="
    case .match: "m"
    case .bookmark: "k"
    }
  }
}
