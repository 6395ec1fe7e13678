/// Performs effects against the folder, the editor and the player, and turns what happened into
/// events for the update step.
final class EffectRunner {
  let library: MemoLibrary
  let editor: MemoEditor
  let player: PlayerControl
  /// Lengths from the last reading, for the player (it may not know a length the index lacks).
  private var durations: [String: Double] = [:]

  /// A runner over the three.
  init(library: MemoLibrary, editor: MemoEditor, player: PlayerControl) {
    self.library = library
    self.editor = editor
    self.player = player
  }

  /// Performs `effect`; returns the events it produced (a quit produces none).
  func perform(_ effect: BrowserEffect) -> [BrowserEvent] {
    switch effect {
    case .list:
      let (rows, error) = library.list()
      durations = [:]
      for row in rows { if let d = row.durationSeconds { durations[row.base] = d } }
      return [.listed(rows, error: error)]
    case .loadDetail(let base):
      return [.detailLoaded(base: base, library.detail(of: base))]
    case .searchTranscripts(let query):
      return [.transcriptMatches(query: query, bases: library.search(query))]
    case .play(let base, let from):
      player.play(path: library.audioPath(of: base), base: base, from: from, duration: durations[base])
      return [.player(player.snapshot())]
    case .togglePause:
      player.togglePause()
      return [.player(player.snapshot())]
    case .seek(let t):
      player.seek(to: t)
      return [.player(player.snapshot())]
    case .stop:
      player.stop()
      return [.player(player.snapshot())]
    case .setTitle(let base, let title):
      return [.actionFinished(editor.setTitle(base: base, title: title))]
    case .delete(let base, let permanently):
      return [.actionFinished(editor.delete(base: base, permanently: permanently))]
    case .recover:
      return [.actionFinished(editor.recover())]
    case .quit:
      return []
    }
  }

  /// Runs the model's effects and every event they lead to, until nothing is left to do.
  func drive(_ model: inout BrowserModel, _ effects: [BrowserEffect]) {
    var queue = effects
    while !queue.isEmpty {
      let effect = queue.removeFirst()
      for event in perform(effect) { queue += model.update(event) }
    }
  }
}
