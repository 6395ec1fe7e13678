/// Boxes drawn over the panes: help, reports, the delete confirmation.
package enum OverlayView {
  /// Draws `overlay` centred in the grid, scrolled by `top` lines.
  package static func draw(_ overlay: BrowserModel.Overlay, top: Int, in grid: inout CellGrid) {
    let title: String
    var lines: [StyledLine]
    // How far each line's continuation is indented when it wraps (none when not listed).
    var indents: [Int] = []
    var footer: String
    // The box's width when it is not made to fit its lines (the help in columns fills the screen),
    // whose lines then come wrapped already.
    var boxWidth: Int?
    switch overlay {
    case .help:
      title = "Keys"
      footer = "↑/↓ scroll · any other key closes"
      if grid.width >= HelpColumns.minimumWidth {
        boxWidth = HelpColumns.boxWidth(grid.width)
        lines = HelpColumns.lines(innerWidth: boxWidth! - 4)
      } else {
        let entries = KeyTable.helpEntries()
        lines = entries.map(\.line)
        indents = entries.map(\.indent)
      }
    case .report(let t, let text):
      title = t
      lines = text.map { StyledLine($0) }
      footer = "↑/↓ scroll · any other key closes"
    case .confirmDelete(_, let files, let permanently, let reason):
      title = permanently ? "Delete for good?" : "Move to the Trash?"
      lines = []
      if let reason { lines.append(StyledLine("The Trash cannot take them: \(reason)", .warning)) }
      lines.append(
        StyledLine(
          permanently
            ? "\(files.count == 1 ? "This file" : "These \(files.count) files") will be deleted permanently; "
              + "\(files.count == 1 ? "it" : "they") cannot be restored:"
            : "\(files.count == 1 ? "This file" : "These \(files.count) files") will go to the Trash:"))
      for file in files { lines.append(StyledLine("  " + file, permanently ? .error : .normal)) }
      footer = permanently ? "y deletes for good · n keeps them" : "y moves them to the Trash · n keeps them"
    case .confirm(let t, let text, let action):
      title = t
      lines = text.map { StyledLine($0) }
      footer = action == .recover ? "y recovers · n leaves it as it is" : "y imports · n leaves it as it is"
    }
    let width = boxWidth ?? min(grid.width - 4, max(50, min(90, (lines.map(\.width).max() ?? 0) + 4)))
    let innerWidth = width - 4
    var wrapped: [StyledLine] = []
    for (i, line) in lines.enumerated() {
      if boxWidth != nil {
        wrapped.append(line)
      } else {
        wrapped += TextWrap.wrap(line, width: innerWidth, indent: i < indents.count ? indents[i] : 0)
      }
    }
    // The help in columns spans the screen's width, so it keeps to the rows between the header
    // and the status line: what runs in the background (shown at the status line's end) stays
    // in view while the keys are read.
    let between = boxWidth != nil
    let maxBody = max(1, grid.height - (between ? 7 : 6))
    let bodyHeight = min(maxBody, wrapped.count)
    let height = bodyHeight + 4
    let x = (grid.width - width) / 2
    let y = between ? 1 + max(0, (grid.height - 3 - height) / 2) : max(0, (grid.height - height) / 2)
    let start = max(0, min(top, wrapped.count - bodyHeight))
    grid.fill(Rect(x: x, y: y, width: width, height: height))
    let bar = String(repeating: "─", count: width - 2)
    grid.put("┌" + bar + "┐", x: x, y: y, style: .dim)
    grid.put(" " + title + " ", x: x + 2, y: y, style: .heading)
    for row in 1..<height - 1 {
      grid.put("│", x: x, y: y + row, style: .dim)
      grid.put("│", x: x + width - 1, y: y + row, style: .dim)
    }
    grid.put("└" + bar + "┘", x: x, y: y + height - 1, style: .dim)
    for i in 0..<bodyHeight {
      grid.put(wrapped[start + i], x: x + 2, y: y + 1 + i, limit: innerWidth)
    }
    var foot = footer
    if wrapped.count > bodyHeight {
      foot = "lines \(start + 1)–\(start + bodyHeight) of \(wrapped.count) · " + footer
    }
    grid.put(TextWrap.truncate(foot, width: innerWidth), x: x + 2, y: y + height - 2, style: .dim)
  }
}

/// The help screen on a wide terminal: the key table's groups in two columns side by side (the
/// split that makes the columns most even), each binding's description wrapping under itself, and
/// the legend below across the box.
package enum HelpColumns {
  /// From this terminal width on, the help screen has two columns. Narrower, the descriptions
  /// wrap so often that two columns are as tall as one (at 100 columns, 53 rows against 56).
  package static let minimumWidth = 110
  /// The widest the box grows: two columns of 86 cells, room for the longest binding's keys and
  /// description on one line.
  package static let maximumBoxWidth = 179
  /// The blank between the columns.
  static let gap = 3

  /// The box's width on a terminal `width` columns wide.
  package static func boxWidth(_ width: Int) -> Int { min(width - 4, maximumBoxWidth) }

  /// The lines inside a box `innerWidth` cells wide, already wrapped.
  package static func lines(innerWidth: Int) -> [StyledLine] {
    let column = (innerWidth - gap) / 2
    // Descriptions start as close to the keys as the widest keys allow: room for words.
    let groups = KeyTable.helpGroups(textColumn: KeyTable.narrowTextColumn).map { group in
      group.flatMap { TextWrap.wrap($0.line, width: column, indent: $0.indent) }
    }
    // The split into a left and a right run of groups whose taller column is shortest.
    func height(_ part: ArraySlice<[StyledLine]>) -> Int {
      part.reduce(0) { $0 + $1.count } + max(0, part.count - 1)
    }
    let split =
      (1..<max(2, groups.count)).min { a, b in
        max(height(groups[..<a]), height(groups[a...])) < max(height(groups[..<b]), height(groups[b...]))
      } ?? 1
    func stacked(_ part: ArraySlice<[StyledLine]>) -> [StyledLine] {
      var out: [StyledLine] = []
      for group in part {
        if !out.isEmpty { out.append(StyledLine()) }
        out += group
      }
      return out
    }
    let left = stacked(groups[..<split])
    let right = stacked(groups[split...])
    var lines: [StyledLine] = []
    for row in 0..<max(left.count, right.count) {
      var line = row < left.count ? left[row] : StyledLine()
      if row < right.count {
        line.append(String(repeating: " ", count: column - line.width + gap))
        line.spans += right[row].spans
      }
      lines.append(line)
    }
    lines.append(StyledLine())
    for entry in KeyTable.legendEntries() {
      lines += TextWrap.wrap(entry.line, width: innerWidth, indent: entry.indent)
    }
    return lines
  }
}
