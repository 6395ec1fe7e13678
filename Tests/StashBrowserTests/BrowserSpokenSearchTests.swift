import StashBrowser
import Testing

/// The search of what was said (`S`): the hit list, narrowing, Escape, Enter and `n`/`N` across
/// memos, all in-process.
@Suite struct BrowserSpokenSearchTests {
  typealias F = BrowserFixture

  /// A hit in memo `row` of the fixture, in cue `cue`, at `start`.
  static func hit(_ row: Int, cue: Int, start: Double, text: String = "the bridge was cold") -> SpokenHit {
    let scalars = Array(text.unicodeScalars)
    let needle = Array("bridge".unicodeScalars)
    let from =
      scalars.count < needle.count
      ? 0 : (0...scalars.count - needle.count).first { Array(scalars[$0..<$0 + needle.count]) == needle } ?? 0
    return SpokenHit(
      base: F.rows[row].base, order: 0, start: start, cue: cue, text: text, matches: [from..<from + 6])
  }

  /// A model with `S` pressed and `text` typed; the effects of the typing.
  static func searching(_ text: String) -> (BrowserModel, [BrowserEffect]) {
    var model = F.model()
    _ = model.update(.key(.char("S")))
    let effects = BrowserPromptTests.typing(text, into: &model)
    return (model, effects)
  }

  @Test func typingAsksTheRunnerAndHitsArriveInBatchesNewestMemoFirst() {
    var (model, effects) = Self.searching("bridge")
    #expect(model.prompt?.purpose == .search)
    #expect(effects.last == .searchSpoken("bridge", generation: model.spokenGeneration))
    let generation = model.spokenGeneration
    // The runner may read the oldest memo first: the list still shows the newest first.
    _ = model.update(
      .spokenHits(
        generation: generation, hits: [Self.hit(2, cue: 4, start: 12.3)], done: 1, total: 3, finished: false))
    _ = model.update(
      .spokenHits(
        generation: generation, hits: [Self.hit(0, cue: 1, start: 3.6), Self.hit(0, cue: 7, start: 21.9)],
        done: 2,
        total: 3, finished: false))
    // A batch of an older search is ignored.
    _ = model.update(
      .spokenHits(
        generation: generation - 1, hits: [Self.hit(1, cue: 0, start: 0)], done: 3, total: 3, finished: true))
    #expect(model.spokenSearch?.hits.map(\.base) == [F.rows[0].base, F.rows[0].base, F.rows[2].base])
    #expect(model.spokenSearch?.progress?.done == 2 && model.spokenSearch?.progress?.total == 3)
    #expect(model.workStatus == "searching what was said: 2 of 3…")
    _ = model.update(.spokenHits(generation: generation, hits: [], done: 3, total: 3, finished: true))
    #expect(model.spokenSearch?.progress == nil && model.workStatus == nil)
    _ = model.update(.key(.enter))
    #expect(model.prompt == nil && model.showsHits)
    _ = model.update(.key(.end))
    // Once the count has gone (any key), the status line says what the keys do in the hit list.
    #expect(
      F.lines(BrowserView.render(model))[model.height - 2].hasPrefix("Enter plays from the hit · ↑/↓ hits"))
    let lines = F.lines(BrowserView.render(model))
    #expect(lines.contains { $0.contains("“bridge”: 3 hits in 2 memos") })
    // Each row: the memo's name as the list shows it, the time, the line with the match marked.
    let first = lines.first { $0.contains("0:03") && $0.contains("Walk by the river") }
    #expect(first?.contains("the [bridge] was") == true)
    #expect(lines.contains { $0.contains("0:12") && $0.contains("2026-03-14") && $0.contains("[bridge]") })
  }

  /// Matches at one time in one cue are one hit, as `stash search` prints one line: each marked.
  @Test func aHitOfSeveralMatchesMarksEach() {
    var model = F.model(width: 200)
    _ = model.update(.key(.char("S")))
    _ = BrowserPromptTests.typing("bridge", into: &model)
    var twice = Self.hit(0, cue: 1, start: 3.6, text: "the bridge and the other bridge")
    twice.matches = [4..<10, 25..<31]
    _ = model.update(
      .spokenHits(generation: model.spokenGeneration, hits: [twice], done: 3, total: 3, finished: true))
    _ = model.update(.key(.enter))
    let lines = F.lines(BrowserView.render(model))
    #expect(lines.contains { $0.contains("“bridge”: 1 hit in 1 memo") }, "\(lines)")
    #expect(lines.contains { $0.contains("the [bridge] and the other [bridge]") }, "\(lines)")
  }

  @Test func typingMoreNarrowsTheHitsFoundAndSearchesAgain() {
    var (model, _) = Self.searching("bri")
    _ = model.update(
      .spokenHits(
        generation: model.spokenGeneration,
        hits: [
          Self.hit(0, cue: 1, start: 3.6), Self.hit(0, cue: 2, start: 6, text: "bring it"),
          Self.hit(2, cue: 4, start: 12.3),
        ],
        done: 3, total: 3, finished: true))
    let effects = BrowserPromptTests.typing("dge", into: &model)
    // At once, before the runner answers: the hits that still hold the longer text stay.
    #expect(model.spokenSearch?.hits.map(\.start) == [3.6, 12.3])
    #expect(model.spokenSearch?.progress != nil)
    #expect(effects.last == .searchSpoken("bridge", generation: model.spokenGeneration))
    // The new search's hits of a memo replace what was kept of it (no duplicates).
    _ = model.update(
      .spokenHits(
        generation: model.spokenGeneration, hits: [Self.hit(0, cue: 1, start: 3.7)], done: 1, total: 3,
        finished: false))
    #expect(model.spokenSearch?.hits.map(\.start) == [3.7, 12.3])
    // A text that does not extend the last starts from nothing.
    _ = model.update(.key(.ctrl("u")))
    _ = BrowserPromptTests.typing("river", into: &model)
    #expect(model.spokenSearch?.hits.isEmpty == true)
  }

  @Test func escapeCancelsTheSearchAndTheList() {
    var (model, _) = Self.searching("bridge")
    let effects = model.update(.key(.escape))
    #expect(model.spokenSearch == nil && model.prompt == nil)
    #expect(effects == [.searchSpoken("", generation: model.spokenGeneration)])
    // Hits of the cancelled search that were still on their way are ignored.
    _ = model.update(
      .spokenHits(
        generation: model.spokenGeneration - 1, hits: [Self.hit(0, cue: 1, start: 3.6)], done: 1, total: 3,
        finished: false))
    #expect(model.spokenSearch == nil)
    // From the hit list, Esc closes it too.
    (model, _) = Self.searching("bridge")
    _ = model.update(.key(.enter))
    #expect(model.showsHits)
    #expect(model.update(.key(.escape)) == [.searchSpoken("", generation: model.spokenGeneration)])
    #expect(!model.showsHits && model.spokenSearch == nil)
    #expect(!F.lines(BrowserView.render(model)).contains { $0.contains("“bridge”") })
  }

  @Test func enterOnAHitOpensItsMemoAndPlaysFromTheHit() {
    var (model, _) = Self.searching("bridge")
    _ = model.update(
      .spokenHits(
        generation: model.spokenGeneration,
        hits: [Self.hit(0, cue: 1, start: 3.6), Self.hit(2, cue: 4, start: 12.3)], done: 3, total: 3,
        finished: true))
    _ = model.update(.key(.enter))
    // Moving in the hit list shows the hit's memo beside it, the cursor on the hit's cue once
    // its transcript is read.
    let base = F.rows[2].base
    #expect(model.update(.key(.down)) == [.loadDetail(base: base)])
    #expect(model.currentHit?.start == 12.3 && model.selectedBase == base && model.showsHits)
    _ = model.update(.detailLoaded(base: base, F.detail(cues: 40)))
    #expect(model.cueCursor == 4)
    let effects = model.update(.key(.enter))
    #expect(effects == [.play(base: base, from: 12.3)])
    #expect(model.selectedBase == base && model.focus == .transcript && model.cueCursor == 4)
    // The transcript pane marks the hits of the search in the open memo.
    _ = model.update(.player(PlayerSnapshot(state: .playing, base: base, position: 12.3, duration: 120)))
    #expect(model.cueCursor == 4)
  }

  @Test func enterOnAHitOfTheMemoPlayingSeeks() {
    var (model, _) = Self.searching("bridge")
    _ = model.update(
      .spokenHits(
        generation: model.spokenGeneration, hits: [Self.hit(0, cue: 7, start: 21.9)], done: 3, total: 3,
        finished: true))
    _ = model.update(.key(.enter))
    _ = model.update(.player(F.snapshot(model, at: 2)))
    #expect(model.update(.key(.enter)) == [.seek(21.9)])
    #expect(model.player.position == 21.9)
  }

  @Test func nAndShiftNStepThroughTheHitsAcrossMemos() {
    var (model, _) = Self.searching("bridge")
    _ = model.update(
      .spokenHits(
        generation: model.spokenGeneration,
        hits: [
          Self.hit(0, cue: 1, start: 3.6), Self.hit(0, cue: 7, start: 21.9), Self.hit(2, cue: 4, start: 12.3),
        ],
        done: 3, total: 3, finished: true))
    _ = model.update(.key(.enter))
    // From the list, n goes to the hit under the cursor.
    _ = model.update(.key(.char("n")))
    #expect(model.selectedBase == F.rows[0].base && model.cueCursor == 1 && model.focus == .transcript)
    _ = model.update(.key(.char("n")))
    #expect(model.selectedBase == F.rows[0].base && model.cueCursor == 7)
    #expect(model.message?.text == "Hit 2 of 3")
    // Into the next memo.
    let effects = model.update(.key(.char("n")))
    // The memo opened is measured for its waveform, nothing playing.
    #expect(effects == [.loadDetail(base: F.rows[2].base), .measureLoudness(base: F.rows[2].base, from: 0)])
    _ = model.update(.detailLoaded(base: F.rows[2].base, F.detail(cues: 40)))
    #expect(model.selectedBase == F.rows[2].base && model.cueCursor == 4)
    // Past the last, back to the first; N goes back.
    _ = model.update(.key(.char("n")))
    #expect(model.message?.text == "Hit 1 of 3 (wrapped)")
    _ = model.update(.key(.char("N")))
    _ = model.update(.detailLoaded(base: F.rows[2].base, F.detail(cues: 40)))
    #expect(model.selectedBase == F.rows[2].base && model.cueCursor == 4)
    #expect(model.message?.text == "Hit 3 of 3 (wrapped)")
    // Esc goes back to the hit list, on the hit last shown.
    _ = model.update(.key(.escape))
    #expect(model.showsHits && model.currentHit?.start == 12.3)
  }

  @Test func withoutASearchNStillMovesInsideTheTranscript() {
    var model = F.model()
    _ = model.update(.key(.char("/")))
    _ = BrowserPromptTests.typing("word5-", into: &model)
    _ = model.update(
      .transcriptMatches(query: "word5-", generation: model.searchGeneration, bases: [F.rows[0].base]))
    _ = model.update(.detailLoaded(base: F.rows[0].base, F.detail(cues: 40)))
    _ = model.update(.key(.enter))
    _ = model.update(.key(.char("n")))
    #expect(model.cueCursor == 5 && model.message?.text.hasPrefix("Cue 1 of") == true)
  }

  @Test func theTranscriptPaneMarksTheHitsOfTheOpenMemo() {
    var (model, _) = Self.searching("word3-2")
    _ = model.update(.key(.enter))
    _ = model.update(.key(.tab))
    let grid = BrowserView.render(model)
    let y = F.lines(grid).firstIndex { $0.contains("word3-2") }
    #expect(y != nil)
    if let y, let x = F.column(of: "word3-2", in: grid, row: y) {
      #expect(grid[x, y].style == .match)
    }
    // A phrase marks each of its words, and only those.
    (model, _) = Self.searching("WORD3-1 word3-2")
    _ = model.update(.key(.enter))
    _ = model.update(.key(.tab))
    let phrase = BrowserView.render(model)
    let row = F.lines(phrase).firstIndex { $0.contains("word3-2") }
    #expect(row != nil)
    if let row {
      for (word, marked) in [("word3-0", false), ("word3-1", true), ("word3-2", true), ("word3-3", false)] {
        let x = F.column(of: word, in: phrase, row: row)
        #expect(x.map { phrase[$0, row].style == .match } == marked, "\(word)")
      }
    }
  }

  /// Narrowing keeps a hit as the runner would find it: folded for case, accents and NFC/NFD.
  @Test func narrowingFoldsAsTheRunnerDoes() {
    #expect(SpokenSearch.holds("Le Café du coin", "CAFE DU"))
    #expect(SpokenSearch.holds("Die Straße", "strasse"))
    #expect(SpokenSearch.holds("re\u{301}sume\u{301}", "résumé"))
    #expect(!SpokenSearch.holds("the bridge", "bridges"))
  }

  /// Cues as a phone writes them: sentences, a phrase running from one into the next, an accent
  /// spelt NFD.
  static let spokenCues: [MemoDetail.Cue] = [
    "What if the spice rack went on the inside of the cupboard door.", "Measure the door first.",
    "The Cafe\u{301} by the bridge.",
  ].enumerated().map { i, sentence in
    let words = sentence.split(separator: " ").map { MemoDetail.Word(text: String($0), unconfirmed: false) }
    return MemoDetail.Cue(start: Double(i) * 3, end: Double(i) * 3 + 3, words: words)
  }

  /// The runs of text the transcript pane marks for `query`, each cue's in order.
  static func marked(_ query: String) throws -> [[String]] {
    let detail = MemoDetail(transcript: .cues(spokenCues), missingSpeech: [], transcriptNotes: [])
    let rect = try #require(F.model().layout.detail)
    let layout = DetailLayout.make(row: F.rows[0], detail: detail, rect: rect, spoken: nil, query: query)
    var runs = [[String]](repeating: [], count: spokenCues.count)
    var open = false
    for line in layout.lines where line.cue >= 0 {
      for span in line.text.spans {
        if span.style == Style.match {
          if open {
            runs[line.cue][runs[line.cue].count - 1] += span.text
          } else {
            runs[line.cue].append(span.text)
          }
        }
        open = span.style == Style.match
      }
    }
    return runs
  }

  /// The pane marks what the search finds, as `stash search` finds it: only the matching
  /// characters, a phrase across two cues in both, accents folded with the whole letter marked.
  @Test func theTranscriptPaneMarksWhatTheSearchFindsAndNothingElse() throws {
    #expect(try Self.marked("ice") == [["ice"], [], []])
    #expect(try Self.marked("door. measure") == [["door."], ["Measure"], []])
    #expect(try Self.marked("THE DOOR") == [[], ["the door"], []])
    #expect(try Self.marked("cafe") == [[], [], ["Cafe\u{301}"]])
    #expect(try Self.marked("café by") == [[], [], ["Cafe\u{301} by"]])
    #expect(try Self.marked("shelves") == [[], [], []])
    // Wrapped over lines, a phrase is marked on each.
    let long = "spice rack went on the inside of the cupboard door"
    let runs = try Self.marked(long)[0]
    #expect(runs.count > 1 && runs.joined(separator: " ") == long, "\(runs)")
    #expect(runs.allSatisfy { !$0.hasSuffix(" ") })
  }

  /// `n`/`N` after a `/` filter find what the pane marks: accents folded, a phrase across cues
  /// once, at the cue it starts in.
  @Test func theFilterFindsInTheTranscriptWhatThePaneMarks() {
    func afterFilter(_ text: String) -> BrowserModel {
      let detail = MemoDetail(transcript: .cues(Self.spokenCues), missingSpeech: [], transcriptNotes: [])
      var model = F.model(detail: detail)
      _ = model.update(.key(.char("/")))
      _ = BrowserPromptTests.typing(text, into: &model)
      _ = model.update(
        .transcriptMatches(query: text, generation: model.searchGeneration, bases: [F.rows[0].base]))
      _ = model.update(.detailLoaded(base: F.rows[0].base, detail))
      _ = model.update(.key(.enter))
      _ = model.update(.key(.char("n")))
      return model
    }
    var model = afterFilter("cafe")
    #expect(model.cueCursor == 2 && model.message?.text == "Cue 1 of 1 with “cafe”")
    // The cursor starts on the first cue: the next match from there is that one again.
    model = afterFilter("door. measure")
    #expect(model.cueCursor == 0 && model.message?.text == "Cue 1 of 1 with “door. measure”, wrapped")
    model = afterFilter("DOOR")
    #expect(model.cueCursor == 1 && model.message?.text == "Cue 2 of 2 with “DOOR”")
    // The cursor steps from cue to cue; where a cue holds more than one match, the count says so.
    model = afterFilter("the")
    #expect(model.cueCursor == 1 && model.message?.text == "Cue 2 of 3 with “the” (6 matches)")
    model = afterFilter("shelves")
    #expect(model.message?.text == "“shelves” is not in this transcript.")
  }

  /// The filter keeps a memo by its name as the search finds words: case and accents folded.
  @Test func theFilterFindsNamesAsTheSearchDoes() {
    let rows = [
      F.row("2026-07-20T07-45-10Z", title: "Le CAFÉ du coin", at: F.march14 + 86_400),
      F.row("2026-05-01T18-05-00Z", title: "Die Straße", at: F.march14),
    ]
    for (typed, shown) in [("cafe", 0), ("strasse", 1), ("du  coin", 0)] {
      var model = F.model(rows: rows)
      _ = model.update(.key(.char("/")))
      _ = BrowserPromptTests.typing(typed, into: &model)
      #expect(model.visible == [shown], "\(typed)")
    }
  }

  @Test func aClickInTheHitListPicksTheHitUnderIt() throws {
    var (model, _) = Self.searching("bridge")
    _ = model.update(
      .spokenHits(
        generation: model.spokenGeneration,
        hits: [Self.hit(0, cue: 1, start: 3.6), Self.hit(2, cue: 4, start: 12.3)], done: 3, total: 3,
        finished: true))
    _ = model.update(.key(.enter))
    let list = try #require(model.layout.list)
    // The first row of the pane says what was searched; the hits start on the next.
    _ = model.update(.mouse(MouseEvent(kind: .click, x: list.x + 3, y: list.y + 2)))
    #expect(model.currentHit?.start == 12.3 && model.selectedBase == F.rows[2].base && model.showsHits)
    _ = model.update(.mouse(MouseEvent(kind: .click, x: list.x + 3, y: list.y)))
    #expect(model.currentHit?.start == 12.3)
  }
}

/// The hit list while the words are still being typed: the memo beside it, the moving keys, the
/// words recalled by `S`, and a prompt longer than the line.
@Suite struct BrowserSpokenSearchPromptTests {
  typealias F = BrowserFixture
  typealias S = BrowserSpokenSearchTests

  /// The first hit to arrive is shown beside the list at once (its memo, its cue), and so is the
  /// hit that comes to be under the cursor when a newer memo's hits arrive above it. (The pane
  /// once went on showing the memo selected before the search until the cursor moved.)
  @Test func theMemoBesideTheHitsIsTheCursorsHit() {
    var (model, _) = S.searching("bridge")
    let generation = model.spokenGeneration
    #expect(model.selectedBase == F.rows[0].base)
    var effects = model.update(
      .spokenHits(
        generation: generation, hits: [S.hit(2, cue: 4, start: 12.3)], done: 1, total: 3, finished: false))
    #expect(model.selectedBase == F.rows[2].base && model.prompt?.purpose == .search)
    #expect(effects.contains(.loadDetail(base: F.rows[2].base)))
    _ = model.update(.detailLoaded(base: F.rows[2].base, F.detail(cues: 10)))
    #expect(model.cueCursor == 4)
    effects = model.update(
      .spokenHits(
        generation: generation, hits: [S.hit(1, cue: 2, start: 5)], done: 2, total: 3, finished: false))
    #expect(model.spokenSearch?.cursor == 0 && model.currentHit?.base == F.rows[1].base)
    #expect(model.selectedBase == F.rows[1].base && effects.contains(.loadDetail(base: F.rows[1].base)))
    // A batch that leaves the cursor's hit where it was changes nothing.
    _ = model.update(.detailLoaded(base: F.rows[1].base, F.detail(cues: 10)))
    effects = model.update(.spokenHits(generation: generation, hits: [], done: 3, total: 3, finished: true))
    #expect(effects.isEmpty && model.selectedBase == F.rows[1].base && model.cueCursor == 2)
  }

  /// Transcripts that did not read whole are counted on the hit list's first line, as `stash
  /// search` warns of them; words too long for the line are cut inside their quotes.
  @Test func troubledTranscriptsAreCountedAndLongWordsCut() {
    var model = F.model(width: 400)
    _ = model.update(.key(.char("S")))
    _ = BrowserPromptTests.typing("socks", into: &model)
    _ = model.update(
      .spokenHits(
        generation: model.spokenGeneration, hits: [], done: 3, total: 3, finished: true,
        troubled: [
          SpokenTrouble(base: F.rows[1].base, unreadable: false),
          SpokenTrouble(base: F.rows[2].base, unreadable: true),
        ]))
    _ = model.update(.key(.enter))
    var lines = F.lines(BrowserView.render(model))
    #expect(
      lines.contains {
        $0.contains(
          "“socks” was not said in any memo · 1 damaged transcript searched in part · 1 transcript unreadable"
        )
      }, "\(lines)")
    (model, _) = S.searching(String(repeating: "long words ", count: 20))
    _ = model.update(.key(.enter))
    _ = model.update(
      .spokenHits(generation: model.spokenGeneration, hits: [], done: 3, total: 3, finished: true))
    lines = F.lines(BrowserView.render(model))
    #expect(lines.contains { $0.contains("…” was not said in any memo.") }, "\(lines)")
  }

  /// ↑ and ↓ move through the hits while the prompt is open; the words stay as typed.
  @Test func upAndDownMoveThroughTheHitsWhileTyping() {
    var (model, _) = S.searching("bridge")
    _ = model.update(
      .spokenHits(
        generation: model.spokenGeneration, hits: [S.hit(0, cue: 1, start: 3), S.hit(2, cue: 4, start: 12)],
        done: 3, total: 3, finished: true))
    let effects = model.update(.key(.down))
    #expect(model.spokenSearch?.cursor == 1 && model.selectedBase == F.rows[2].base)
    #expect(effects.contains(.loadDetail(base: F.rows[2].base)))
    #expect(model.prompt?.text == "bridge" && model.prompt?.purpose == .search)
    _ = model.update(.key(.up))
    #expect(model.spokenSearch?.cursor == 0 && model.selectedBase == F.rows[0].base)
    _ = BrowserPromptTests.typing(" x", into: &model)
    #expect(model.prompt?.text == "bridge x")
  }

  /// `S` again recalls the words, selected: typing replaces them, Backspace removes them, a
  /// moving key keeps them to edit.
  @Test func wordsRecalledAreReplacedByTyping() {
    var (model, _) = S.searching("bridge")
    _ = model.update(.key(.enter))
    _ = model.update(.key(.char("S")))
    #expect(model.prompt?.text == "bridge" && model.prompt?.selected == true)
    let effects = BrowserPromptTests.typing("cold", into: &model)
    #expect(model.prompt?.text == "cold" && model.prompt?.selected == false)
    #expect(effects.last == .searchSpoken("cold", generation: model.spokenGeneration))
    _ = model.update(.key(.enter))
    _ = model.update(.key(.char("S")))
    _ = model.update(.key(.backspace))
    #expect(model.prompt?.text == "" && model.spokenSearch == nil)
    _ = BrowserPromptTests.typing("bridge", into: &model)
    _ = model.update(.key(.enter))
    _ = model.update(.key(.char("S")))
    _ = model.update(.key(.left))
    _ = BrowserPromptTests.typing("x", into: &model)
    #expect(model.prompt?.text == "bridgxe")
  }

  /// Words longer than the line scroll: the end typed stays in view after `…`, with the cursor
  /// cell shown; Home brings the start back.
  @Test func aLongPromptKeepsItsCursorInView() throws {
    var model = F.model(width: 60)
    _ = model.update(.key(.char("S")))
    let words = (1...30).map { "word\($0)" }.joined(separator: " ")
    _ = BrowserPromptTests.typing(words, into: &model)
    // Searched (the work shown at the line's end while it runs takes cells of its own).
    _ = model.update(
      .spokenHits(generation: model.spokenGeneration, hits: [], done: 3, total: 3, finished: true))
    var grid = BrowserView.render(model)
    var lines = F.lines(grid)
    let row = try #require(lines.lastIndex { $0.hasPrefix("Search what was said: ") })
    #expect(lines[row].hasPrefix("Search what was said: …"), "\(lines[row])")
    #expect(lines[row].hasSuffix("word29 word30"), "\(lines[row])")
    #expect(grid[59, row].style == .selected)
    _ = model.update(.key(.home))
    grid = BrowserView.render(model)
    lines = F.lines(grid)
    #expect(lines[row].hasPrefix("Search what was said: word1 word2"), "\(lines[row])")
    #expect(grid[22, row].style == .selected && grid[22, row].text == "w")
  }
}
