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
