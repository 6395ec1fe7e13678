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
      let them = files.count == 1 ? "it" : "them"
      lines = []
      if let reason { lines.append(StyledLine("The Trash cannot take \(them): \(reason)", .warning)) }
      lines.append(
        StyledLine(
          permanently
            ? "\(files.count == 1 ? "This file" : "These \(files.count) files") will be deleted permanently; "
              + "\(files.count == 1 ? "it" : "they") cannot be restored:"
            : "\(files.count == 1 ? "This file" : "These \(files.count) files") will go to the Trash:"))
      for file in files { lines.append(StyledLine("  " + file, permanently ? .error : .normal)) }
      footer =
        permanently
        ? "y deletes for good · n keeps \(them)" : "y moves \(them) to the Trash · n keeps \(them)"
    case .confirm(let t, let text, let action):
      title = t
      lines = text.map { StyledLine($0) }
      switch action {
      case .recover: footer = "y recovers · n leaves it as it is"
      case .acceptLoss: footer = "y accepts the loss · n keeps the parts"
      case .importMemos: footer = "y imports · n leaves it as it is"
      case .removeBookmark: footer = "y removes it · n keeps it"
      }
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
