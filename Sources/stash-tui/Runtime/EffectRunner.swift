import Dispatch
import StashBrowser
import StashFormat
import StashSearch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

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
  /// Reads the listing's memos after it is shown (with an inbox); nil reads them all before the
  /// listing is answered (render-once, whose screens are those of a folder fully read).
  let fill: RowFill?
  /// Without a fill, whether a listing is answered only once every memo is read (the render-once
  /// hook's golden screens); when false, rows stay pending (the first screen of render-once).
  var readsListingAtOnce = true
  /// Whether a listing's background work (the fill, the count of the folder's other files) waits
  /// for `startBackground`: set for the first listing, so the first screen is drawn from the
  /// folder's names alone before anything else competes with it for the cores (issue 45 §3).
  var holdsBackground = false
  /// The size of the listing whose background work is held, if any.
  private var heldListing: Int?
  /// The newest search asked for: an older one still running sees it and stops.
  private let latestSearch = LatestGeneration()
  /// The newest search of what was said asked for: an older one still running sees it and stops.
  private let latestSpoken = LatestGeneration()
  /// The search of what was said, with what its last run learnt (used on the worker only).
  private let spoken = SpokenSearchWork()
  /// The newest loudness measure asked for: an older one still running sees it and stops.
  private let latestLoudness = LatestGeneration()
  /// Where the memo was last moved to (a seek): the loudness measure turns there next.
  private let loudnessCenter = SeekMark()
  /// The generation of the last loudness measure started (interface thread only).
  private var loudnessGeneration = 0
  /// The waveform strip's measure runs here, apart from the worker, so a long search never
  /// holds it up (nor it a search).
  private let loudnessQueue = DispatchQueue(label: "stash-tui.loudness", qos: .utility)
  /// One queue, so a search and a sweep never read and write the folder at once.
  private let worker = DispatchQueue(label: "stash-tui.worker")
  /// The count of the folder's other files, apart from the worker: it reads every name again (a
  /// second or more at 100,000 memos), and a search started meanwhile must not wait for it.
  private let otherFilesQueue = DispatchQueue(label: "stash-tui.other-files", qos: .utility)
  /// Told of each effect before it is performed (the MPRIS server notes the seeks).
  var observe: ((BrowserEffect) -> Void)?
  /// Where memos were left off; nil keeps no places (no home folder).
  let places: PositionStore?
  /// The memo selected last in this folder, selected again at the first listing; nil keeps none.
  let selections: SelectionStore?
  /// The places as of the last listing, to mark the rows read (`MemoRow.partlyHeard`).
  private var heard: HeardPlaces?
  /// The places are written here, in order, off the interface thread (a write waits on fsync).
  private let positionWriter = DispatchQueue(label: "stash-tui.positions")

  /// A runner over the three, reporting background work to `inbox`.
  /// `fill` reads the rows after the listing is shown; it needs `inbox`, where it reports.
  init(
    library: MemoLibrary, editor: MemoEditor, player: PlayerControl, inbox: EventInbox? = nil,
    fill: RowFill? = nil, places: PositionStore? = PositionStore.fromEnvironment(),
    selections: SelectionStore? = nil
  ) {
    self.selections = selections
    self.library = library
    self.editor = editor
    self.player = player
    self.inbox = inbox
    self.fill = inbox == nil ? nil : fill
    self.places = places
  }

  /// Performs `effect`; returns the events it produced at once (a quit produces none; background
  /// work posts its own later). `memos` is the list the model shows, where the player finds a
  /// memo's length (the index may lack it).
  func perform(_ effect: BrowserEffect, memos: MemoList) -> [BrowserEvent] {
    observe?(effect)
    switch effect {
    case .list:
      var rows: MemoList
      let listError: String?
      (rows, listError) = library.list()
      heard = HeardPlaces(places?.snapshot())
      if holdsBackground {
        heldListing = rows.count
      } else if let fill, let inbox {
        fill.start(rows.count, library: library, inbox: inbox, heard: heard)
      } else if readsListingAtOnce {
        // In batches, as the fill reads them, so the rows read are never all held twice.
        for start in stride(from: 0, to: rows.count, by: RowFill.batchSize) {
          rows.fill(read(Array(start..<min(rows.count, start + RowFill.batchSize))))
        }
      }
      let restored = selections?.restore(in: rows).map { BrowserEvent.restoreSelection(base: $0) }
      let counted = holdsBackground ? [] : countOtherFiles()
      return [.listed(rows, error: listError)] + (restored.map { [$0] } ?? []) + counted
    case .loadDetail(let base):
      return [.detailLoaded(base: base, library.detail(of: base))]
    case .searchTranscripts(let query, let generation):
      return searchTranscripts(query, generation: generation)
    case .searchSpoken(let query, let generation):
      return searchSpoken(query, generation: generation)
    case .measureLoudness(let base, let from):
      return measureLoudness(base, from: from)
    case .play(let base, let from):
      player.play(
        path: library.audioPath(of: base), base: base, from: from,
        duration: memos.row(ofBase: base)?.durationSeconds)
      return [.player(player.snapshot())]
    case .resume(let base):
      return resume(base, duration: memos.row(ofBase: base)?.durationSeconds)
    case .togglePause:
      player.togglePause()
      return [.player(player.snapshot())]
    case .setSpeed(let speed):
      let refused = player.setSpeed(speed)
      return [.player(player.snapshot())] + (refused.map { [.warning($0)] } ?? [])
    case .setVolume(let percent):
      player.setVolume(percent)
      return [.player(player.snapshot())]
    case .setMuted(let muted):
      player.setMuted(muted)
      return [.player(player.snapshot())]
    case .setVoiceBoost(let on):
      let refused = player.setVoiceBoost(on)
      return [.player(player.snapshot())] + (refused.map { [.warning($0)] } ?? [])
    case .setEnhance(let on):
      let refused = player.setEnhance(on)
      return [.player(player.snapshot())] + (refused.map { [.warning($0)] } ?? [])
    case .setSkipSilence(let level):
      player.setSkipSilence(level)
      return [.player(player.snapshot())]
    case .setLoop(let from, let to):
      player.setLoop(from: from, to: to)
      return [.player(player.snapshot())]
    case .clearLoop:
      player.clearLoop()
      return [.player(player.snapshot())]
    case .rememberPosition(let base, let at):
      return record(base, at)
    case .forgetPosition(let base):
      return record(base, nil)
    case .seek(let t):
      loudnessCenter.set(t)
      player.seek(to: t)
      return [.player(player.snapshot())]
    case .stop:
      player.stop()
      return [.player(player.snapshot())]
    case .setTitle(let base, let title):
      return [.actionFinished(editor.setTitle(base: base, title: title))]
    case .addBookmark(let base, let at):
      let length = memos.row(ofBase: base)?.durationSeconds
      return [.bookmarked(base: base, editor.addBookmark(base: base, at: at, audioLength: length))]
    case .annotateBookmark(let base, let at, let note):
      let length = memos.row(ofBase: base)?.durationSeconds
      return [
        .bookmarked(base: base, editor.annotateBookmark(base: base, at: at, note: note, audioLength: length))
      ]
    case .removeBookmark(let base, let at):
      let length = memos.row(ofBase: base)?.durationSeconds
      return [.bookmarked(base: base, editor.removeBookmark(base: base, at: at, audioLength: length))]
    case .saveClip(let base, let from, let to, let folder, let remember):
      guard let row = memos.row(ofBase: base) else { return [] }
      let (title, recordedAt) = (row.displayName, row.recordedAt)
      return background {
        .clipSaved(
          $0.saveClip(
            base: base, from: from, to: to, folder: folder, remember: remember, title: title,
            recordedAt: recordedAt))
      }
    case .delete(let base, let permanently):
      return [.actionFinished(editor.delete(base: base, permanently: permanently))]
    case .recover:
      return background { .recovered($0.recover()) }
    case .acceptLoss:
      return background { .recovered($0.acceptLoss()) }
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

  /// The library's rows at `indices`, marked when left off partway.
  private func read(_ indices: [Int]) -> [(index: Int, row: MemoRow)] {
    var read = library.read(indices)
    heard?.mark(&read, audioPath: library.audioPath)
    return read
  }

  /// Plays `base` (`duration` long, if known) from where it was left off, else from the start.
  private func resume(_ base: String, duration: Double?) -> [BrowserEvent] {
    let path = library.audioPath(of: base)
    var events: [BrowserEvent] = []
    var resumed: [BrowserEvent] = []
    var from = 0.0
    if let places, let key = PositionStore.key(audio: path) {
      let (position, warning) = places.position(of: key)
      if let warning { events.append(.warning(warning)) }
      if let position, position >= BrowserModel.rememberAfter,
        position < (duration ?? .infinity) - BrowserModel.endMargin
      {
        from = position
        resumed = [.resumed(base: base, from: position)]
      }
    }
    player.play(path: path, base: base, from: from, duration: duration)
    // The snapshot first, so the update step knows which memo the line is about.
    return events + [.player(player.snapshot())] + resumed
  }

  /// Remembers (or, with nil, forgets) where `base` was left off, on the writer queue; inline
  /// without an inbox. A warning comes back as `.warning`.
  private func record(_ base: String, _ position: Double?) -> [BrowserEvent] {
    guard let places, let key = PositionStore.key(audio: library.audioPath(of: base)) else { return [] }
    let entry = position.map { PositionBook.Entry(position: $0, updated: Int(time(nil))) }
    guard let inbox else {
      return places.record([key: entry]).map { [.warning($0)] } ?? []
    }
    let store = UnsafeTransfer(places)
    positionWriter.async {
      if let warning = store.value.record([key: entry]) { inbox.post(.warning(warning)) }
    }
    return []
  }

  /// Starts the background work held for the first screen (`holdsBackground`): the fill of the
  /// last listing and the count of the folder's other files, whose events arrive through the
  /// inbox (inline without one, returned here for the update step).
  func startBackground() -> [BrowserEvent] {
    guard holdsBackground else { return [] }
    holdsBackground = false
    guard let count = heldListing else { return [] }
    heldListing = nil
    if let fill, let inbox { fill.start(count, library: library, inbox: inbox, heard: heard) }
    return countOtherFiles()
  }

  /// Counts the folder's other files on the worker queue, posting `.otherFiles`; inline without an
  /// inbox. A folder that cannot be read says so in the listing, and is counted as none here.
  private func countOtherFiles() -> [BrowserEvent] {
    guard let inbox else { return [.otherFiles(library.otherFileCount() ?? 0)] }
    let library = UnsafeTransfer(library)
    otherFilesQueue.async { inbox.post(.otherFiles(library.value.otherFileCount() ?? 0)) }
    return []
  }

  /// Runs `work` on the editor on the worker queue, posting its event; inline without an inbox.
  private func background(_ work: @escaping @Sendable (MemoEditor) -> BrowserEvent) -> [BrowserEvent] {
    guard let inbox else { return [work(editor)] }
    // The editor's sweep and import use only its folder paths; nothing else touches them meanwhile.
    let editor = UnsafeTransfer(editor)
    worker.async { inbox.post(work(editor.value)) }
    return []
  }

  /// The rows the fill read since the last call, for the update step to put in place; nil when
  /// none were read.
  func takeFilled() -> BrowserEvent? {
    guard let fill, fill.hasRead else { return nil }
    let filled = fill.take()
    return filled.isEmpty ? nil : .rowsRead(ReadRows(filled))
  }

  /// Starts (or, without an inbox, runs) the search of `generation`, superseding any older one.
  private func searchTranscripts(_ query: String, generation: Int) -> [BrowserEvent] {
    latestSearch.value.store(generation, ordering: .relaxed)
    guard let inbox else {
      let bases = EffectRunner.transcriptBases(query, in: library) { _, _ in true } ?? []
      return [.transcriptMatches(query: query, generation: generation, bases: bases)]
    }
    guard !query.isEmpty else { return [] }
    let latest = latestSearch
    // The library's `search` may be called from any thread (MemoLibrary).
    let library = UnsafeTransfer(library)
    worker.async {
      // Superseded while waiting in the queue: nothing to do.
      guard latest.value.load(ordering: .relaxed) == generation else { return }
      let bases = EffectRunner.transcriptBases(query, in: library.value) { done, total in
        guard latest.value.load(ordering: .relaxed) == generation else { return false }
        inbox.post(.searchProgress(generation: generation, done: done, total: total))
        return true
      }
      if let bases { inbox.post(.transcriptMatches(query: query, generation: generation, bases: bases)) }
    }
    return []
  }

  /// The bases of the memos whose transcripts hold `query` (`FolderSearch.bases`), or nil when
  /// `progress` stopped the search.
  private static func transcriptBases(
    _ query: String, in library: MemoLibrary, progress: (_ done: Int, _ total: Int) -> Bool
  ) -> Set<String>? {
    guard let pattern = SearchPattern.typed(query),
      let search = library.search(pattern, scope: .transcript, wanted: .anyHit)
    else { return [] }
    return search.bases(progress: progress)
  }

  /// Starts (or, without an inbox, runs) the search of what was said of `generation`,
  /// superseding any older one; its hits are posted in batches as they are found.
  private func searchSpoken(_ query: String, generation: Int) -> [BrowserEvent] {
    latestSpoken.value.store(generation, ordering: .relaxed)
    guard !query.isEmpty else { return [] }
    guard let inbox else {
      var events: [BrowserEvent] = []
      spoken.run(query, in: library, isCurrent: { true }) {
        hits, done, total, finished, troubled in
        events.append(
          .spokenHits(
            generation: generation, hits: hits, done: done, total: total, finished: finished,
            troubled: troubled))
      }
      return events
    }
    let latest = latestSpoken
    let library = UnsafeTransfer(library)
    let spoken = self.spoken
    worker.async {
      guard latest.value.load(ordering: .relaxed) == generation else { return }
      spoken.run(
        query, in: library.value, isCurrent: { latest.value.load(ordering: .relaxed) == generation }
      ) {
        hits, done, total, finished, troubled in
        inbox.post(
          .spokenHits(
            generation: generation, hits: hits, done: done, total: total, finished: finished,
            troubled: troubled))
      }
    }
    return []
  }

  /// Starts (or, without an inbox, runs) the loudness measure of `base`, stopping the last; nil
  /// only stops it.
  private func measureLoudness(_ base: String?, from: Double) -> [BrowserEvent] {
    loudnessGeneration += 1
    let generation = loudnessGeneration
    latestLoudness.value.store(generation, ordering: .relaxed)
    loudnessCenter.set(nil)
    guard let base else { return [] }
    let path = library.audioPath(of: base)
    guard let inbox else {
      var last: LoudnessStrip?
      LoudnessWork.run(path: path, base: base, from: from, center: { nil }, isCurrent: { true }) {
        last = $0
      }
      return last.map { [.loudness($0)] } ?? []
    }
    let latest = latestLoudness
    let center = loudnessCenter
    loudnessQueue.async {
      LoudnessWork.run(
        path: path, base: base, from: from, center: { center.seconds },
        isCurrent: { latest.value.load(ordering: .relaxed) == generation }
      ) { inbox.post(.loudness($0)) }
    }
    return []
  }

  /// Before leaving: stops a running search and waits for a running sweep, so the process never
  /// ends in the middle of the sweep's writes.
  func finish() {
    latestLoudness.value.store(-1, ordering: .relaxed)
    fill?.stop()
    latestSearch.value.store(-1, ordering: .relaxed)
    latestSpoken.value.store(-1, ordering: .relaxed)
    worker.sync {}
    loudnessQueue.sync {}
    positionWriter.sync {}
  }

  /// Why the memo selected could not be remembered, for stderr once the terminal is restored.
  private(set) var selectionWarning: String?

  /// On leaving: remembers the memo selected (`base`), for the next time the folder opens.
  func rememberSelection(_ base: String?) {
    guard let selections, let base else { return }
    selectionWarning = selections.remember(base)
  }

  /// Runs the model's effects and every event they lead to, until nothing is left to do.
  func drive(_ model: inout BrowserModel, _ effects: [BrowserEffect]) {
    var queue = effects
    while !queue.isEmpty {
      let effect = queue.removeFirst()
      for event in perform(effect, memos: model.memos) { queue += model.update(event) }
    }
  }
}

/// The newest search generation, shared with the worker.
final class LatestGeneration: Sendable {
  let value = Atomic<Int>(0)
}

/// The memo time of the last seek (nil before one), shared with the loudness measure.
final class SeekMark: Sendable {
  /// The time's bits; `UInt64.max` (a NaN no seek asks for) for none.
  private let bits = Atomic<UInt64>(UInt64.max)

  /// Notes a seek to `seconds`, or (nil) forgets the last.
  func set(_ seconds: Double?) { bits.store(seconds?.bitPattern ?? UInt64.max, ordering: .relaxed) }

  /// The time of the last seek noted, if any.
  var seconds: Double? {
    let value = bits.load(ordering: .relaxed)
    return value == UInt64.max ? nil : Double(bitPattern: value)
  }
}
