import StashBrowser
import StashFormat
import Testing

/// The list: re-reads keep the selection, and the narrowest list keeps its date column.
@Suite struct BrowserListTests {
  @Test func aReReadKeepsTheSelectionOnTheSameMemo() {
    var model = BrowserFixture.model()
    _ = model.update(.key(.down))
    let base = model.selectedBase
    var rows = BrowserFixture.rows
    rows.insert(BrowserFixture.row("2026-08-01T00-00-00Z", at: BrowserFixture.march14 + 86_400 * 140), at: 0)
    _ = model.update(.listed(MemoList(rows), error: nil))
    #expect(model.selectedBase == base && model.selection == 2)
  }

  @Test func aFailedReReadKeepsWhatWasShownAndSaysWhy() {
    var model = BrowserFixture.model()
    _ = model.update(.listed([], error: "permission denied"))
    #expect(model.memos.count == 3)
    #expect(BrowserFixture.lines(BrowserView.render(model))[0].contains("permission denied"))
  }

  /// The header shortens the folder with the home folder it is given, and reads no environment.
  @Test func theHeaderShowsTheFolderFromTheHomeItIsGiven() {
    var model = BrowserModel(folderPath: "/home/ada/Memos", width: 100, height: 30, home: "/home/ada")
    _ = model.update(.listed(MemoList(BrowserFixture.rows), error: nil))
    #expect(BrowserFixture.lines(BrowserView.render(model))[0].hasSuffix(" ~/Memos"))
    var whole = BrowserModel(folderPath: "/home/ada/Memos", width: 100, height: 30, home: nil)
    _ = whole.update(.listed(MemoList(BrowserFixture.rows), error: nil))
    #expect(BrowserFixture.lines(BrowserView.render(whole))[0].hasSuffix(" /home/ada/Memos"))
  }

  @Test func theMemoPlayingRemovedStopsThePlayer() {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 3)
    let effects = model.update(.listed(MemoList(Array(BrowserFixture.rows.dropFirst())), error: nil))
    #expect(effects.contains(.stop))
    #expect(model.message?.text == "The memo playing was removed from the folder; playback stopped.")
  }

  @Test func aClickSelectsAMemoAndTheWheelMoves() throws {
    var model = BrowserFixture.model()
    let list = try #require(model.layout.list)
    let effects = model.update(.mouse(MouseEvent(kind: .click, x: 5, y: list.y + 2)))
    #expect(model.selection == 2 && effects == [.loadDetail(base: model.memos[2].base)])
    _ = model.update(.mouse(MouseEvent(kind: .wheelUp, x: 5, y: list.y)))
    #expect(model.selection == 0)
  }

  /// A defect a new user found: at 40x10 the list lost its date column, so a titled memo showed
  /// no date at all.
  @Test func theSmallestTerminalStillShowsEachMemosDate() throws {
    let model = BrowserFixture.model(width: 40, height: 10)
    let grid = BrowserView.render(model)
    let list = try #require(model.layout.list)
    let date = TimeText.date(model.memos[0].recordedAt)
    let monthDay = String(date.dropFirst(5).prefix(5))
    let row = BrowserFixture.lines(grid)[list.y]
    #expect(row.contains(monthDay), "\(row)")
    #expect(row.contains("Walk by the"), "the name keeps room: \(row)")
  }
}
