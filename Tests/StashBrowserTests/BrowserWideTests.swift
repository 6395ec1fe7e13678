import StashBrowser
import StashFormat
import Testing

/// A wide terminal is used: the help screen in columns, longer titles, a larger route sketch; an
/// 80- or 100-column screen is as it was.
@Suite struct BrowserWideTests {
  /// The help's lines between the box's sides, trailing blanks dropped.
  static func helpBody(_ grid: CellGrid) -> [String] {
    BrowserFixture.lines(grid).compactMap { line -> String? in
      guard let left = line.firstIndex(of: "│"), let right = line.lastIndex(of: "│"), left < right else {
        return nil
      }
      var inside = String(line[line.index(after: left)..<right])
      while inside.last == " " { inside.removeLast() }
      return inside
    }
  }

  @Test func theHelpHasTwoColumnsOnAWideTerminal() throws {
    #expect(HelpColumns.minimumWidth <= 120)
    var model = BrowserFixture.model(width: 120, height: 50)
    _ = model.update(.key(.char("?")))
    let grid = BrowserView.render(model)
    let body = Self.helpBody(grid)
    // Two group titles on one line: the groups sit side by side.
    let titles = KeyTable.groups.map(\.title)
    let sideBySide = body.filter { line in titles.filter { line.contains(" \($0)") }.count >= 2 }
    #expect(sideBySide.count == 1, "\(body.joined(separator: "\n"))")
    // All of it fits at 50 rows (one column takes 54 lines): no scrolling.
    #expect(!grid.plainText.contains("lines 1–"), "\(grid.plainText)")
    // Every binding's keys are there, each in front of its description's first word.
    for binding in KeyTable.groups.flatMap(\.bindings) {
      let keys = binding.keys.map(\.label).joined(separator: " ")
      let first = String(binding.help.prefix { $0 != " " })
      let shown = body.contains { line in
        line.contains("  " + TextWrap.pad(keys, width: KeyTable.narrowTextColumn - 2) + first)
      }
      #expect(shown, "\(keys) \(binding.help)")
    }
    #expect(body.contains { $0.contains("List marks") })
  }

  @Test func narrowerTheHelpIsOneColumn() {
    var model = BrowserFixture.model(width: HelpColumns.minimumWidth - 1, height: 80)
    _ = model.update(.key(.char("?")))
    let body = Self.helpBody(BrowserView.render(model))
    let titles = KeyTable.groups.map(\.title)
    for line in body { #expect(titles.filter { line.contains(" \($0)") }.count <= 1, "\(line)") }
    // A line per help line, and the blank and footer lines at the bottom of the box.
    #expect(body.count == KeyTable.helpLines().count + 2, "\(body.joined(separator: "\n"))")
  }

  @Test func titlesGrowWithAWideTerminal() throws {
    let title = BrowserFixture.hardNames[2].title!
    let model = BrowserFixture.model(width: 250, height: 40, rows: BrowserFixture.hardNames)
    let lines = BrowserFixture.lines(BrowserView.render(model))
    let row = try #require(lines.first { $0.contains("A very long title") })
    // 100 columns of list: the title gets 68 of them, where 34 was all it had.
    #expect(row.contains(String(title.prefix(67)) + "…"), "\(row)")
    #expect(model.layout.list?.width == Layout.maximumListWidth)
  }

  @Test func theListIsAsItWasUpTo148Columns() {
    for width in Layout.sideBySideWidth...148 {
      let layout = Layout.make(width: width, height: 30, focus: .list)
      #expect(layout.list?.width == min(66, max(38, width * 9 / 20)), "\(width)")
    }
  }

  /// A route of one segment going north-east, then east.
  static let route: MemoDetail.Route = {
    var points: [(Double, Double)] = []
    for i in 0..<50 {
      let latitude: Double = 47.0 + Double(min(i, 25)) * 0.0004
      let longitude: Double = 8.0 + Double(i) * 0.0008
      points.append((latitude, longitude))
    }
    return MemoDetail.Route(distanceMetres: 1200, points: 50, segments: 1, paths: [points])
  }()

  static func sketchWidth(width: Int, height: Int) throws -> (columns: Int, rows: Int) {
    let row = BrowserFixture.rows[0]
    let detail = MemoDetail(
      transcript: .cues(BrowserFixture.cues(3)), missingSpeech: [], transcriptNotes: [], route: route)
    let rect = try #require(
      Layout.make(width: width, height: height, focus: .list).detail
        ?? Layout.make(width: width, height: height, focus: .transcript).detail)
    let layout = DetailLayout.make(row: row, detail: detail, rect: rect, spoken: nil, query: "")
    let sketch = layout.header.filter { line in
      line.text.unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }
    }
    let widths: [Int] = sketch.map { (line: StyledLine) -> Int in line.width }
    return (widths.max() ?? 0, sketch.count)
  }

  @Test func theRouteSketchGrowsWithAWidePane() throws {
    let wide = try Self.sketchWidth(width: 250, height: 50)
    #expect(wide.columns > 32 && wide.columns <= 64 && wide.rows == 6, "\(wide)")
    for (width, height) in [(80, 24), (100, 30), (120, 40)] {
      let usual = try Self.sketchWidth(width: width, height: height)
      #expect(usual.columns <= 32 && usual.rows <= 4, "\(width)x\(height): \(usual)")
    }
  }
}

/// The header says how many of the folder's names belong to no memo, and how many memos need
/// recovery, as `stash ls` does.
@Suite struct BrowserHeaderTests {
  @Test func theHeaderCountsMemosNeedingRecovery() {
    var rows = BrowserFixture.rows
    var model = BrowserFixture.model(width: 120, height: 30, rows: rows)
    #expect(!BrowserFixture.lines(BrowserView.render(model))[0].contains("recovery"))
    rows[1].needsRecovery = true
    model = BrowserFixture.model(width: 120, height: 30, rows: rows)
    #expect(BrowserFixture.lines(BrowserView.render(model))[0].contains(" · 1 needs recovery (R)"))
    rows[2].needsRecovery = true
    model = BrowserFixture.model(width: 120, height: 30, rows: rows)
    #expect(BrowserFixture.lines(BrowserView.render(model))[0].contains(" · 2 need recovery (R)"))
    // A memo read again once recovered is no longer counted.
    var list = MemoList(rows)
    rows[1].needsRecovery = false
    list.fill([(1, rows[1])])
    #expect(list.needingRecovery == 1)
  }

  @Test func theHeaderCountsOtherFiles() {
    var model = BrowserFixture.model(width: 100, height: 30)
    #expect(!BrowserFixture.lines(BrowserView.render(model))[0].contains("other"))
    _ = model.update(.otherFiles(3))
    #expect(
      BrowserFixture.lines(BrowserView.render(model))[0].hasPrefix(
        " stash 3 memos · 3:00 · 3 other files (stash lint)"))
    _ = model.update(.otherFiles(1))
    #expect(BrowserFixture.lines(BrowserView.render(model))[0].contains(" · 1 other file (stash lint)"))
    // A new listing keeps the count until the next one arrives.
    _ = model.update(.listed(MemoList(BrowserFixture.rows), error: nil))
    #expect(model.otherFiles == 1)
  }

  /// A header wider than the screen leaves out whole pieces behind an ellipsis: it once cut
  /// "1 other file" to "1 other f" at 60 columns.
  @Test func aNarrowHeaderLeavesOutWholePieces() {
    var rows = BrowserFixture.rows
    rows[0].needsRecovery = true
    var model = BrowserFixture.model(width: 60, height: 20, rows: rows)
    _ = model.update(.otherFiles(1))
    let header = BrowserFixture.lines(BrowserView.render(model))[0]
    #expect(header.hasPrefix(" stash 3 memos · 3:00 · 1 needs recovery (R) · …"), "\(header)")
    #expect(!header.contains("other"), "\(header)")
    for width in 40...59 {
      model = BrowserFixture.model(width: width, height: 20, rows: rows)
      _ = model.update(.otherFiles(1))
      let line = BrowserFixture.lines(BrowserView.render(model))[0]
      // The summary ends where the folder's path, right-aligned, is set apart by spaces.
      let summary = line.dropFirst(" stash ".count).split(separator: "  ", maxSplits: 1)[0]
      for piece in summary.split(separator: " · ") {
        #expect(
          ["3 memos", "3:00", "1 needs recovery (R)", "1 other file (stash lint)", "…"].contains(
            String(piece)),
          "\(width): \(line)")
      }
    }
  }
}

/// The help in columns leaves the header, the status line and the transport line in view: the
/// background work's progress shows while the keys are read.
@Suite struct BrowserWideHelpPlacementTests {
  @Test func theHelpInColumnsKeepsTheStatusLineInView() {
    var model = BrowserFixture.model(width: 120, height: 30)
    // The sweep's plan is being made.
    #expect(model.update(.key(.char("R"))) == [.planRecovery])
    _ = model.update(.key(.char("?")))
    let lines = BrowserFixture.lines(BrowserView.render(model))
    #expect(lines[0].hasPrefix(" stash 3 memos"), "\(lines[0])")
    #expect(lines[28].hasSuffix("recovering…"), "\(lines[28])")
    #expect(lines[29].hasPrefix(" ■ Stopped."), "\(lines[29])")
    #expect(lines[1].contains("┌─ Keys") && lines[27].contains("┘"), "\(lines.joined(separator: "\n"))")
  }
}
