import StashBrowser
import StashFormat
import Testing

/// Bookmarks from the browser's keys (issue 48 §1): `b` writes one at the moment heard at once and
/// then asks for its note, `@`/`!` play from the next and previous, `e` edits the note of the one
/// here, `x` removes it after asking; they show in the transcript at their place and on the
/// scrubber. In-process: the writes are effects, their answers `.bookmarked` events.
@Suite struct BrowserBookmarkTests {
  typealias F = BrowserFixture

  /// The fixture's selected memo (40 cues of 3 s) with bookmarks at `moments`, its detail shown.
  static func model(bookmarks moments: [(Double, String)], width: Int = 100, height: Int = 30) -> BrowserModel
  {
    var detail = F.detail(cues: 40)
    detail.bookmarks = moments.map { Bookmark(at: $0.0, note: $0.1) }
    return F.model(width: width, height: height, detail: detail)
  }

  @Test func bWritesTheMomentHeardAtOnceThenAsksForItsNote() throws {
    var model = F.playing(F.model(), at: 61.2345)
    let base = try #require(model.selectedBase)
    let effects = model.update(.key(.char("b")))
    // Written before the note is typed: the moment is kept even if the note never comes.
    #expect(effects == [.addBookmark(base: base, at: 61.235)])
    #expect(model.prompt?.purpose == .bookmarkNote(base: base, at: 61.235))
    #expect(BrowserView.render(model).plainText.contains("Note for the bookmark at 1:01:"))
    for c in "budget" { _ = model.update(.key(.char(c))) }
    #expect(model.update(.key(.enter)) == [.annotateBookmark(base: base, at: 61.235, note: "budget")])
    #expect(model.prompt == nil)
    // The write's answer reads the memo's detail again, not the folder.
    let answer = model.update(.bookmarked(base: base, .done("Noted.")))
    #expect(answer == [.loadDetail(base: base)])
  }

  @Test func withNothingPlayingBMarksTheCueUnderTheCursorAndEscLeavesNoNote() throws {
    var model = F.model()
    let base = try #require(model.selectedBase)
    // In the list, with nothing playing, there is no moment to keep.
    #expect(model.update(.key(.char("b"))).isEmpty)
    #expect(model.message?.text.contains("to bookmark a moment") == true)
    _ = model.update(.key(.enter))
    for _ in 0..<3 { _ = model.update(.key(.down)) }
    #expect(model.update(.key(.char("b"))) == [.addBookmark(base: base, at: 9)])
    // Esc: the bookmark stays, without a note; nothing more is written.
    #expect(model.update(.key(.escape)).isEmpty)
    #expect(model.prompt == nil)
    // Enter on an empty note writes nothing either.
    _ = model.update(.key(.char("b")))
    #expect(model.update(.key(.enter)).isEmpty)
  }

  @Test func aFailedAddClosesTheNotePromptAndSaysWhy() throws {
    var model = F.playing(F.model(), at: 30)
    let base = try #require(model.selectedBase)
    _ = model.update(.key(.char("b")))
    _ = model.update(
      .bookmarked(base: base, .failed("The bookmark was not added: a bookmark is at 0:30 already")))
    #expect(model.prompt == nil)
    #expect(
      model.overlay
        == .report(title: "Not done", lines: ["The bookmark was not added: a bookmark is at 0:30 already"]))
  }

  @Test func atAndBangPlayFromTheNextAndPreviousBookmark() throws {
    var model = F.playing(Self.model(bookmarks: [(12, "one"), (50, ""), (90, "three")]), at: 20)
    #expect(model.update(.key(.char("@"))) == [.seek(50)])
    #expect(model.player.position == 50)
    #expect(model.message?.text == "Bookmark 2 of 3, 0:50.")
    // Just after a bookmark, ! goes to the one before it (a second press walks back).
    _ = model.update(.player(F.snapshot(model, at: 50.4)))
    #expect(model.update(.key(.char("!"))) == [.seek(12)])
    #expect(model.message?.text == "Bookmark 1 of 3, 0:12: one")
    _ = model.update(.player(F.snapshot(model, at: 95)))
    #expect(model.update(.key(.char("@"))).isEmpty)
    #expect(model.message?.text == "No bookmark after this one.")
    // Paused, the jump plays on.
    _ = model.update(.player(F.snapshot(model, .paused, at: 95)))
    #expect(model.update(.key(.char("!"))) == [.seek(90), .togglePause])
  }

  @Test func withNothingPlayingAtPlaysTheMemoFromTheBookmark() throws {
    var model = Self.model(bookmarks: [(12, "one"), (50, "")])
    let base = try #require(model.selectedBase)
    // From the list (no cursor in the transcript) @ is the first bookmark.
    #expect(model.update(.key(.char("@"))) == [.play(base: base, from: 12)])
    var none = F.model()
    #expect(none.update(.key(.char("@"))).isEmpty)
    #expect(none.message?.text.contains("no bookmarks") == true)
  }

  @Test func eEditsTheNoteOfTheBookmarkHere() throws {
    var model = F.playing(Self.model(bookmarks: [(12, "one"), (50, "budget")]), at: 58)
    let base = try #require(model.selectedBase)
    #expect(model.bookmarkHere == Bookmark(at: 50, note: "budget"))
    _ = model.update(.key(.char("e")))
    #expect(model.prompt?.purpose == .bookmarkNote(base: base, at: 50))
    #expect(model.prompt?.text == "budget")
    for c in " for Ana" { _ = model.update(.key(.char(c))) }
    #expect(model.update(.key(.enter)) == [.annotateBookmark(base: base, at: 50, note: "budget for Ana")])
    // Unchanged, nothing is written.
    _ = model.update(.key(.char("e")))
    #expect(model.update(.key(.enter)).isEmpty)
    // Before the first bookmark there is none here.
    _ = model.update(.player(F.snapshot(model, at: 5)))
    #expect(model.update(.key(.char("e"))).isEmpty)
    #expect(model.message?.text == "No bookmark at or before 0:05: @ goes to the next one.")
  }

  @Test func xRemovesTheBookmarkHereOnlyAfterAsking() throws {
    var model = F.playing(Self.model(bookmarks: [(12, "one"), (50, "budget")]), at: 12.3)
    let base = try #require(model.selectedBase)
    #expect(model.update(.key(.char("x"))).isEmpty)
    let text = BrowserView.render(model).plainText
    #expect(text.contains("Remove this bookmark?") && text.contains("0:12  “one”"), "\(text)")
    #expect(text.contains("y removes it · n keeps it"))
    var kept = model
    #expect(kept.update(.key(.char("n"))).isEmpty)
    #expect(kept.overlay == nil && kept.message?.text == "The bookmark is kept.")
    #expect(model.update(.key(.char("y"))) == [.removeBookmark(base: base, at: 12)])
    #expect(model.overlay == nil)
  }

  @Test func bookmarksShowInTheTranscriptAtTheirPlaceAndOnTheScrubber() throws {
    var model = F.playing(Self.model(bookmarks: [(1, ""), (4.5, "budget for Ana")]), at: 0)
    let grid = BrowserView.render(model)
    let lines = F.lines(grid)
    // The one at 4.5 s is inside the second cue (3–6 s): it follows that cue's lines.
    let second = try #require(lines.firstIndex { $0.contains("word1-0") })
    let noted = try #require(lines.firstIndex { $0.contains("▼  0:04") && $0.contains("budget for Ana") })
    let third = try #require(lines.firstIndex { $0.contains("word2-0") })
    #expect(second < noted && noted < third, "\(lines.joined(separator: "\n"))")
    let first = try #require(lines.firstIndex { $0.contains("▼  0:01") && $0.contains("bookmark") })
    #expect(first < second)
    // On the scrubber, a ▼ where each is (the memo is 120 s long, so both share the first cells
    // only when the scrubber is narrow: here they are at least a cell apart or one sign shows).
    let transport = lines[model.layout.transport.y]
    #expect(transport.contains(DetailLayout.bookmarkSign), "\(transport)")
    // Another memo's bookmarks are not drawn on the one playing.
    _ = model.update(.key(.escape))
    _ = model.update(.key(.down))
    #expect(!F.lines(BrowserView.render(model))[model.layout.transport.y].contains(DetailLayout.bookmarkSign))
  }

  @Test func aBrokenBookmarksFileSaysSoUnderTheTranscript() throws {
    var detail = F.detail(cues: 2)
    detail.bookmarksProblem = "line 3: the cue's end is not after its start"
    let model = F.model(detail: detail)
    var open = model
    _ = open.update(.key(.enter))
    #expect(BrowserView.render(open).plainText.contains("Bookmarks unreadable: line 3: the cue's end"))
  }

  @Test func cSavesTheLoopAskingForTheFolderOnlyTheFirstTime() throws {
    var model = BrowserModel(
      folderPath: "/memos", width: 100, height: 30, suggestedClipFolder: "/home/ana/Documents")
    _ = model.update(.resize(width: 100, height: 30))
    _ = model.update(.listed(MemoList(F.rows), error: nil))
    let base = try #require(model.selectedBase)
    _ = model.update(.detailLoaded(base: base, F.detail(cues: 40)))
    model = F.playing(model, at: 10)
    // Nothing to save yet: no loop, no bookmark.
    #expect(model.update(.key(.char("c"))).isEmpty)
    #expect(model.message?.text.contains("set an A-B loop") == true)
    _ = model.update(.key(.char("l")))
    _ = model.update(.player(F.snapshot(model, at: 25)))
    _ = model.update(.key(.char("l")))
    #expect(model.player.loop == PlayerSnapshot.Loop(start: 10, end: 25))
    #expect(model.update(.key(.char("c"))).isEmpty)
    #expect(model.prompt?.purpose == .clipFolder(base: base, from: 10, to: 25))
    #expect(model.prompt?.text == "/home/ana/Documents")
    #expect(BrowserView.render(model).plainText.contains("Save clips in (asked once): /home/ana/Documents"))
    #expect(
      model.update(.key(.enter)) == [
        .saveClip(base: base, from: 10, to: 25, folder: "/home/ana/Documents", remember: true)
      ])
    #expect(model.clipFolder == "/home/ana/Documents")
    // The second time it is not asked, nor remembered again.
    #expect(
      model.update(.key(.char("c"))) == [
        .saveClip(base: base, from: 10, to: 25, folder: "/home/ana/Documents", remember: false)
      ])
    _ = model.update(.clipSaved(.done("Saved 0:10–0:25 as /home/ana/Documents/Walk 0m10s-0m25s.m4a.")))
    #expect(model.message?.text.hasPrefix("Saved 0:10–0:25") == true)
  }

  @Test func withoutALoopCSavesFromTheBookmarkHereToTheNext() throws {
    var model = F.playing(Self.model(bookmarks: [(12, "one"), (50, "two")]), at: 20)
    let base = try #require(model.selectedBase)
    // No folder offered (no XDG_DOCUMENTS_DIR, no HOME): the one typed is used.
    #expect(model.update(.key(.char("c"))).isEmpty)
    #expect(model.prompt?.text == "")
    for c in "/clips" { _ = model.update(.key(.char(c))) }
    #expect(
      model.update(.key(.enter)) == [
        .saveClip(base: base, from: 12, to: 50, folder: "/clips", remember: true)
      ])
    // The last one runs to the audio's end.
    _ = model.update(.player(F.snapshot(model, at: 60, duration: 120)))
    #expect(
      model.update(.key(.char("c"))) == [
        .saveClip(base: base, from: 50, to: 120, folder: "/clips", remember: false)
      ])
  }
}

/// `S` finds bookmarks' notes as well as what was said (issue 48 §1): a note's hit is listed with
/// the bookmark's sign at its moment, and Enter plays from that moment with the transcript cursor
/// on the cue under it.
@Suite struct BrowserBookmarkSearchTests {
  typealias F = BrowserFixture

  @Test func aNotesHitIsMarkedAndPlaysFromItsMoment() throws {
    var model = F.model()
    _ = model.update(.key(.char("S")))
    _ = BrowserPromptTests.typing("budget", into: &model)
    let base = F.rows[0].base
    let note = SpokenHit(
      base: base, order: 0, start: 10.5, cue: nil, text: "budget for Ana", matches: [0..<6])
    #expect(note.isBookmark)
    _ = model.update(
      .spokenHits(generation: model.spokenGeneration, hits: [note], done: 3, total: 3, finished: true))
    let lines = F.lines(BrowserView.render(model))
    #expect(lines.contains { $0.contains("0:10  ▼ [budget] for A") }, "\(lines.joined(separator: "\n"))")
    _ = model.update(.key(.enter))
    let effects = model.update(.key(.enter))
    #expect(effects.contains(.play(base: base, from: 10.5)), "\(effects)")
    // The cue under 0:10.5 (cues are 3 s long from 0): the fourth.
    #expect(model.cueCursor == 3)
  }
}
