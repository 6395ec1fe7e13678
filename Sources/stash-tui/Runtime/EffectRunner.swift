import Dispatch
import StashBrowser
import Synchronization

/// Performs effects against the folder, the editor and the player, and turns what happened into
/// events for the update step. The slow ones (a transcript search, the recovery sweep) run on a
/// worker queue and post their events to the inbox, so keys are answered meanwhile; without an
/// inbox (the render-once hook) they run inline.
final class EffectRunner {
  let library: MemoLibrary
  let editor: MemoEditor
  let player: PlayerControl
  /// Where background work reports; nil runs it inline.
  let inbox: EventInbox?
  /// Lengths from the last reading, for the player (it may not know a length the index lacks).
  private var durations: [String: Double] = [:]
  private let search = TranscriptSearch()
  /// The newest search asked for: an older one still running sees it and stops.
  private let latestSearch = LatestGeneration()
  /// One queue, so a search and a sweep never read and write the folder at once.
  private let worker = DispatchQueue(label: "stash-tui.worker")

  /// A runner over the three, reporting background work to `inbox`.
  init(library: MemoLibrary, editor: MemoEditor, player: PlayerControl, inbox: EventInbox? = nil) {
    self.library = library
    self.editor = editor
    self.player = player
    self.inbox = inbox
  }

  /// Performs `effect`; returns the events it produced at once (a quit produces none; background
  /// work posts its own later).
  func perform(_ effect: BrowserEffect) -> [BrowserEvent] {
    switch effect {
    case .list:
      let (rows, error) = library.list()
      durations = [:]
      for row in rows { if let d = row.durationSeconds { durations[row.base] = d } }
      return [.listed(rows, error: error)]
    case .loadDetail(let base):
      return [.detailLoaded(base: base, library.detail(of: base))]
    case .searchTranscripts(let query, let generation):
      return searchTranscripts(query, generation: generation)
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
      return background { .recovered($0.recover()) }
    case .planRecovery:
      return background { .planned(.recover, $0.planRecovery()) }
    case .planImport:
      return background { .planned(.importMemos, $0.planImport()) }
    case .importMemos:
      return background { .imported($0.importMemos()) }
    case .quit:
      return []
    }
  }

  /// Runs `work` on the editor on the worker queue, posting its event; inline without an inbox.
  private func background(_ work: @escaping @Sendable (MemoEditor) -> BrowserEvent) -> [BrowserEvent] {
    guard let inbox else { return [work(editor)] }
    // The editor's sweep and import use only its folder paths; nothing else touches them meanwhile.
    let editor = UncheckedBox(editor)
    worker.async { inbox.post(work(editor.value)) }
    return []
  }

  /// Starts (or, without an inbox, runs) the search of `generation`, superseding any older one.
  private func searchTranscripts(_ query: String, generation: Int) -> [BrowserEvent] {
    latestSearch.value.store(generation, ordering: .relaxed)
    let files = library.transcripts()
    guard let inbox else {
      let bases = search.search(query, in: files, progress: { _, _ in true }) ?? []
      return [.transcriptMatches(query: query, generation: generation, bases: bases)]
    }
    guard !query.isEmpty else { return [] }
    let search = self.search
    let latest = latestSearch
    worker.async {
      // Superseded while waiting in the queue: nothing to do.
      guard latest.value.load(ordering: .relaxed) == generation else { return }
      let bases = search.search(query, in: files) { done, total in
        guard latest.value.load(ordering: .relaxed) == generation else { return false }
        inbox.post(.searchProgress(generation: generation, done: done, total: total))
        return true
      }
      if let bases { inbox.post(.transcriptMatches(query: query, generation: generation, bases: bases)) }
    }
    return []
  }

  /// Before leaving: stops a running search and waits for a running sweep, so the process never
  /// ends in the middle of the sweep's writes.
  func finish() {
    latestSearch.value.store(-1, ordering: .relaxed)
    worker.sync {}
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

/// Carries a value the compiler cannot prove safe across threads where the code's structure makes
/// it safe (said at each use).
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// The newest search generation, shared with the worker.
final class LatestGeneration: Sendable {
  let value = Atomic<Int>(0)
}
