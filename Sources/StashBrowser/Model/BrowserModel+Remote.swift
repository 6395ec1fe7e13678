/// The desktop's media controls (MPRIS): how each remote command maps to the model's effects.
/// The memo they act on is the one the player holds, else the selected one; Next and Previous go
/// through the list in its order (the filter's memos only), skipping memos that cannot play.
extension BrowserModel {
  /// The slowest and fastest speeds the controls may ask for.
  package static let minimumRate = 0.5
  package static let maximumRate = 3.0
  /// The loudest volume, 1 being 100 %.
  package static let maximumVolume = 1.5

  /// The memo the controls act on: the one playing or paused, else the selected one.
  package var remoteTrack: MemoRow? {
    if player.isActive, let row = playingRow { return row }
    return selectedRow
  }

  /// The speed published to the controls.
  package var remoteRate: Double { player.speed }

  /// The volume published to the controls, 1 being 100 % (0 while muted, as players report it).
  package var remoteVolume: Double { player.muted ? 0 : Double(player.volume) / 100 }

  /// The object path MPRIS knows a memo by (`mpris:trackid`): letters and digits of the base kept,
  /// every other byte as `_` and two hex digits, so two bases never share a path.
  package static func trackID(of base: String) -> String {
    let hex = Array("0123456789abcdef".utf8)
    var element: [UInt8] = []
    for byte in base.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        element.append(byte)
      default:
        element += [UInt8(ascii: "_"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      }
    }
    return "/org/stash/memo/" + (element.isEmpty ? "_" : String(decoding: element, as: UTF8.self))
  }

  /// The base of the memo `delta` places on from the current one (1: next, -1: previous) that can
  /// play, in the list's order; nil when there is none.
  package func remoteNeighbour(_ delta: Int) -> String? {
    guard let current = remoteTrack else { return nil }
    let at: Int?
    if current.base == selectedBase, selection < visible.count,
      memos.base(at: visible[selection]) == current.base
    {
      at = selection
    } else {
      at = visiblePosition(ofBase: current.base)
    }
    // The memo playing is not among those the filter shows: Next starts at the first shown.
    var i = at.map { $0 + delta } ?? (delta > 0 ? 0 : visible.count - 1)
    while i >= 0 && i < visible.count {
      if playRefusal(memos[visible[i]]) == nil { return memos.base(at: visible[i]) }
      i += delta
    }
    return nil
  }

  /// Applies a command from the desktop's controls; returns what the I/O loop should do.
  package mutating func handle(remote command: RemoteCommand) -> [BrowserEffect] {
    switch command {
    case .play:
      if player.state == .paused { return [.togglePause] }
      if player.state == .playing || player.state == .loading { return [] }
      return remotePlay()
    case .pause:
      return player.state == .playing || player.state == .loading ? [.togglePause] : []
    case .playPause:
      return player.isActive ? [.togglePause] : remotePlay()
    case .stop:
      return player.isActive ? [.stop] : []
    case .next:
      return remoteStep(1)
    case .previous:
      return remoteStep(-1)
    case .seek(let offset):
      guard player.isActive else { return [] }
      let target = max(0, player.position + offset)
      // Past the end acts as Next would, as the specification says; with no next memo, it stops.
      if let length = player.duration, target > length {
        return remoteNeighbour(1) != nil ? remoteStep(1) : [.stop]
      }
      return remoteSeek(to: target)
    case .setPosition(let id, let seconds):
      guard player.isActive, let base = player.base, BrowserModel.trackID(of: base) == id, seconds >= 0,
        seconds <= player.duration ?? .infinity
      else { return [] }
      return remoteSeek(to: seconds)
    case .open(let base):
      guard memos.position(ofBase: base) != nil else { return [] }
      var effects: [BrowserEffect] = []
      if visiblePosition(ofBase: base) == nil {
        // The memo asked for is hidden by the filter: the filter goes, so the list shows it.
        filter = ""
        transcriptMatches = []
        effects = refilter()
      }
      effects += select(base)
      guard let row = selectedRow, row.base == base else { return effects }
      if let refusal = playRefusal(row) {
        sayCannotPlay(refusal)
        return effects
      }
      following = true
      return effects + [.resume(base: base)]
    case .setRate(let rate):
      // A rate of 0 acts as Pause, as the specification says; others are kept to 0.5...3.
      guard rate.isFinite else { return [] }
      if rate <= 0 { return handle(remote: .pause) }
      return setSpeed(rate)
    case .setVolume(let volume):
      // Below 0 counts as 0, as the specification says; above 1.5 as 1.5.
      guard volume.isFinite else { return [] }
      return setVolume(Int((max(0, min(BrowserModel.maximumVolume, volume)) * 100).rounded()))
    case .quit:
      return perform(.quit)
    }
  }

  /// Plays the current memo from where it was left off, as space does (after a failure, from
  /// where it stopped).
  private mutating func remotePlay() -> [BrowserEffect] {
    guard let row = remoteTrack else { return [] }
    if let refusal = playRefusal(row) {
      sayCannotPlay(refusal)
      return []
    }
    let effects = select(row.base)
    following = true
    if case .failed = player.state, player.base == row.base {
      return effects + [.play(base: row.base, from: player.position)]
    }
    return effects + [.resume(base: row.base)]
  }

  /// Next or Previous: the memo `delta` on is selected; it plays (from where it was left off, as
  /// the keys' next memo does) when one was playing, is loaded paused when one was paused, and is
  /// only selected when nothing played, as the specification asks.
  private mutating func remoteStep(_ delta: Int) -> [BrowserEffect] {
    guard let base = remoteNeighbour(delta) else { return [] }
    let state = player.state
    let effects = select(base)
    following = true
    switch state {
    case .playing, .loading: return effects + [.resume(base: base)]
    case .paused: return effects + [.resume(base: base), .togglePause]
    case .stopped, .ended, .failed: return effects
    }
  }

  private mutating func remoteSeek(to target: Double) -> [BrowserEffect] {
    jump(to: target)
    return [.seek(target)]
  }

  /// Moves the selection to the memo with `base` when the list shows it.
  private mutating func select(_ base: String) -> [BrowserEffect] {
    guard let at = visiblePosition(ofBase: base) else { return [] }
    selection = at
    return selectionChanged()
  }
}
