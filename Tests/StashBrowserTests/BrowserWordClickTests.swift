import StashBrowser
import Testing

/// A click on a word of the transcript plays from that word, as a tap does in Apple's and
/// Google's recorders; a click beside the words plays the cue from its start.
@Suite struct BrowserWordClickTests {
  typealias F = BrowserFixture

  /// The effects of a click on `text` where the screen shows it, and the cue the cursor is on.
  static func click(_ text: String, in model: inout BrowserModel, dx: Int = 0) throws -> [BrowserEffect] {
    let grid = BrowserView.render(model)
    let y = try #require(F.lines(grid).firstIndex { $0.contains(text) }, "\(text) is not on screen")
    let x = try #require(F.column(of: text, in: grid, row: y))
    return model.update(.mouse(MouseEvent(kind: .click, x: x + dx, y: y)))
  }

  @Test func aClickOnAWordPlaysFromItsTime() throws {
    // Cue 2's words are 0.3 s apart from 6 s on (the fixture's word times).
    var model = F.model()
    let base = try #require(model.selectedBase)
    #expect(try Self.click("word2-5", in: &model) == [.play(base: base, from: 7.5)])
    #expect(model.cueCursor == 2)
    // Anywhere on the word, its last letter too.
    #expect(try Self.click("word3-1", in: &model, dx: 6) == [.play(base: base, from: 9.3)])
    // The time beside a cue, and the space between two words, play the cue from its first word.
    #expect(try Self.click("0:12", in: &model) == [.play(base: base, from: 12)])
    #expect(try Self.click("word4-3 word4-4", in: &model, dx: 7) == [.play(base: base, from: 12)])
  }

  @Test func aWordOnALineTheCueWrappedToIsFoundThere() throws {
    // Twenty words a cue wrap over several lines in a 100-column terminal.
    let detail = MemoDetail(transcript: .cues(F.cues(6, words: 20)), missingSpeech: [], transcriptNotes: [])
    var model = F.model(detail: detail)
    let base = try #require(model.selectedBase)
    let d = try #require(model.detailLayout())
    #expect(d.lineRange(ofCue: 1).count > 2, "the cue does not wrap")
    #expect(try Self.click("word1-19", in: &model) == [.play(base: base, from: 3 + 19 * 0.3)])
    #expect(try Self.click("word1-12", in: &model) == [.play(base: base, from: 3 + 12 * 0.3)])
  }

  @Test func aWordWithoutATimeOfItsOwnPlaysFromTheLastTimeBeforeIt() throws {
    let words = ["Then", "we", "walked", "on"].enumerated().map { i, text in
      MemoDetail.Word(text: text, start: i == 2 ? 4.5 : nil, unconfirmed: i == 3)
    }
    let cue = MemoDetail.Cue(start: 4, end: 6, words: words)
    var model = F.model(detail: MemoDetail(transcript: .cues([cue]), missingSpeech: [], transcriptNotes: []))
    let base = try #require(model.selectedBase)
    #expect(try Self.click("we", in: &model) == [.play(base: base, from: 4)])
    #expect(try Self.click("walked", in: &model) == [.play(base: base, from: 4.5)])
    // An unconfirmed word is shown in ‹ ›; the mark is no word, the word is.
    #expect(try Self.click("‹on›", in: &model, dx: 1) == [.play(base: base, from: 4.5)])
    #expect(try Self.click("‹on›", in: &model) == [.play(base: base, from: 4)])
  }
}
