import StashBrowser
import Testing

/// The waveform of a memo opened while nothing plays (issue 46 §1): measured as soon as the memo
/// is opened, drawn over a scrubber stopped at its start, and a click on either starts playing
/// there. In-process: the levels come as `.loudness` events, as the runner sends them.
@Suite struct WaveformPreviewTests {
  typealias F = BrowserFixture

  /// The fixture with its selected memo opened and nothing playing.
  static func opened(width: Int = 100, height: Int = 30) -> (BrowserModel, [BrowserEffect]) {
    var model = F.model(width: width, height: height)
    let effects = model.update(.key(.enter))
    return (model, effects)
  }

  @Test func openingAMemoMeasuresItAndShowsItsStripBeforePlaying() throws {
    let list = F.model()
    #expect(list.preview == nil && list.layout.strip == nil, "the list alone shows no strip")
    var (model, effects) = Self.opened()
    let base = try #require(model.selectedBase)
    #expect(model.focus == .transcript)
    #expect(effects.contains(.measureLoudness(base: base, from: 0)), "\(effects)")
    let preview = try #require(model.preview)
    let length = try #require(model.selectedRow?.durationSeconds)
    #expect(
      preview.base == base && preview.position == 0 && preview.duration == length && preview.state == .stopped
    )
    let layout = model.layout
    let strip = try #require(layout.strip)
    let bar = try #require(model.scrubberRange)
    #expect(strip.x == bar.lowerBound && strip.width == bar.count)
    // Before a level is known the strip is blank; once they come, it draws them.
    _ = model.update(.loudness(WaveformStripTests.strip(model)))
    let grid = BrowserView.render(model)
    let row = WaveformStripTests.cells(grid, row: strip.y)[bar]
    #expect(row.contains { WaveformStripTests.blocks.contains(Character($0)) }, "\(row)")
    let transport = F.lines(grid)[layout.transport.y]
    #expect(transport.hasPrefix(" ■ 0:00 ●") && transport.contains(TransportLine.previewHint), "\(transport)")
    // A strip for another memo is not taken for this one's.
    let mine = model.loudness
    _ = model.update(
      .loudness(LoudnessStrip(base: "someone-else", levels: [-20], measured: [true], floor: -70)))
    #expect(model.loudness == mine)
    // Back in the list nothing is open: the strip goes and its measure stops.
    let back = model.update(.key(.escape))
    #expect(model.focus == .list && model.preview == nil && model.layout.strip == nil)
    #expect(back.contains(.measureLoudness(base: nil, from: 0)), "\(back)")
  }

  @Test func aClickOnTheStripOrScrubberPlaysFromThere() throws {
    var (model, _) = Self.opened()
    let base = try #require(model.selectedBase)
    let strip = try #require(model.layout.strip)
    let bar = try #require(model.scrubberRange)
    let middle = bar.lowerBound + bar.count / 2
    let length = try #require(model.selectedRow?.durationSeconds)
    let expected = ScrubberScale(cells: bar.count, duration: length).time(atCell: bar.count / 2)
    var onStrip = model
    #expect(
      onStrip.update(.mouse(MouseEvent(kind: .click, x: middle, y: strip.y))) == [
        .play(base: base, from: expected)
      ])
    let transportY = model.layout.transport.y
    #expect(
      model.update(.mouse(MouseEvent(kind: .click, x: middle, y: transportY))) == [
        .play(base: base, from: expected)
      ])
    // Left of the scrubber (the state and clock) plays nothing.
    var left = Self.opened().0
    #expect(left.update(.mouse(MouseEvent(kind: .click, x: 1, y: transportY))).isEmpty)
  }

  @Test func playingTheOpenedMemoKeepsItsMeasure() throws {
    var (model, _) = Self.opened()
    let base = try #require(model.selectedBase)
    _ = model.update(.loudness(WaveformStripTests.strip(model)))
    let playing = model.update(
      .player(PlayerSnapshot(state: .playing, base: base, position: 30, duration: 120)))
    #expect(!playing.contains { if case .measureLoudness = $0 { true } else { false } }, "\(playing)")
    #expect(model.loudness?.base == base && model.preview == nil)
    // Played to its end, it is shown opened again, its strip kept.
    let ended = model.update(.player(PlayerSnapshot(state: .ended, base: base, position: 120, duration: 120)))
    #expect(!ended.contains { if case .measureLoudness = $0 { true } else { false } })
    #expect(model.preview?.base == base && model.loudness?.base == base)
  }

  @Test func whileAnotherMemoPlaysTheTransportStaysOnIt() throws {
    var model = F.model()
    let playing = try #require(model.selectedBase)
    _ = model.update(.player(PlayerSnapshot(state: .playing, base: playing, position: 10, duration: 120)))
    _ = model.update(.key(.down))
    _ = model.update(.key(.enter))
    #expect(model.selectedBase != playing && model.preview == nil && model.shownTransport.base == playing)
  }

  @Test func aMemoThatCannotPlayOrHasNoLengthShowsNoStrip() throws {
    var rows = F.rows
    rows[0].audio = .missing
    var model = F.model(rows: rows)
    _ = model.update(.key(.enter))
    #expect(model.preview == nil && model.layout.strip == nil)
    rows = F.rows
    rows[0].durationSeconds = nil
    model = F.model(rows: rows)
    _ = model.update(.key(.enter))
    #expect(model.preview == nil)
  }
}
