/// What the browser publishes to the desktop's media controls (the MPRIS Player's properties),
/// made from the model alone, so the bus side only compares and sends.
package struct RemoteStatus: Equatable, Sendable {
  /// MPRIS's PlaybackStatus.
  package enum Playback: String, Sendable {
    case playing = "Playing"
    case paused = "Paused"
    case stopped = "Stopped"
  }

  /// The current memo, as MPRIS metadata.
  package struct Track: Equatable, Sendable {
    /// The memo's base (the bus side names its audio file from it).
    package var base: String
    /// `mpris:trackid`: an object path made from the base.
    package var id: String
    /// `xesam:title`: the title, else the recording date, as the list shows it.
    package var title: String
    /// `mpris:length`, in seconds; nil when unknown.
    package var length: Double?
  }

  package var playback: Playback
  package var track: Track?
  /// Speed, 1 being normal.
  package var rate: Double
  /// Volume, 1 being 100 %.
  package var volume: Double
  package var canGoNext: Bool
  package var canGoPrevious: Bool
  package var canPlay: Bool
  package var canPause: Bool
  package var canSeek: Bool

  /// The status of `model`.
  package init(_ model: BrowserModel) {
    switch model.player.state {
    case .playing, .loading: playback = .playing
    case .paused: playback = .paused
    case .stopped, .ended, .failed: playback = .stopped
    }
    let row = model.remoteTrack
    track = row.map { row in
      let held = model.player.isActive && model.player.base == row.base
      return Track(
        base: row.base, id: BrowserModel.trackID(of: row.base), title: row.displayName,
        length: held ? model.player.duration ?? row.durationSeconds : row.durationSeconds)
    }
    rate = model.remoteRate
    volume = model.remoteVolume
    canGoNext = model.remoteNeighbour(1) != nil
    canGoPrevious = model.remoteNeighbour(-1) != nil
    canPlay = row.map { model.playRefusal($0) == nil } ?? false
    canPause = canPlay
    canSeek = model.player.isActive
  }

  /// The names of the Player properties whose values differ from `old`'s, in the specification's
  /// order: those a PropertiesChanged signal carries.
  package func changedProperties(since old: RemoteStatus) -> [String] {
    var names: [String] = []
    if playback != old.playback { names.append("PlaybackStatus") }
    if rate != old.rate { names.append("Rate") }
    if track != old.track { names.append("Metadata") }
    if volume != old.volume { names.append("Volume") }
    if canGoNext != old.canGoNext { names.append("CanGoNext") }
    if canGoPrevious != old.canGoPrevious { names.append("CanGoPrevious") }
    if canPlay != old.canPlay { names.append("CanPlay") }
    if canPause != old.canPause { names.append("CanPause") }
    if canSeek != old.canSeek { names.append("CanSeek") }
    return names
  }
}
