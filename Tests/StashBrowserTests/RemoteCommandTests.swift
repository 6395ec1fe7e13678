import StashBrowser
import Testing

/// The desktop's media controls (MPRIS) on the model alone: each remote command's effects, the
/// status published from the model, and which properties a change announces.
@Suite struct RemoteCommandTests {
  typealias F = BrowserFixture

  /// `model` after the player reports `state` for `base` at `position` (120 s long).
  static func reported(
    _ model: BrowserModel, _ state: PlayerSnapshot.State, base: String, at position: Double
  ) -> BrowserModel {
    var model = model
    _ = model.update(.player(PlayerSnapshot(state: state, base: base, position: position, duration: 120)))
    return model
  }

  static let first = F.rows[0].base
  static let second = F.rows[1].base
  static let third = F.rows[2].base

  @Test func playPausePlaysTheSelectedMemoThenTogglesIt() {
    var model = F.model()
    #expect(model.update(.remote(.playPause)) == [.resume(base: Self.first)])
    model = Self.reported(model, .playing, base: Self.first, at: 3)
    #expect(model.update(.remote(.playPause)) == [.togglePause])
    model = Self.reported(model, .paused, base: Self.first, at: 3)
    #expect(model.update(.remote(.playPause)) == [.togglePause])
  }

  @Test func playAndPauseDoNothingWhenAlreadySo() {
    var model = Self.reported(F.model(), .playing, base: Self.first, at: 3)
    #expect(model.update(.remote(.play)).isEmpty)
    #expect(model.update(.remote(.pause)) == [.togglePause])
    model = Self.reported(model, .paused, base: Self.first, at: 3)
    #expect(model.update(.remote(.pause)).isEmpty)
    #expect(model.update(.remote(.play)) == [.togglePause])
    model = Self.reported(model, .stopped, base: Self.first, at: 0)
    #expect(model.update(.remote(.pause)).isEmpty)
    #expect(model.update(.remote(.stop)).isEmpty)
  }

  @Test func toggleActsOnTheMemoPlayingEvenWhenAnotherIsSelected() {
    var model = Self.reported(F.model(), .playing, base: Self.first, at: 3)
    _ = model.update(.key(.down))
    #expect(model.selectedBase == Self.second)
    #expect(model.remoteTrack?.base == Self.first)
    #expect(model.update(.remote(.playPause)) == [.togglePause])
    #expect(RemoteStatus(model).track?.base == Self.first)
  }

  @Test func stopStopsWhatPlays() {
    var model = Self.reported(F.model(), .paused, base: Self.first, at: 3)
    #expect(model.update(.remote(.stop)) == [.stop])
  }

  @Test func nextAndPreviousGoThroughTheListInItsOrder() {
    var model = Self.reported(F.model(), .playing, base: Self.first, at: 3)
    #expect(model.update(.remote(.previous)).isEmpty, "nothing before the first memo")
    let next = model.update(.remote(.next))
    #expect(next.last == .resume(base: Self.second))
    #expect(next.contains(.loadDetail(base: Self.second)))
    #expect(model.selectedBase == Self.second, "the list shows the memo that plays")
    model = Self.reported(model, .playing, base: Self.second, at: 0)
    #expect(model.update(.remote(.next)).last == .resume(base: Self.third))
    model = Self.reported(model, .playing, base: Self.third, at: 0)
    #expect(!RemoteStatus(model).canGoNext)
    #expect(RemoteStatus(model).canGoPrevious)
    #expect(model.update(.remote(.next)).isEmpty, "nothing after the last memo")
    #expect(model.update(.remote(.previous)).last == .resume(base: Self.second))
  }

  @Test func nextWhilePausedStaysPausedAndWhileStoppedOnlySelects() {
    var model = Self.reported(F.model(), .paused, base: Self.first, at: 3)
    #expect(
      Array(model.update(.remote(.next)).suffix(2)) == [.resume(base: Self.second), .togglePause])
    model = F.model()
    let effects = model.update(.remote(.next))
    #expect(effects == [.loadDetail(base: Self.second)])
    #expect(RemoteStatus(model).track?.base == Self.second)
    #expect(RemoteStatus(model).playback == .stopped)
  }

  @Test func nextSkipsMemosThatCannotPlayAndFollowsTheFilter() {
    let rows = [
      F.row("a", title: "Alpha walk", at: 300), F.row("b", title: "Broken", at: 200, audio: .missing),
      F.row("c", title: "Gamma walk", at: 100), F.row("d", title: "Delta walk", at: 50),
    ]
    var model = Self.reported(F.model(rows: rows), .playing, base: "a", at: 3)
    #expect(model.update(.remote(.next)).last == .resume(base: "c"))
    // With a filter, Next goes through the memos the list shows.
    model = F.model(rows: rows)
    _ = model.setFilter("alpha")
    model = Self.reported(model, .playing, base: "a", at: 3)
    #expect(model.update(.remote(.next)).isEmpty)
  }

  @Test func seekMovesFromWhereItIsAndPastTheEndActsAsNext() {
    var model = Self.reported(F.model(), .playing, base: Self.first, at: 30)
    #expect(model.update(.remote(.seek(by: 10))) == [.seek(40)])
    #expect(model.player.position == 40)
    model = Self.reported(model, .playing, base: Self.first, at: 40)
    #expect(model.update(.remote(.seek(by: -100))) == [.seek(0)])
    model = Self.reported(model, .playing, base: Self.first, at: 100)
    #expect(model.update(.remote(.seek(by: 30))).last == .resume(base: Self.second))
    // On the last memo there is nothing next: it stops.
    model = Self.reported(F.model(), .playing, base: Self.third, at: 100)
    #expect(model.update(.remote(.seek(by: 30))) == [.stop])
    var stopped = F.model()
    #expect(stopped.update(.remote(.seek(by: 5))).isEmpty, "nothing to seek while stopped")
  }

  @Test func setPositionIsIgnoredUnlessTheTrackIsTheMemoPlaying() {
    var model = Self.reported(F.model(), .playing, base: Self.first, at: 30)
    let id = BrowserModel.trackID(of: Self.first)
    #expect(model.update(.remote(.setPosition(trackID: id, seconds: 12.5))) == [.seek(12.5)])
    let other = BrowserModel.trackID(of: Self.second)
    #expect(model.update(.remote(.setPosition(trackID: other, seconds: 5))).isEmpty)
    #expect(model.update(.remote(.setPosition(trackID: id, seconds: -1))).isEmpty)
    #expect(model.update(.remote(.setPosition(trackID: id, seconds: 121))).isEmpty, "past the end")
  }

  @Test func openPlaysTheMemoAndClearsAFilterThatHidesIt() {
    var model = F.model()
    _ = model.setFilter("river")
    #expect(model.visible.count == 1)
    let effects = model.update(.remote(.open(base: Self.third)))
    #expect(effects.last == .resume(base: Self.third))
    #expect(model.filter.isEmpty)
    #expect(model.selectedBase == Self.third)
    #expect(model.update(.remote(.open(base: "not-a-memo"))).isEmpty)
  }

  @Test func rateAndVolumeAreTheKeysSpeedAndVolume() {
    var model = Self.reported(F.model(), .playing, base: Self.first, at: 3)
    #expect(model.update(.remote(.setRate(2))) == [.setSpeed(2)])
    #expect(model.update(.remote(.setRate(10))) == [.setSpeed(3)], "kept to MaximumRate")
    #expect(model.update(.remote(.setRate(0.1))) == [.setSpeed(0.5)], "kept to MinimumRate")
    #expect(model.update(.remote(.setVolume(0.5))) == [.setVolume(50)])
    #expect(model.update(.remote(.setVolume(-1))) == [.setVolume(0)])
    #expect(model.update(.remote(.setVolume(4))) == [.setVolume(150)])
    #expect(model.update(.remote(.setVolume(.nan))).isEmpty)
    // The published values are the player's.
    var snapshot = PlayerSnapshot(state: .playing, base: Self.first, position: 3, duration: 120)
    snapshot.speed = 1.5
    snapshot.volume = 80
    _ = model.update(.player(snapshot))
    let status = RemoteStatus(model)
    #expect(status.rate == 1.5 && status.volume == 0.8)
    snapshot.muted = true
    _ = model.update(.player(snapshot))
    #expect(RemoteStatus(model).volume == 0)
    #expect(RemoteStatus(model).changedProperties(since: status) == ["Volume"])
  }

  @Test func aRateOfZeroPausesAndQuitLeaves() {
    var model = Self.reported(F.model(), .playing, base: Self.first, at: 3)
    #expect(model.update(.remote(.setRate(0))) == [.togglePause])
    let quit = model.update(.remote(.quit))
    #expect(quit.last == .quit && quit.contains(.stop), "\(quit)")
    #expect(model.finished)
  }

  @Test func trackIDsAreObjectPathsThatNeverCollide() {
    let bases = ["2026-03-14T09-30-00Z", "a_2d", "a-", "会議", "", "a b", "A"]
    let ids = bases.map(BrowserModel.trackID(of:))
    #expect(Set(ids).count == bases.count)
    for id in ids {
      #expect(id.hasPrefix("/org/stash/memo/"))
      let element = id.dropFirst("/org/stash/memo/".count)
      #expect(!element.isEmpty)
      #expect(element.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }, "\(id)")
    }
  }

  @Test func theStatusFollowsThePlayerAndNamesWhatChanged() {
    let stopped = F.model()
    let before = RemoteStatus(stopped)
    #expect(before.playback == .stopped)
    #expect(before.track?.title == "Walk by the river")
    #expect(before.track?.length == 60)
    #expect(before.canPlay && !before.canSeek && before.canGoNext && !before.canGoPrevious)
    let playing = Self.reported(stopped, .playing, base: Self.first, at: 3)
    let after = RemoteStatus(playing)
    #expect(after.playback == .playing)
    #expect(after.track?.length == 120, "the player's length once it holds the memo")
    #expect(after.changedProperties(since: before) == ["PlaybackStatus", "Metadata", "CanSeek"])
    // The clock moving changes nothing announced: Position is read, never announced.
    let later = Self.reported(playing, .playing, base: Self.first, at: 4)
    #expect(RemoteStatus(later).changedProperties(since: after).isEmpty)
    let paused = Self.reported(later, .paused, base: Self.first, at: 4)
    #expect(RemoteStatus(paused).changedProperties(since: after) == ["PlaybackStatus"])
  }

  @Test func aMemoThatCannotPlayCannotBePlayedFromTheDesktop() {
    var model = F.model(rows: [F.row("x", title: "Gone", at: 10, audio: .missing)], detail: nil)
    #expect(!RemoteStatus(model).canPlay)
    #expect(model.update(.remote(.play)).isEmpty)
    #expect(model.message?.text.hasPrefix("Cannot play") == true)
  }
}
