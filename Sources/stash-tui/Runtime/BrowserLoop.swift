import StashBrowser

#if canImport(Glibc)
  import Glibc
#endif

/// The interactive loop: waits on the keyboard, the folder watcher, the quit signals, the inbox
/// (background work and player changes) and, only while a memo plays, the frame clock; feeds
/// events to the update step, performs its effects through the runner, and copies the view to the
/// terminal.
final class BrowserLoop {
  /// How long the folder must be quiet before it is read again.
  static let debounceSeconds = 0.15
  /// The frame interval while a memo plays: the clock and highlight move at this rate.
  static let frameSeconds = 0.04
  /// How often rows read in the background are handed to the model, unless some on screen wait:
  /// each time the list adds up its total length again (`MemoList.fill`), a pass over the list.
  static let fillSeconds = 0.25

  private let folder: String
  private let runner: EffectRunner
  private let inbox: EventInbox
  private let mouse: Bool
  /// The desktop's media controls, when the browser is on a session bus.
  private let mpris: MPRISServer?

  /// A warning for the first screen (the locale stash-tui had to change), or nil.
  private let notice: String?

  /// A loop over `folder` with the given effect runner, woken through `inbox` (the runner's
  /// background work, the player and the MPRIS server post there); `notice` is shown on the first
  /// screen.
  init(
    folder: String, runner: EffectRunner, inbox: EventInbox, mouse: Bool, mpris: MPRISServer? = nil,
    notice: String? = nil
  ) {
    self.notice = notice
    self.folder = folder
    self.runner = runner
    self.inbox = inbox
    self.mouse = mouse
    self.mpris = mpris
  }

  /// Runs until the user quits or a quit signal arrives; the terminal is restored on return.
  /// Returns the exit status: 0, or 128 plus the signal that ended it (130 for Ctrl-C).
  func run() -> Int32 {
    let quitDescriptor = SignalGuard.install()
    let terminal = Terminal(mouse: mouse)
    defer { terminal.close() }
    let size = terminal.size
    var model = BrowserModel(
      folderPath: folder, width: size.width, height: size.height, home: Environment.value("HOME"),
      importSource: runner.editor.importSource, clipFolder: runner.editor.clipFolder,
      suggestedClipFolder: runner.editor.suggestedClipFolder)
    // The first screen from the folder's names alone; the memos are read and the other files
    // counted once it is drawn, and arrive as events that keep the selection where it is.
    runner.holdsBackground = true
    runner.drive(&model, model.update(.resize(width: size.width, height: size.height)) + [.list])
    terminal.draw(BrowserView.render(model))
    for event in runner.startBackground() { runner.drive(&model, model.update(event)) }
    BrowserLoop.want(model, runner)
    mpris?.publish(model)
    var filledAt = BrowserClock.monotonic()

    let watcher = FolderWatcher(folder: folder)
    watcher.watchParts(model.memos.partsFolders)
    if let reason = watcher.unavailable {
      runner.drive(
        &model, model.update(.warning("Not watching the folder (\(reason)); Ctrl-L reads it again.")))
    }
    if let notice {
      runner.drive(&model, model.update(.warning(notice.prefix(1).uppercased() + notice.dropFirst() + ".")))
    }
    var rereadAt: Double?
    var lastSnapshot = runner.player.snapshot()
    var status: Int32 = 0

    while !model.finished {
      var fds = [
        pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
        pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: quitDescriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: inbox.descriptor, events: Int16(POLLIN), revents: 0),
      ]
      let now = BrowserClock.monotonic()
      var timeout: Int32 = -1
      // The clock moves only while playing; every change of state wakes the loop through the inbox.
      if lastSnapshot.state == .playing || lastSnapshot.state == .loading {
        timeout = Int32(BrowserLoop.frameSeconds * 1000)
      }
      if let at = rereadAt {
        let wait = Int32(max(0, (at - now) * 1000))
        timeout = timeout < 0 ? wait : min(timeout, wait)
      }
      if runner.fill?.hasRead == true {
        let wait = Int32(max(0, (filledAt + BrowserLoop.fillSeconds - now) * 1000))
        timeout = timeout < 0 ? wait : min(timeout, wait)
      }
      if let mpris, mpris.isOpen {
        fds.append(mpris.pollEntry())
        if let wait = mpris.timeout() { timeout = timeout < 0 ? wait : min(timeout, wait) }
      }
      _ = poll(&fds, nfds_t(fds.count), timeout)
      // Calls from the bus land in the inbox, read just below.
      mpris?.process()

      // A quit signal, or the terminal gone (hang-up on standard input): stop cleanly.
      let hangUp = Int16(POLLHUP | POLLERR | POLLNVAL)
      if fds[2].revents != 0 || fds[0].revents & hangUp != 0 {
        var number: UInt8 = UInt8(SIGHUP)
        if fds[2].revents != 0 { _ = Glibc.read(quitDescriptor, &number, 1) }
        status = 128 + Int32(number)
        break
      }
      var redrawAll = false
      while let input = terminal.read() {
        switch input {
        case .key(let key):
          if key == .ctrl("l") || key == .function(5) { redrawAll = true }
          runner.drive(&model, model.update(.key(key)))
        case .mouse(let event):
          runner.drive(&model, model.update(.mouse(event)))
        case .paste(let text):
          runner.drive(&model, model.update(.paste(text)))
        case .resize:
          let s = terminal.size
          redrawAll = true
          runner.drive(&model, model.update(.resize(width: s.width, height: s.height)))
        case .ignored:
          break
        }
        if model.finished { break }
      }
      if model.finished { break }
      for event in inbox.take() {
        runner.drive(&model, model.update(event))
        if model.finished { break }
      }
      if model.finished { break }
      // Rows read in the background: at once when some on screen wait for theirs, else now and then.
      if BrowserClock.monotonic() >= filledAt + BrowserLoop.fillSeconds || BrowserLoop.onScreenPending(model),
        let filled = runner.takeFilled()
      {
        filledAt = BrowserClock.monotonic()
        runner.drive(&model, model.update(filled))
      }
      if fds[1].revents != 0, watcher.drain() {
        rereadAt = BrowserClock.monotonic() + BrowserLoop.debounceSeconds
      }
      if let at = rereadAt, BrowserClock.monotonic() >= at {
        rereadAt = nil
        runner.drive(&model, [.list])
        watcher.watchParts(model.memos.partsFolders)
      }
      let snapshot = runner.player.snapshot()
      if snapshot != lastSnapshot || snapshot != model.player {
        lastSnapshot = snapshot
        runner.drive(&model, model.update(.player(snapshot)))
      }
      if redrawAll { terminal.invalidate() }
      BrowserLoop.want(model, runner)
      mpris?.publish(model)
      terminal.draw(BrowserView.render(model))
    }
    runner.player.stop()
    mpris?.close()
    runner.drive(&model, model.update(.closing))
    if model.recovering { terminal.draw(BrowserView.render(model)) }
    runner.rememberSelection(model.selectedBase)
    runner.finish()
    return status
  }

  /// The memos in the list's rows on screen now.
  static func onScreen(_ model: BrowserModel) -> ArraySlice<Int> {
    let height = model.layout.list?.height ?? 0
    let top = min(model.listTop, model.visible.count)
    return model.visible[top..<min(model.visible.count, top + max(0, height))]
  }

  /// Whether a row on screen still waits for its memo to be read.
  static func onScreenPending(_ model: BrowserModel) -> Bool {
    onScreen(model).contains { model.memos.isPending(at: $0) }
  }

  /// The memos on screen now that wait to be read, by listing index (`MemoList.listingIndex`).
  static func pendingOnScreen(_ model: BrowserModel) -> [Int] {
    onScreen(model).filter { model.memos.isPending(at: $0) }.map(model.memos.listingIndex)
  }

  /// Tells the fill which memos are on screen, so it reads those first.
  static func want(_ model: BrowserModel, _ runner: EffectRunner) {
    runner.fill?.want(pendingOnScreen(model))
  }
}
