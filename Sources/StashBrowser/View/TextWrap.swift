/// Breaks styled text into lines of at most a given number of cells, at spaces where it can and
/// between graphemes where a word is longer than a line (a wide grapheme is never split).
package enum TextWrap {
  /// The lines `line` wraps to in `width` cells; always at least one line. Lines after the first
  /// start `indent` cells in (a hanging indent, as the help's descriptions need), when that
  /// leaves room for text.
  package static func wrap(_ line: StyledLine, width: Int, indent: Int = 0) -> [StyledLine] {
    guard width > 0 else { return [StyledLine()] }
    let indent = indent < width ? max(0, indent) : 0
    // Words keep their style runs; a space belongs to the word before it.
    var words: [[StyledLine.Span]] = []
    var current: [StyledLine.Span] = []
    var pendingBreak = false
    for span in line.spans {
      var run = ""
      for ch in span.text {
        if pendingBreak && ch != " " {
          if !run.isEmpty { current.append(.init(text: run, style: span.style)) }
          run = ""
          words.append(current)
          current = []
          pendingBreak = false
        }
        run.append(ch)
        if ch == " " { pendingBreak = true }
      }
      if !run.isEmpty { current.append(.init(text: run, style: span.style)) }
    }
    if !current.isEmpty { words.append(current) }

    var lines: [StyledLine] = []
    var out = StyledLine()
    var used = 0
    // The room on the line being filled: the whole width first, less the indent after.
    var room: Int { lines.isEmpty ? width : width - indent }
    for word in words {
      let w = word.reduce(0) { $0 + CharacterWidth.of($1.text) }
      let trimmed = trimTrailingSpaces(word)
      let wTrim = trimmed.reduce(0) { $0 + CharacterWidth.of($1.text) }
      if used > 0 && used + wTrim > room {
        // The space the line breaks at is not drawn: styled (a marked phrase), it would show.
        out.spans = trimTrailingSpaces(out.spans)
        lines.append(out)
        out = StyledLine()
        used = 0
      }
      if wTrim > room {
        // A word longer than the line: cut between graphemes.
        for span in trimmed {
          var run = ""
          for ch in span.text {
            let cw = CharacterWidth.of(ch)
            if used + cw > room {
              out.append(run, span.style)
              lines.append(out)
              out = StyledLine()
              used = 0
              run = ""
            }
            run.append(ch)
            used += cw
          }
          out.append(run, span.style)
        }
        if w > wTrim, used < room {
          out.append(" ", .normal)
          used += 1
        }
        continue
      }
      for span in word { out.append(span.text, span.style) }
      used += w
    }
    if !out.spans.isEmpty || lines.isEmpty { lines.append(out) }
    // A line that is one field wraps into lines that are each one field.
    if line.isolatedFrom == 0 {
      for i in lines.indices { lines[i].isolatedFrom = 0 }
    }
    if indent > 0 {
      let pad = StyledLine.Span(text: String(repeating: " ", count: indent), style: .normal)
      for i in lines.indices.dropFirst() {
        lines[i].spans.insert(pad, at: 0)
        lines[i].isolatedFrom = lines[i].isolatedFrom.map { $0 + 1 }
      }
    }
    return lines
  }

  private static func trimTrailingSpaces(_ word: [StyledLine.Span]) -> [StyledLine.Span] {
    var word = word
    while var last = word.last {
      while last.text.hasSuffix(" ") { last.text.removeLast() }
      if last.text.isEmpty {
        word.removeLast()
      } else {
        word[word.count - 1] = last
        break
      }
    }
    return word
  }

  /// `text` cut to `width` cells, ending in "…" when it was longer.
  package static func truncate(_ text: String, width: Int) -> String {
    guard width > 0 else { return "" }
    if CharacterWidth.of(text) <= width { return text }
    var out = ""
    var used = 0
    for ch in text {
      let w = CharacterWidth.of(ch)
      if used + w > width - 1 { break }
      out.append(ch)
      used += w
    }
    return out + "…"
  }

  /// `line` cut to `width` cells, ending with an ellipsis when it was longer; styles kept.
  static func truncate(_ line: StyledLine, width: Int) -> StyledLine {
    guard line.width > width else { return line }
    var out = StyledLine()
    var used = 0
    for span in line.spans {
      let cells = CharacterWidth.of(span.text)
      if used + cells <= width - 1 {
        out.append(span.text, span.style)
        used += cells
        continue
      }
      out.append(truncate(span.text, width: width - used), span.style)
      break
    }
    return out
  }

  /// `text` padded with spaces on the right (or cut) to exactly `width` cells.
  package static func pad(_ text: String, width: Int) -> String {
    let t = truncate(text, width: width)
    let w = CharacterWidth.of(t)
    return w < width ? t + String(repeating: " ", count: width - w) : t
  }

  /// `text` padded on the left to `width` cells.
  package static func padLeft(_ text: String, width: Int) -> String {
    let w = CharacterWidth.of(text)
    return w < width ? String(repeating: " ", count: width - w) + text : text
  }
}
