import StashBrowser
import StashFormat
import Testing

/// The screen at the sizes people use, with names that are wide, right to left or very long.
@Suite struct BrowserLayoutTests {
  static let sizes: [(width: Int, height: Int)] = [
    (40, 10), (44, 12), (50, 15), (60, 20), (80, 24), (89, 30), (90, 30), (100, 30), (120, 40), (160, 45),
    (200, 50),
  ]

  @Test func everySizeDrawsAWholeScreen() throws {
    #expect(!Self.sizes.isEmpty)
    for size in Self.sizes {
      for focus in [BrowserModel.Focus.list, .transcript] {
        var model = BrowserFixture.model(
          width: size.width, height: size.height, rows: BrowserFixture.hardNames)
        if focus == .transcript { _ = model.update(.key(.enter)) }
        let context = "\(size.width)x\(size.height) \(focus)"
        BrowserFixture.checkInvariants(model, "\(context)")
        let grid = BrowserView.render(model)
        let lines = BrowserFixture.lines(grid)
        #expect(lines[0].hasPrefix(" stash 5 memos"), "\(context): \(lines[0])")
        // The transport line is the last row, the status line the one above (or above the
        // waveform strip, which an opened memo shows over its scrubber while nothing plays).
        let layout = model.layout
        if focus == .transcript {
          #expect(
            lines[size.height - 1].hasPrefix(" ■ 0:00 ") && model.preview != nil
              && (lines[size.height - 1].contains("Stopped:") || size.width < 60),
            "\(context): \(lines.last!)")
        } else {
          #expect(lines[size.height - 1].hasPrefix(" ■ Stopped."), "\(context)")
        }
        let strip = layout.strip == nil ? 0 : 1
        #expect(
          strip == 0 || (focus == .transcript && size.height >= Layout.stripMinimumHeight), "\(context)")
        #expect(layout.status.y == size.height - 2 - strip && layout.transport.y == size.height - 1)
        if size.width >= Layout.sideBySideWidth {
          let divider = try #require(layout.divider, "\(context)")
          for y in 1..<layout.status.y { #expect(grid[divider, y].text == "│", "\(context) row \(y)") }
        } else {
          #expect(layout.divider == nil && (layout.list == nil) == (focus == .transcript), "\(context)")
        }
      }
    }
  }

  @Test func everyListRowShowsItsDateAndFitsItsPane() throws {
    for size in Self.sizes {
      let model = BrowserFixture.model(width: size.width, height: size.height, rows: BrowserFixture.hardNames)
      let grid = BrowserView.render(model)
      let list = try #require(model.layout.list)
      for (index, memo) in model.memos.enumerated() where index < list.height {
        let y = list.y + index
        // The day is always there: with the year from 44 columns, month and day below.
        let date = TimeText.date(memo.recordedAt)
        let day = list.width >= 44 ? String(date.prefix(10)) : String(date.dropFirst(5).prefix(5))
        #expect(
          BrowserFixture.column(of: day, in: grid, row: y) == 2, "\(size.width)x\(size.height): \(memo.base)")
        // Nothing of the row spills over the divider.
        if let divider = model.layout.divider { #expect(grid[divider, y].text == "│") }
      }
    }
  }

  @Test func rightToLeftNamesAreIsolatedAndWideNamesAreNeverHalved() throws {
    for size in Self.sizes {
      let model = BrowserFixture.model(width: size.width, height: size.height, rows: BrowserFixture.hardNames)
      let lines = BrowserFixture.lines(BrowserView.render(model))
      let context = "\(size.width)x\(size.height)"
      let hebrew = try #require(lines.first { $0.contains("שלום") }, "\(context)")
      #expect(hebrew.contains("⁅") && hebrew.contains("⁆"), "\(context): \(hebrew)")
      let arabic = try #require(lines.first { $0.contains("مرحبا") || $0.contains("مر") }, "\(context)")
      #expect(arabic.contains("⁆"), "\(context): \(arabic)")
      // The long wide title is whole, or cut with an ellipsis between graphemes (checkCells
      // sees any half).
      let wide = try #require(lines.first { $0.contains("会議") }, "\(context)")
      #expect(wide.contains("…") || wide.contains(BrowserFixture.hardNames[1].title!), "\(context): \(wide)")
    }
  }

  @Test func theDetailPaneKeepsThreeTranscriptLinesAtTheSmallestSize() {
    var model = BrowserFixture.model(width: 40, height: 10)
    _ = model.update(.key(.enter))
    let d = model.detailLayout()
    #expect(d != nil && d!.transcriptRect.height >= 3)
  }

  @Test func aResizeKeepsTheSelectionAndTheCursorInView() {
    var model = BrowserFixture.playing(BrowserFixture.model(width: 200, height: 50), at: 100)
    for size in Self.sizes.reversed() + Self.sizes {
      _ = model.update(.resize(width: size.width, height: size.height))
      BrowserFixture.checkInvariants(model, "\(size.width)x\(size.height)")
      if let d = model.detailLayout() {
        let range = d.lineRange(ofCue: model.cueCursor)
        #expect(range.lowerBound >= model.transcriptTop, "\(size.width)x\(size.height)")
        #expect(
          range.lowerBound < model.transcriptTop + d.transcriptRect.height, "\(size.width)x\(size.height)")
      }
    }
  }
}
