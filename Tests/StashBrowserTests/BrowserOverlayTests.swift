import StashBrowser
import Testing

/// The boxes over the panes: help, reports, and the question before a delete.
@Suite struct BrowserOverlayTests {
  @Test func helpListsEveryBindingAndScrolls() {
    var model = BrowserFixture.model(width: 100, height: 20)
    _ = model.update(.key(.char("?")))
    let text = BrowserView.render(model).plainText
    #expect(text.contains("lines 1–14 of"))
    _ = model.update(.key(.down))
    _ = model.update(.key(.down))
    #expect(model.overlayTop == 2)
    #expect(BrowserView.render(model).plainText.contains("lines 3–16 of"))
    for _ in 0..<6 { _ = model.update(.key(.pageDown)) }
    // Scrolled past the end, it shows the last page.
    let last = BrowserView.render(model).plainText
    #expect(last.contains("wheel scrolls"))
    _ = model.update(.key(.char("x")))
    #expect(model.overlay == nil)
  }

  @Test func theHelpScreenShowsEveryBindingOfTheTable() {
    // Wide enough for two columns with every description on one line.
    var model = BrowserFixture.model(width: 200, height: 70)
    _ = model.update(.key(.char("?")))
    let text = BrowserView.render(model).plainText
    let bindings = KeyTable.groups.flatMap(\.bindings)
    #expect(bindings.count > 20)
    for binding in bindings { #expect(text.contains(binding.help), "\(binding.help)") }
  }

  @Test func aReportClosesOnAnyKeyButTheScrollKeys() {
    var model = BrowserFixture.model()
    let effects = model.update(.recovered(.report(title: "Recovered", lines: ["one memo assembled"])))
    #expect(effects == [.list])
    #expect(BrowserView.render(model).plainText.contains("one memo assembled"))
    _ = model.update(.key(.up))
    #expect(model.overlay != nil)
    _ = model.update(.key(.char("q")))
    #expect(model.overlay == nil && !model.finished)
  }

  /// A recovery report that kept parts as the sign of a loss asks, under the report, whether to
  /// accept it: y runs the sweep accepting it, n keeps the parts; either way the sweep is over.
  @Test func aReportThatKeptALossAsksToAcceptIt() {
    var model = BrowserFixture.model()
    _ = model.update(.key(.char("R")))
    #expect(model.recovering)
    let lines = ["2026-04-03T09-00-00", "  kept: the parts stay beside the transcript"]
    #expect(model.update(.recovered(.lossReport(title: "Recovery", lines: lines))).isEmpty)
    #expect(
      model.overlay
        == .confirm(
          title: "Recovery", lines: lines + ["", BrowserModel.acceptLossQuestion], action: .acceptLoss))
    #expect(model.recovering, "the sweep is not over while it asks")
    let text = BrowserView.render(model).plainText
    #expect(text.contains("kept: the parts stay") && text.contains("y accepts the loss · n keeps the parts"))
    var yes = model
    #expect(yes.update(.key(.char("y"))) == [.acceptLoss])
    #expect(yes.overlay == nil && yes.recovering)
    _ = yes.update(.recovered(.report(title: "Recovery", lines: ["the loss was accepted"])))
    #expect(!yes.recovering && yes.overlay == .report(title: "Recovery", lines: ["the loss was accepted"]))
    var no = model
    #expect(no.update(.key(.char("n"))).isEmpty)
    #expect(no.overlay == nil && !no.recovering)
    // Another key leaves the question up.
    var other = model
    #expect(other.update(.key(.char("x"))).isEmpty && other.overlay == model.overlay)
  }

  @Test func aFailureIsShownAsAReport() {
    var model = BrowserFixture.model()
    _ = model.update(.actionFinished(.failed("the folder is read-only")))
    #expect(model.overlay == .report(title: "Not done", lines: ["the folder is read-only"]))
  }

  @Test func deleteAsksNamingEveryFileAndYesDeletes() throws {
    var model = BrowserFixture.playing(BrowserFixture.model(), at: 3)
    let base = try #require(model.selectedBase)
    _ = model.update(.key(.char("d")))
    let text = BrowserView.render(model).plainText
    #expect(text.contains("Move to the Trash?"))
    for file in model.memos[0].files { #expect(text.contains(file)) }
    // Any key but y or n leaves the question up.
    #expect(model.update(.key(.char("x"))) == [] && model.overlay != nil)
    #expect(model.update(.key(.char("y"))) == [.stop, .delete(base: base, permanently: false)])
    var kept = BrowserFixture.model()
    _ = kept.update(.key(.char("d")))
    #expect(kept.update(.key(.char("n"))) == [])
    #expect(kept.message?.text == "Nothing deleted.")
  }

  @Test func whenTheTrashCannotTakeThemItAsksAgainForGood() throws {
    var model = BrowserFixture.model()
    let base = try #require(model.selectedBase)
    _ = model.update(.key(.char("d")))
    _ = model.update(.key(.char("y")))
    #expect(model.message?.text == "Moving to the Trash…")
    _ = model.update(.actionFinished(.trashUnavailable(base: base, reason: "the Trash is on another disk")))
    // What was said while it ran is over: the question is now another (it once stayed below it).
    #expect(model.message == nil)
    let text = BrowserView.render(model).plainText
    #expect(text.contains("Delete for good?"))
    #expect(text.contains("The Trash cannot take them: the Trash is on another disk"))
    #expect(model.update(.key(.char("y"))) == [.delete(base: base, permanently: true)])
  }

  /// A defect a new user found: in a 60-column help screen, a description that wraps started
  /// its second line at the box's edge instead of under the first.
  @Test func wrappedHelpLinesStartUnderTheirDescription() throws {
    var model = BrowserFixture.model(width: 60, height: 40)
    _ = model.update(.key(.char("?")))
    let grid = BrowserView.render(model)
    let lines = BrowserFixture.lines(grid)
    let enter = try #require(lines.firstIndex { $0.contains("open the memo;") })
    let column = try #require(BrowserFixture.column(of: "open the memo;", in: grid, row: enter))
    // The description did not fit, so its next line goes on under it.
    #expect(!lines[enter].contains("first word"))
    let next = lines[enter + 1]
    #expect(next.contains("word"), "\(next)")
    let start = try #require(next.firstIndex { $0 != " " && $0 != "│" })
    #expect(
      BrowserFixture.column(of: String(next[start...].prefix(4)), in: grid, row: enter + 1) == column,
      "\(lines[enter])\n\(next)")
  }
}

/// Counts in words agree with their number.
@Suite struct BrowserCountWordsTests {
  @Test func aDeleteOfOneFileSaysThisFile() {
    // A memo of one file (its audio), then one of two (its audio and transcript).
    let audioOnly = BrowserFixture.row("b", at: BrowserFixture.march14, transcript: false)
    var model = BrowserFixture.model(width: 100, height: 30, rows: [audioOnly])
    _ = model.update(.key(.char("d")))
    #expect(
      model.overlay == .confirmDelete(base: "b", files: ["b_audio.m4a"], permanently: false, reason: nil))
    let one = BrowserView.render(model).plainText
    #expect(one.contains("This file will go to the Trash:") && !one.contains("These 1"))
    #expect(one.contains("y moves it to the Trash · n keeps it") && !one.contains("them"))
    _ = model.update(.key(.char("y")))
    _ = model.update(.actionFinished(.trashUnavailable(base: "b", reason: "no Trash")))
    #expect(
      model.overlay
        == .confirmDelete(base: "b", files: ["b_audio.m4a"], permanently: true, reason: "no Trash"))
    let forGood = BrowserView.render(model).plainText
    #expect(forGood.contains("This file will be deleted permanently; it cannot"))
    #expect(forGood.contains("The Trash cannot take it: no Trash") && forGood.contains("n keeps it"))
    let two = BrowserFixture.row("b", at: BrowserFixture.march14)
    model = BrowserFixture.model(width: 100, height: 30, rows: [two])
    _ = model.update(.key(.char("d")))
    #expect(
      model.overlay
        == .confirmDelete(
          base: "b", files: ["b_audio.m4a", "b_transcription.vtt"], permanently: false, reason: nil))
    let both = BrowserView.render(model).plainText
    #expect(both.contains("These 2 files will go to the Trash:"))
    #expect(both.contains("y moves them to the Trash · n keeps them"))
  }
}
