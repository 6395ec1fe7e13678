import StashBrowser
import Testing

/// The transcript follows the spoken cue until the user moves away, and `f` brings it back.
@Suite struct BrowserFollowTests {
  /// The spoken cue's first line is in the transcript pane.
  static func spokenCueInView(_ model: BrowserModel) -> Bool {
    guard let d = model.detailLayout(), let cue = model.spokenCue else { return false }
    let first = d.lineRange(ofCue: cue).lowerBound
    return first >= model.transcriptTop && first < model.transcriptTop + d.transcriptRect.height
  }

  @Test func playingMovesTheCursorAndKeepsTheSpokenCueInView() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 0)
    for second in stride(from: 0.0, through: 119, by: 1.5) {
      _ = model.update(.player(BrowserFixture.snapshot(model, at: second)))
      #expect(model.cueCursor == model.spokenCue, "at \(second)")
      #expect(Self.spokenCueInView(model), "at \(second)")
      #expect(model.following)
    }
  }

  @Test func movingTheCursorWhilePlayingStopsFollowingAndSaysSo() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 10)
    _ = model.update(.key(.down))
    #expect(!model.following)
    let cursor = model.cueCursor
    _ = model.update(.player(BrowserFixture.snapshot(model, at: 40)))
    #expect(model.cueCursor == cursor, "the cursor stays where the user put it")
    let status = BrowserFixture.lines(BrowserView.render(model))[model.layout.status.y]
    #expect(status == "Not following the speech: f follows again.")
  }

  @Test func scrollingTheTranscriptWithTheWheelStopsFollowing() throws {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 10)
    let detail = try #require(model.layout.detail)
    _ = model.update(.mouse(MouseEvent(kind: .wheelDown, x: detail.x + 2, y: detail.y + 5)))
    #expect(!model.following)
  }

  @Test func pausedMovesDoNotStopFollowing() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 10)
    _ = model.update(.player(BrowserFixture.snapshot(model, .paused, at: 10)))
    _ = model.update(.key(.down))
    #expect(model.following, "only a move while the speech runs leaves it")
  }

  @Test func followBringsTheCursorBackToTheSpokenCue() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 30)
    _ = model.update(.key(.end))
    #expect(!model.following && model.cueCursor == 39)
    _ = model.update(.key(.escape))
    _ = model.update(.key(.char("f")))
    #expect(model.following && model.focus == .transcript)
    #expect(model.cueCursor == 10)
    #expect(Self.spokenCueInView(model))
  }

  @Test func stepsAndTypedTimesFollowAgain() {
    for keys in [[Key.ctrlRight], [.char("g"), .char("5"), .char("0"), .enter]] {
      var model = BrowserFixture.playing(BrowserFixture.model(), at: 30)
      _ = model.update(.key(.end))
      #expect(!model.following)
      for key in keys { _ = model.update(.key(key)) }
      #expect(model.following, "\(keys.map(\.label))")
    }
  }

  /// A defect a new user found: after `f`, the spoken cue jumped to the pane's top line, with
  /// nothing of what was said before it in view.
  @Test func afterFollowTheSpokenCueHasWhatCameBeforeItAbove() throws {
    for size in [(100, 30), (60, 20), (40, 10), (200, 50)] {
      var model = BrowserFixture.playing(BrowserFixture.model(width: size.0, height: size.1), at: 60)
      _ = model.update(.key(.end))
      _ = model.update(.key(.char("f")))
      let d = try #require(model.detailLayout())
      let cue = d.lineRange(ofCue: 20)
      let rows = d.transcriptRect.height
      // A third of the pane above it, as far as the cue itself leaves room (on the smallest
      // screen a cue can fill the pane, and then it is shown whole from the top).
      let context = max(0, min(rows / 3, rows - cue.count))
      #expect(model.cueCursor == 20)
      #expect(
        cue.lowerBound - model.transcriptTop >= context,
        "\(size): \(cue.lowerBound - model.transcriptTop) lines above")
      if size.1 >= 20 {
        #expect(cue.lowerBound > model.transcriptTop, "\(size): the spoken cue is on the top line")
      }
      #expect(Self.spokenCueInView(model), "\(size)")
    }
  }

  @Test func aSeekBackWhileFollowingAlsoKeepsWhatCameBefore() throws {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 110)
    _ = model.update(.player(BrowserFixture.snapshot(model, at: 45)))
    let d = try #require(model.detailLayout())
    #expect(d.lineRange(ofCue: 15).lowerBound > model.transcriptTop)
    #expect(Self.spokenCueInView(model))
  }
}
