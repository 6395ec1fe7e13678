/// A rectangle of cells: everything the browser draws goes here first, so a screen can be
/// compared as plain text in tests and curses only copies it to the terminal.
package struct CellGrid: Equatable, Sendable {
  /// Columns.
  package let width: Int
  /// Rows.
  package let height: Int
  /// Row-major cells.
  package private(set) var cells: [Cell]

  /// A blank grid.
  package init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: .blank, count: self.width * self.height)
  }

  /// The cell at column `x`, row `y`.
  package subscript(x: Int, y: Int) -> Cell {
    cells[y * width + x]
  }

  /// Fills a rectangle with blanks of `style`.
  package mutating func fill(_ rect: Rect, style: Style = .normal) {
    let r = rect.clipped(to: Rect(x: 0, y: 0, width: width, height: height))
    guard r.width > 0, r.height > 0 else { return }
    for y in r.y..<r.y + r.height {
      for x in r.x..<r.x + r.width { set(x, y, Cell(text: " ", width: 1, style: style)) }
    }
  }

  /// Writes `text` from column `x` on row `y`, at most `limit` cells wide (to the grid's edge when
  /// nil); returns the column after the last cell written. A wide grapheme that would not fit
  /// whole is replaced by blanks, never cut in half; controls and bidirectional overrides are
  /// neutralised so a hostile title cannot move the cursor or reorder the row. Text with
  /// right-to-left letters is isolated (see `isolate`).
  @discardableResult
  package mutating func put(_ text: String, x: Int, y: Int, style: Style = .normal, limit: Int? = nil) -> Int
  {
    guard y >= 0, y < height, x < width else { return x }
    let column = write(text, x: x, y: y, style: style, limit: limit)
    if column > max(0, x), CellGrid.hasRightToLeft(text) { isolate(from: max(0, x), to: column, y: y) }
    return column
  }

  /// First Strong Isolate and Pop Directional Isolate: zero-width marks that make a run of text
  /// one neutral unit to the bidirectional algorithm of a bidi-aware terminal.
  package static let isolateStart: Unicode.Scalar = "\u{2068}"
  package static let isolateEnd: Unicode.Scalar = "\u{2069}"

  /// Brackets the cells `from..<to` of row `y` with FSI and PDI, so a bidi-aware terminal
  /// reorders a right-to-left name only inside its own cells and never moves the columns around
  /// it. The marks ride as zero-width characters (curses sends them as combining characters
  /// after the cell's own): FSI on the cell before the run (none at column 0), PDI on its last.
  private mutating func isolate(from: Int, to: Int, y: Int) {
    if from > 0 {
      var before = from - 1
      if cells[y * width + before].isContinuation, before > 0 { before -= 1 }
      cells[y * width + before].text.unicodeScalars.append(CellGrid.isolateStart)
    }
    var last = to - 1
    if cells[y * width + last].isContinuation, last > from { last -= 1 }
    cells[y * width + last].text.unicodeScalars.append(CellGrid.isolateEnd)
  }

  /// Whether `text` has a strong right-to-left letter (Hebrew, Arabic, Syriac, Thaana, N'Ko and
  /// the other right-to-left blocks and presentation forms).
  package static func hasRightToLeft(_ text: String) -> Bool {
    text.unicodeScalars.contains { s in
      switch s.value {
      case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
      default: false
      }
    }
  }

  /// The body of `put`: the cells, without the isolation.
  private mutating func write(_ text: String, x: Int, y: Int, style: Style, limit: Int?) -> Int {
    let end = min(width, limit.map { x + max(0, $0) } ?? width)
    var column = x
    for character in text {
      guard column < end else { break }
      let (shown, w) = CellGrid.displayable(character)
      if w == 0 { continue }
      if column + w > end {
        // The wide grapheme does not fit: pad instead of cutting it.
        while column < end {
          if column >= 0 { set(column, y, Cell(text: " ", width: 1, style: style)) }
          column += 1
        }
        break
      }
      if column >= 0 {
        set(column, y, Cell(text: shown, width: UInt8(w), style: style))
        if w == 2 { set(column + 1, y, Cell(text: "", width: 0, style: style)) }
      }
      column += w
    }
    return column
  }

  /// Writes styled spans one after the other; returns the column after the last.
  @discardableResult
  package mutating func put(_ line: StyledLine, x: Int, y: Int, limit: Int? = nil) -> Int {
    let end = limit.map { x + $0 } ?? width
    var column = x
    let fieldStart = line.isolatedFrom ?? line.spans.count
    for span in line.spans[..<min(fieldStart, line.spans.count)] {
      column = put(span.text, x: column, y: y, style: span.style, limit: max(0, end - column))
    }
    guard fieldStart < line.spans.count, y >= 0, y < height else { return column }
    let start = column
    var field = ""
    for span in line.spans[fieldStart...] {
      guard column < width else { break }
      column = write(span.text, x: column, y: y, style: span.style, limit: max(0, end - column))
      field += span.text
    }
    if column > max(0, start), CellGrid.hasRightToLeft(field) {
      isolate(from: max(0, start), to: column, y: y)
    }
    return column
  }

  /// Sets the style of a run of cells, keeping their text (used to paint selection bars).
  package mutating func restyle(_ rect: Rect, style: Style) {
    let r = rect.clipped(to: Rect(x: 0, y: 0, width: width, height: height))
    guard r.width > 0, r.height > 0 else { return }
    for y in r.y..<r.y + r.height {
      for x in r.x..<r.x + r.width { cells[y * width + x].style = style }
    }
  }

  /// The rows as plain text, trailing blanks trimmed: what a golden screen compares. The
  /// isolation marks are shown as `⁅` and `⁆` so a golden screen shows where they are.
  package var plainText: String {
    var lines: [String] = []
    for y in 0..<height {
      var line = ""
      for x in 0..<width {
        let c = self[x, y]
        if c.isContinuation { continue }
        for scalar in c.text.unicodeScalars {
          switch scalar {
          case CellGrid.isolateStart: line += "⁅"
          case CellGrid.isolateEnd: line += "⁆"
          default: line.unicodeScalars.append(scalar)
          }
        }
      }
      while line.hasSuffix(" ") { line.removeLast() }
      lines.append(line)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Writing a cell over half of a wide grapheme blanks its other half, so no half survives.
  private mutating func set(_ x: Int, _ y: Int, _ cell: Cell) {
    guard x >= 0, x < width, y >= 0, y < height else { return }
    let i = y * width + x
    let old = cells[i]
    if old.isContinuation, x > 0 {
      cells[i - 1] = Cell(text: " ", width: 1, style: cells[i - 1].style)
    } else if old.width == 2, x + 1 < width, cell.width != 2 {
      cells[i + 1] = Cell(text: " ", width: 1, style: old.style)
    }
    if cell.width == 2, x + 1 >= width {
      cells[i] = Cell(text: " ", width: 1, style: cell.style)
      return
    }
    cells[i] = cell
  }

  /// What a grapheme is drawn as, and its width: controls become a visible mark, bidirectional
  /// controls and other zero-width graphemes are dropped.
  package static func displayable(_ character: Character) -> (String, Int) {
    let first = character.unicodeScalars.first!.value
    if first < 0x20 || (0x7F...0x9F).contains(first) { return ("\u{FFFD}", 1) }
    if (0x202A...0x202E).contains(first) || (0x2066...0x2069).contains(first) || first == 0x200E
      || first == 0x200F || first == 0x061C
    {
      return ("", 0)
    }
    let w = CharacterWidth.of(character)
    return (String(character), w)
  }
}

/// A rectangle of cells.
package struct Rect: Equatable, Sendable {
  package var x: Int
  package var y: Int
  package var width: Int
  package var height: Int

  /// The part of this rectangle inside `bounds`.
  package func clipped(to bounds: Rect) -> Rect {
    let x0 = max(x, bounds.x)
    let y0 = max(y, bounds.y)
    let x1 = min(x + width, bounds.x + bounds.width)
    let y1 = min(y + height, bounds.y + bounds.height)
    return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }

  /// Whether the cell at (`px`, `py`) is inside.
  package func contains(_ px: Int, _ py: Int) -> Bool {
    px >= x && px < x + width && py >= y && py < y + height
  }
}
