import StashBrowser
import StashFormat
import Testing

/// The typed line at the bottom: rename, filter and go to.
@Suite struct BrowserPromptTests {
  static func typing(_ text: String, into model: inout BrowserModel) -> [BrowserEffect] {
    var effects: [BrowserEffect] = []
    for c in text { effects += model.update(.key(.char(c))) }
    return effects
  }

  @Test func renameEditsTheTitleAndWritesIt() throws {
    var model = BrowserFixture.model()
    let base = try #require(model.selectedBase)
    _ = model.update(.key(.char("r")))
    #expect(model.prompt?.cursor == "Walk by the river".count)
    _ = model.update(.key(.ctrl("u")))
    #expect(model.prompt?.text == "")
    _ = Self.typing("  Morning loop ", into: &model)
    _ = model.update(.key(.home))
    _ = model.update(.key(.delete))
    _ = model.update(.key(.end))
    _ = model.update(.key(.backspace))
    #expect(model.prompt?.text == " Morning loop")
    let status = BrowserFixture.lines(BrowserView.render(model))[model.height - 2]
    #expect(status == "Name (empty removes the title):  Morning loop")
    #expect(model.update(.key(.enter)) == [.setTitle(base: base, title: "Morning loop")])
    #expect(model.prompt == nil)
  }

  @Test func escapeLeavesARenameWithoutWriting() {
    var model = BrowserFixture.model()
    _ = model.update(.key(.char("r")))
    _ = Self.typing("x", into: &model)
    #expect(model.update(.key(.escape)) == [])
    #expect(model.prompt == nil && model.memos[0].title == "Walk by the river")
  }

  @Test func theFilterNarrowsAsItIsTypedAndEscapePutsItBack() {
    var model = BrowserFixture.model()
    _ = model.update(.key(.char("/")))
    let effects = Self.typing("walk", into: &model)
    #expect(model.visible.count == 1 && model.filter == "walk")
    #expect(effects.last == .searchTranscripts("walk", generation: model.searchGeneration))
    // The transcript search finds one more; results of an older search are ignored.
    _ = model.update(
      .transcriptMatches(query: "walk", generation: model.searchGeneration - 1, bases: [model.memos[2].base]))
    #expect(model.visible.count == 1)
    _ = model.update(
      .transcriptMatches(query: "walk", generation: model.searchGeneration, bases: [model.memos[2].base]))
    #expect(model.visible == [0, 2])
    _ = model.update(.key(.enter))
    #expect(model.message?.text == "2 of 3 memos match; n/N find it in the transcript.")
    _ = model.update(.key(.char("/")))
    _ = Self.typing("zzz", into: &model)
    #expect(model.visible.isEmpty)
    _ = model.update(.key(.escape))
    #expect(model.filter == "walk" && model.prompt == nil)
    // Esc in the list clears the filter.
    _ = model.update(.key(.escape))
    #expect(model.filter == "" && model.visible.count == 3)
  }

  /// A filter of digits finds a titled memo by the day (and time) the list shows for it, as it
  /// finds an untitled one by its name. (A titled memo was once found only by its title.)
  @Test func theFilterFindsAMemoByTheDayTheListShows() {
    var model = BrowserFixture.model()
    let shown = TimeText.date(model.memos[1].recordedAt)
    _ = model.update(.key(.char("/")))
    _ = Self.typing(String(shown.prefix(10)), into: &model)
    #expect(model.visible == [1], "\(shown)")
    _ = Self.typing(String(shown.dropFirst(10)), into: &model)
    #expect(model.visible == [1], "\(shown)")
    // Words with a digit among letters are no date: names and transcripts only.
    _ = model.update(.key(.ctrl("u")))
    _ = Self.typing("memo " + String(shown.prefix(4)), into: &model)
    #expect(model.visible.isEmpty)
  }

  /// Characters that join the one before them (a zero-width joiner, a combining accent) keep the
  /// cursor on the text (it once ran past its end, and the next key crashed the browser).
  @Test func joiningCharactersKeepTheCursorInTheText() {
    var model = BrowserFixture.model()
    _ = model.update(.key(.char("r")))
    _ = model.update(.key(.ctrl("u")))
    _ = Self.typing("x\u{200D}y e\u{301}!", into: &model)
    #expect(model.prompt?.text == "x\u{200D}y e\u{301}!")
    #expect(model.prompt.map { $0.cursor == $0.text.count } == true)
    _ = model.update(.key(.backspace))
    _ = model.update(.key(.left))
    _ = Self.typing("z", into: &model)
    #expect(model.prompt?.text == "x\u{200D}y ze\u{301}")
  }

  /// A paste goes into the open prompt as one line; with no prompt it does nothing.
  @Test func aPasteIsTypedIntoThePromptAsOneLine() {
    var model = BrowserFixture.model()
    let selected = model.selectedBase
    #expect(model.update(.paste("dy")).isEmpty && model.selectedBase == selected)
    #expect(model.message?.text.hasPrefix("Pasted text goes into a prompt only") == true)
    _ = model.update(.key(.char("/")))
    let effects = model.update(.paste("wa\nl\tk\u{7}"))
    #expect(model.prompt?.text == "wa l k" && model.filter == "wa l k")
    #expect(effects.last == .searchTranscripts("wa l k", generation: model.searchGeneration))
  }

  @Test func goToTimeChecksTheTimeAndPlaysFromIt() throws {
    var model = BrowserFixture.model()
    let base = try #require(model.selectedBase)
    _ = model.update(.key(.char("g")))
    _ = Self.typing("1:30", into: &model)
    #expect(model.update(.key(.enter)) == [])
    #expect(model.message?.text == "The memo is only 1:00 long.")
    _ = model.update(.key(.char("g")))
    _ = Self.typing("soon", into: &model)
    _ = model.update(.key(.enter))
    #expect(model.message?.text == "“soon” is not a time: try 90, 1:30 or 1:02:03 (+/- to move).")
    _ = model.update(.key(.char("g")))
    _ = Self.typing("0:45", into: &model)
    #expect(model.update(.key(.enter)) == [.play(base: base, from: 45)])
    var playing = BrowserFixture.playing(BrowserFixture.model(), at: 30)
    _ = playing.update(.key(.char("g")))
    _ = Self.typing("+15", into: &playing)
    #expect(playing.update(.key(.enter)) == [.seek(45)])
  }
}
