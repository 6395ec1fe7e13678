/// Reporting problems with their line and column.
extension WebVTTFileParser {
  /// Reports a problem at `offset` on the current line.
  mutating func report(_ code: FormatError.Code, at offset: Int, _ message: @autoclosure () -> String) {
    report(code, at: offset, lineNumber: nil, lineStart: nil, message())
  }

  mutating func report(_ issue: WebVTTIssue) {
    report(issue.code, at: issue.offset, lineNumber: nil, lineStart: nil, issue.message)
  }

  /// Reports a problem at `offset`, which is on line `lineNumber` starting at `lineStart` when
  /// the caller knows; the line and column are found by `locate`.
  mutating func report(
    _ code: FormatError.Code, at offset: Int, lineNumber: Int?, lineStart: Int?,
    _ message: @autoclosure () -> String
  ) {
    guard diagnostics.count < WebVTTParser.diagnosticLimit else {
      dropped += 1
      return
    }
    let (number, column) = locate(offset, line: lineNumber, lineStart: lineStart)
    let location = SourceLocation(line: number, column: column, offset: offsetBase.map { $0 + offset })
    diagnostics.append(
      Diagnostic(code: code, severity: code.webVTTSeverity, message: message(), location: location))
  }

  /// The line and column of `offset`. A cursor remembers the last place found and moves forward
  /// from it, jumping to any known line start on the way, so that however many problems one huge
  /// line or file holds, finding them all costs one pass over the text.
  mutating func locate(_ offset: Int, line hintLine: Int?, lineStart hintStart: Int?) -> (
    line: Int, column: Int
  ) {
    var known: [(line: Int, start: Int)] = [(anchorLine, anchorStart), (line, lineStart)]
    if let hintLine, let hintStart { known.append((hintLine, hintStart)) }
    if offset < cursor.offset {
      cursor = (0, 1, 1)
    }
    for (line, start) in known where start <= offset && start > cursor.offset {
      cursor = (start, line, 1)
    }
    while cursor.offset < offset && cursor.offset < count {
      let b = bytes[cursor.offset]
      if b == 0x0A {
        cursor.line += 1
        cursor.column = 1
      } else if b & 0xC0 != 0x80 {
        cursor.column += 1
      }
      cursor.offset += 1
    }
    return (cursor.line, cursor.column)
  }
}
