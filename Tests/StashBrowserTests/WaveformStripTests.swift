import StashBrowser
import Testing

/// The waveform strip over the scrubber: where it goes at every width, what each column shows, how
/// the played part and the marks look, and where a click on it seeks. In-process: the strip's
/// levels come as `.loudness` events, as the runner sends them.
@Suite struct WaveformStripTests {
  typealias F = BrowserFixture

  static let blocks: Set<Character> = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

  /// A strip of `cells` measured cells for the selected memo of `model`, stepping through the
  /// levels -70, -40, -20 and -6 dBFS a quarter of the length each; `unmeasured` and `undecoded`
  /// cells are left unknown.
  static func strip(
    _ model: BrowserModel, cells: Int = 400, unmeasured: Range<Int> = 0..<0, undecoded: Range<Int> = 0..<0
  ) -> LoudnessStrip {
    let steps: [Double] = [-70, -40, -20, -6]
    var levels: [Double?] = (0..<cells).map { steps[$0 * steps.count / cells] }
    var measured = Array(repeating: true, count: cells)
    for i in unmeasured {
      levels[i] = nil
      measured[i] = false
    }
    for i in undecoded { levels[i] = nil }
    return LoudnessStrip(base: model.selectedBase!, levels: levels, measured: measured, floor: -70)
  }

  /// The fixture playing its selected memo (120 s) at `position`, with `strip` known.
  static func playing(
    width: Int = 100, height: Int = 30, at position: Double = 30, loop: PlayerSnapshot.Loop? = nil,
    strip make: ((BrowserModel) -> LoudnessStrip)? = { WaveformStripTests.strip($0) }
  ) -> BrowserModel {
    var model = F.model(width: width, height: height)
    _ = model.update(
      .player(
        PlayerSnapshot(
          state: .playing, base: model.selectedBase, position: position, duration: 120, loop: loop)))
    if let make { _ = model.update(.loudness(make(model))) }
    return model
  }

  /// The text of row `y` cell by cell, one string a column.
  static func cells(_ grid: CellGrid, row y: Int) -> [String] {
    (0..<grid.width).map { grid[$0, y].text }
  }

  @Test func theStripSpansTheScrubberAtEveryWidth() throws {
    let widths = Array(20...300)
    #expect(!widths.isEmpty)
    var stripped = 0
    for width in widths {
      let model = Self.playing(width: width)
      F.checkInvariants(model, "width \(width)")
      let layout = model.layout
      let grid = BrowserView.render(model)
      guard let bar = model.scrubberRange, !layout.tooSmall else {
        // Too narrow for a scrubber (or for the browser): no strip either.
        #expect(layout.strip == nil, "width \(width)")
        continue
      }
      stripped += 1
      let strip = try #require(layout.strip, "width \(width)")
      #expect(strip.x == bar.lowerBound && strip.width == bar.count, "width \(width)")
      #expect(strip.y == model.height - 2 && layout.status.y == model.height - 3, "width \(width)")
      let row = Self.cells(grid, row: strip.y)
      for x in 0..<width {
        let text = row[x]
        if bar.contains(x) {
          #expect(Self.blocks.contains(Character(text)), "width \(width) column \(x): \(text)")
        } else {
          #expect(text == " ", "width \(width): \(text) at \(x) outside the scrubber")
        }
      }
      // The head is in the same column on the strip and on the scrubber beneath.
      let head = bar.lowerBound + ScrubberScale(cells: bar.count, duration: 120).cell(at: 30)
      #expect(grid[head, layout.transport.y].text == "●", "width \(width)")
      #expect(grid[head, strip.y].style == .selected, "width \(width)")
      // Each quarter's level is where the scrubber draws that quarter's middle.
      for (quarter, level) in [-70.0, -40, -20, -6].enumerated() {
        let middle =
          bar.lowerBound + ScrubberScale(cells: bar.count, duration: 120).cell(at: 15 + 30 * Double(quarter))
        #expect(
          row[middle] == String(WaveformStrip.block(level, floor: -70)), "width \(width) quarter \(quarter)")
      }
    }
    // Every width from the browser's narrowest on shows it.
    #expect(stripped == 300 - Layout.minimumWidth + 1)
  }

  @Test func blocksAreLinearInDecibelsFromTheFloorToFullScale() {
    #expect(WaveformStrip.block(-70, floor: -70) == "▁")
    #expect(WaveformStrip.block(-90, floor: -70) == "▁")
    #expect(WaveformStrip.block(0, floor: -70) == "█")
    // A quiet voice in a quiet room stands three steps above silence; a loud one tops out.
    #expect(WaveformStrip.block(-40, floor: -70) == "▄")
    #expect(WaveformStrip.block(-20, floor: -70) == "▆")
    #expect(WaveformStrip.block(-6, floor: -70) == "█")
    let levels = Array(stride(from: -70.0, through: 0, by: 0.5))
    #expect(!levels.isEmpty)
    let heights = levels.map { WaveformStrip.block($0, floor: -70) }
    let order = Array("▁▂▃▄▅▆▇█")
    #expect(
      zip(heights, heights.dropFirst()).allSatisfy { order.firstIndex(of: $0)! <= order.firstIndex(of: $1)! })
    #expect(Set(heights).count == 8)
  }

  @Test func unknownStretchesAreDrawnAsUnknownNeverAsSilence() throws {
    // Cells 40..<60 not measured yet, 300..<340 measured but undecodable; the rest known. A
    // column that holds a decoded cell beside undecodable ones shows what decoded.
    let model = Self.playing(width: 120, strip: { Self.strip($0, unmeasured: 40..<60, undecoded: 300..<340) })
    let strip = try #require(model.layout.strip)
    let scale = ScrubberScale(cells: strip.width, duration: 120)
    let row = Self.cells(BrowserView.render(model), row: strip.y)
    // Cell i covers 0.3 s from 0.3 i: 40..<60 is 12–18 s, 300..<340 is 90–102 s.
    for time in [13.0, 15, 17, 93, 96, 99] {
      #expect(row[strip.x + scale.cell(at: time)] == "·", "\(time) s")
    }
    for time in [5.0, 25, 45, 75, 85, 105] {
      #expect(Self.blocks.contains(Character(row[strip.x + scale.cell(at: time)])), "\(time) s")
    }
    // The silent first quarter is the lowest block, not blank and not unknown.
    #expect(row[strip.x + scale.cell(at: 5)] == "▁")
    // Before the first report nothing is known: every column is unknown.
    let before = Self.playing(width: 120, strip: nil)
    let empty = Self.cells(BrowserView.render(before), row: strip.y)[strip.x..<strip.x + strip.width]
    #expect(empty.allSatisfy { $0 == "·" })
    // A report of another memo is not this one's.
    var other = before
    var foreign = Self.strip(before)
    foreign.base = "someone-else"
    _ = other.update(.loudness(foreign))
    #expect(other.loudness == nil)
  }

  @Test func playedAndToComeAreStyledApartAndReadWithoutColour() throws {
    let model = Self.playing(width: 140, at: 60)
    let strip = try #require(model.layout.strip)
    let grid = BrowserView.render(model)
    let head = strip.x + ScrubberScale(cells: strip.width, duration: 120).cell(at: 60)
    for x in strip.x..<strip.x + strip.width {
      let expected: Style = x < head ? .scrubberDone : x == head ? .selected : .dim
      #expect(grid[x, strip.y].style == expected, "column \(x)")
    }
    // Without colour the three are bold, reverse and dim (Style: colour only adds to an
    // attribute), and the unknown mark is no block, so no colour is needed to read any of it.
    #expect(Set([Style.scrubberDone, .selected, .dim]).count == 3)
    #expect(!Self.blocks.contains(WaveformStrip.unknown))
    // The played part moves with the clock.
    var later = model
    _ = later.update(
      .player(PlayerSnapshot(state: .playing, base: model.selectedBase, position: 90, duration: 120)))
    let moved = BrowserView.render(later)
    let newHead = strip.x + ScrubberScale(cells: strip.width, duration: 120).cell(at: 90)
    #expect(moved[head + 1, strip.y].style == .scrubberDone && moved[newHead, strip.y].style == .selected)
  }

  @Test func loopCueAndHitMarksGoBeneathTheLevels() throws {
    var (model, _) = BrowserSpokenSearchTests.searching("bridge")
    let generation = model.spokenGeneration
    _ = model.update(
      .spokenHits(
        generation: generation,
        hits: [
          BrowserSpokenSearchTests.hit(0, cue: 33, start: 100.5),
          BrowserSpokenSearchTests.hit(1, cue: 5, start: 45),
        ], done: 3, total: 3, finished: true))
    _ = model.update(.resize(width: 240, height: 30))
    _ = model.update(
      .player(
        PlayerSnapshot(
          state: .playing, base: model.selectedBase, position: 30, duration: 120,
          loop: PlayerSnapshot.Loop(start: 60, end: 90))))
    _ = model.update(.loudness(Self.strip(model)))
    let strip = try #require(model.layout.strip)
    let scale = ScrubberScale(cells: strip.width, duration: 120)
    #expect(strip.width >= 80, "40 cues need 80 columns to be marked")
    let grid = BrowserView.render(model)
    let line = Self.cells(grid, row: model.layout.transport.y)
    let levels = Self.cells(grid, row: strip.y)
    func at(_ time: Double) -> Int { strip.x + scale.cell(at: time) }
    #expect(line[at(60)] == "[" && line[at(90)] == "]")
    #expect(line[at(100.5)] == "◆" && grid[at(100.5), model.layout.transport.y].style == .match)
    // The other memo's hit is not this one's.
    #expect(line[at(45)] != "◆")
    // Cues start every 3 s: played ones tick on the played line, the rest on the line to come.
    #expect(line[at(12)] == "┻" && line[at(33)] == "┴" && line[at(51)] == "┴")
    // Every column above a mark still shows its level.
    for time in [12.0, 33, 60, 90, 100.5] { #expect(Self.blocks.contains(Character(levels[at(time)]))) }
    // Too many cues for the width: no ticks (they would fill the line), the other marks stay.
    _ = model.update(.resize(width: 120, height: 30))
    let narrow = try #require(model.layout.strip)
    #expect(narrow.width < 80)
    let crowded = Self.cells(BrowserView.render(model), row: model.layout.transport.y)
    #expect(!crowded.contains("┴") && !crowded.contains("┻"))
    #expect(crowded.contains("[") && crowded.contains("◆"))
  }

  @Test func aClickOnTheStripSeeksAsTheScrubberDoes() throws {
    let model = Self.playing(width: 150)
    let strip = try #require(model.layout.strip)
    let transport = model.layout.transport.y
    let last = strip.x + strip.width - 1
    let middle = strip.x + strip.width / 2
    let expected: [(x: Int, time: Double)] = [
      (strip.x, 0), (last, 120), (middle, 120 * Double(strip.width / 2) / Double(strip.width - 1)),
    ]
    #expect(!expected.isEmpty)
    for (x, time) in expected {
      var onStrip = model
      let effects = onStrip.update(.mouse(MouseEvent(kind: .click, x: x, y: strip.y)))
      guard case .seek(let target) = effects.first else {
        Issue.record("a click at column \(x) of the strip did not seek: \(effects)")
        continue
      }
      #expect(abs(target - time) < 1e-9, "column \(x)")
      // The scrubber beneath seeks to the same time.
      var onScrubber = model
      #expect(onScrubber.update(.mouse(MouseEvent(kind: .click, x: x, y: transport))) == [.seek(target)])
    }
    // Beside the strip, on its row, a click does nothing.
    var beside = model
    #expect(beside.update(.mouse(MouseEvent(kind: .click, x: strip.x - 1, y: strip.y))).isEmpty)
  }

  /// A memo whose file states no length (its index gives the samples no duration): the strip and
  /// the scrubber span the length its access units count, the time left says it is about that
  /// long, and a click seeks on that scale. With nothing counted either, the line says the length
  /// is unknown and no strip is drawn.
  @Test func aLengthTheFileDoesNotStateIsDrawnOnTheCountedScale() throws {
    var model = F.model(width: 120, height: 30)
    _ = model.update(
      .player(
        PlayerSnapshot(
          state: .playing, base: model.selectedBase, position: 30, duration: nil, countedDuration: 120)))
    _ = model.update(.loudness(Self.strip(model)))
    let strip = try #require(model.layout.strip, "a counted length gives the strip its scale")
    let lines = F.lines(BrowserView.render(model))
    let transport = lines[model.layout.transport.y]
    #expect(transport.contains("●") && transport.contains("-≈1:30"), "\(transport)")
    #expect(!transport.contains("length unknown"), "\(transport)")
    let row = Array(lines[strip.y])
    #expect(row[strip.x..<(strip.x + strip.width)].contains { Self.blocks.contains($0) }, "\(lines[strip.y])")
    var clicked = model
    let effects = clicked.update(.mouse(MouseEvent(kind: .click, x: strip.x + strip.width - 1, y: strip.y)))
    #expect(effects == [.seek(120)])
    // Slower than 1x: the real time left is about as long too.
    _ = model.update(
      .player(
        PlayerSnapshot(
          state: .playing, base: model.selectedBase, position: 30, duration: nil, speed: 0.5,
          countedDuration: 120)))
    #expect(F.lines(BrowserView.render(model))[model.layout.transport.y].contains("(≈3:00 real)"))

    var unknown = F.model(width: 120, height: 30)
    _ = unknown.update(.player(PlayerSnapshot(state: .playing, base: unknown.selectedBase, position: 30)))
    _ = unknown.update(.loudness(Self.strip(unknown)))
    #expect(unknown.layout.strip == nil)
    #expect(
      F.lines(BrowserView.render(unknown))[unknown.layout.transport.y].contains("counting up; length unknown")
    )
  }

  @Test func aSmallTerminalKeepsThePlainScrubber() throws {
    let heights = [Layout.minimumHeight, Layout.stripMinimumHeight - 1, Layout.stripMinimumHeight, 40]
    #expect(!heights.isEmpty)
    for height in heights {
      let model = Self.playing(width: 100, height: height)
      let lines = F.lines(BrowserView.render(model))
      #expect(lines[height - 1].contains("●"), "height \(height)")
      if height < Layout.stripMinimumHeight {
        #expect(model.layout.strip == nil && model.layout.status.y == height - 2, "height \(height)")
        #expect(!lines.contains { $0.contains("▁") }, "height \(height)")
      } else {
        #expect(model.layout.strip?.y == height - 2, "height \(height)")
      }
    }
    // Stopped: no scrubber, no strip, and the status line back in its place.
    var stopped = Self.playing()
    _ = stopped.update(.player(.idle))
    #expect(stopped.layout.strip == nil && stopped.layout.status.y == stopped.height - 2)
  }

  @Test func theRowTheStripTakesNeverHidesTheSelection() throws {
    let rows = (0..<20).map {
      F.row("2026-01-\(10 + $0)T10-00-00Z", title: "Memo \($0)", at: F.march14 - Double($0) * 86_400)
    }
    var model = F.model(width: 60, height: 12, rows: rows)
    let list = try #require(model.layout.list)
    // The selection on the list's last row, then that memo plays: the strip takes a row.
    for _ in 0..<list.height - 1 { _ = model.update(.key(.down)) }
    #expect(model.selection == list.height - 1 && model.listTop == 0)
    _ = model.update(.player(F.snapshot(model, at: 1)))
    let shorter = try #require(model.layout.list)
    #expect(model.layout.strip != nil && shorter.height == list.height - 1)
    #expect(model.listTop == 1)
    F.checkInvariants(model, "60x12 with the strip")
  }

  @Test func anotherMemoStopsTheLastMeasureAndStartsItsOwn() {
    var model = F.model()
    let first = model.selectedBase!
    var effects = model.update(
      .player(PlayerSnapshot(state: .playing, base: first, position: 42, duration: 120)))
    #expect(effects.contains(.measureLoudness(base: first, from: 42)))
    // Reports for the memo playing fill the strip as they come.
    var partial = Self.strip(model, unmeasured: 0..<200)
    _ = model.update(.loudness(partial))
    #expect(model.loudness == partial)
    partial = Self.strip(model)
    _ = model.update(.loudness(partial))
    #expect(model.loudness?.complete == true)
    // The same memo again asks for nothing.
    effects = model.update(.player(PlayerSnapshot(state: .paused, base: first, position: 43, duration: 120)))
    #expect(!effects.contains { if case .measureLoudness = $0 { true } else { false } })
    // Another memo: the strip is forgotten and its own measure asked for.
    let second = F.rows[1].base
    effects = model.update(.player(PlayerSnapshot(state: .playing, base: second, position: 0, duration: 60)))
    #expect(effects.contains(.measureLoudness(base: second, from: 0)))
    #expect(model.loudness == nil)
    // A late report of the first is ignored; stopping stops the measure.
    _ = model.update(.loudness(partial))
    #expect(model.loudness == nil)
    effects = model.update(.player(.idle))
    #expect(effects.contains(.measureLoudness(base: nil, from: 0)))
  }
}
