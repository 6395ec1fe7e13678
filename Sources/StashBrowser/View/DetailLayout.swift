import StashFormat
import StashSearch

/// The detail pane laid out for a width: the lines above the transcript (title, date, files,
/// audio and route, missing speech, legend) and the transcript's wrapped lines, so the view draws
/// them and the update step scrolls and maps clicks with the same numbers.
package struct DetailLayout: Equatable, Sendable {
  /// A transcript line and the cue it belongs to.
  package struct Line: Equatable, Sendable {
    package var cue: Int
    package var text: StyledLine
  }

  /// Lines above the transcript.
  package var header: [StyledLine]
  /// The transcript's lines (or the reason there is none).
  package var lines: [Line]
  /// The first line of each cue.
  package var cueFirstLine: [Int]
  /// Where the transcript is drawn.
  package var transcriptRect: Rect
  /// Where a cue's text starts on its lines (after the mark and the time), in cells from the
  /// line's first, and how wide it wraps.
  package var textStart = 0
  package var textWidth = 1

  /// From this text width on (a terminal of about 150 columns), the route sketch grows with the
  /// pane: half its width, up to 64 cells, and 6 rows when the pane is tall; narrower, 32 by 4.
  package static let wideSketchWidth = 80

  /// Lays out `row` and `detail` in `rect`; `spoken` is the cue and word being spoken, for styling.
  package static func make(
    row: MemoRow, detail: MemoDetail?, rect: Rect, spoken: (cue: Int, word: Int?)?, query: String
  ) -> DetailLayout {
    let width = max(1, rect.width - 1)
    var header: [StyledLine] = []
    func add(_ line: StyledLine) { header += TextWrap.wrap(line, width: width) }

    var name = StyledLine()
    name.startIsolatedField()
    name.append(row.displayName, .heading)
    add(name)
    var facts = StyledLine(TimeText.date(row.recordedAt), .dim)
    facts.append(" · ", .dim)
    facts.append(TimeText.clock(row.durationSeconds), .dim)
    if row.title == nil { facts.append(" · untitled", .dim) }
    add(facts)
    add(StyledLine("Files: " + filesText(row), .dim))

    switch row.audio {
    case .ok: break
    case .cutShort:
      add(StyledLine("Audio cut short by a kill: it plays up to its last whole sample.", .warning))
    case .damaged(let reason):
      add(StyledLine("Audio damaged: \(reason)", .error))
    case .lengthUnknown(let reason):
      add(StyledLine("Length unknown: \(reason). The clock counts up as it plays.", .warning))
    case .missing:
      add(StyledLine("No audio file: there is nothing to play.", .error))
    }
    if row.needsRecovery {
      add(StyledLine("Parts of a killed recording wait in \(row.base).parts/: R recovers them.", .warning))
    }
    for problem in row.problems { add(StyledLine(problem, .error)) }

    if let detail {
      if let route = detail.route {
        add(StyledLine("Route: " + routeText(route)))
        // A wide pane (a terminal of 150 columns or more) draws it larger, up to twice the size.
        let wide = width >= wideSketchWidth
        let sketchRows = rect.height >= 40 && wide ? 6 : rect.height >= 24 ? 4 : rect.height >= 16 ? 2 : 0
        let sketchColumns = wide ? min(width / 2, 64) : min(width, 32)
        if sketchRows > 0 {
          for text in BrailleSketch.draw(route.paths, columns: sketchColumns, rows: sketchRows) {
            header.append(StyledLine(text, .dim))
          }
        }
      } else if let problem = detail.routeProblem {
        add(StyledLine("Route unreadable: \(problem)", .error))
      }
      for note in detail.transcriptNotes { add(StyledLine(note, .dim)) }
      if !detail.missingSpeech.isEmpty {
        let gaps = detail.missingSpeech.map { TimeText.clock($0.start) + "–" + TimeText.clock($0.end) }
        add(StyledLine("Missing speech: " + gaps.joined(separator: ", "), .warning))
      }
      if detail.cues.contains(where: { $0.words.contains { $0.unconfirmed } }) {
        var legend = StyledLine("‹ ›", .unconfirmed)
        legend.append(" words the speech engine never confirmed", .dim)
        add(legend)
      }
    }
    header.append(StyledLine(String(repeating: "─", count: width), .dim))

    // Keep at least three transcript lines: the header gives way first.
    let maxHeader = max(1, rect.height - 3)
    if header.count > maxHeader { header = Array(header.prefix(maxHeader)) }
    let transcriptRect = Rect(
      x: rect.x, y: rect.y + header.count, width: rect.width, height: rect.height - header.count)

    var layout = DetailLayout(header: header, lines: [], cueFirstLine: [], transcriptRect: transcriptRect)
    // Whether the transcript's cues are listed (bookmarks then go among them).
    var listsCues = false
    switch detail?.transcript {
    case nil:
      layout.lines.append(Line(cue: -1, text: StyledLine("Reading…", .dim)))
    case .absent(let reason):
      for l in TextWrap.wrap(StyledLine("No transcript: \(reason)", .dim), width: width) {
        layout.lines.append(Line(cue: -1, text: l))
      }
    case .unreadable(let reason, let line):
      let at = line.map { " (line \($0))" } ?? ""
      for l in TextWrap.wrap(StyledLine("Transcript unreadable\(at): \(reason)", .error), width: width) {
        layout.lines.append(Line(cue: -1, text: l))
      }
    case .cues(let cues):
      listsCues = true
      if cues.isEmpty {
        layout.lines.append(Line(cue: -1, text: StyledLine("The transcript has no cues.", .dim)))
      }
      let long = cues.last.map { $0.start >= 3600 } ?? false
      let timeWidth = long ? 7 : 5
      let textWidth = max(1, width - timeWidth - 3)
      (layout.textStart, layout.textWidth) = (timeWidth + 3, textWidth)
      // Marked where `stash search` and `S` find the query (folded, a phrase across cues too).
      let marks = DetailLayout.marks(of: query, in: cues)
      // Each bookmark goes after the cue it falls in (the last starting at or before it); those
      // before the first cue go first.
      let bookmarks = detail?.bookmarks ?? []
      var nextBookmark = 0
      func addBookmarks(before limit: Double, cue: Int) {
        while nextBookmark < bookmarks.count && bookmarks[nextBookmark].at < limit {
          layout.lines += bookmarkLines(bookmarks[nextBookmark], cue: cue, timeWidth: timeWidth, width: width)
          nextBookmark += 1
        }
      }
      addBookmarks(before: cues.first?.start ?? .infinity, cue: -1)
      for (index, cue) in cues.enumerated() {
        let isSpoken = spoken?.cue == index
        let text = cueText(cue, spoken: isSpoken ? (spoken?.word ?? -1) : nil, marked: marks[index]).text
        layout.cueFirstLine.append(layout.lines.count)
        let wrapped = TextWrap.wrap(text, width: textWidth)
        for (i, part) in wrapped.enumerated() {
          var line = StyledLine(isSpoken && i == 0 ? "▶ " : "  ", .spoken)
          line.append(
            i == 0
              ? TextWrap.padLeft(TimeText.clock(cue.start), width: timeWidth) + " "
              : String(repeating: " ", count: timeWidth + 1), .dim)
          line.startIsolatedField()
          line.spans += part.spans
          layout.lines.append(Line(cue: index, text: line))
        }
        addBookmarks(before: index + 1 < cues.count ? cues[index + 1].start : .infinity, cue: index)
      }
    }
    if !listsCues {
      for bookmark in detail?.bookmarks ?? [] {
        layout.lines += bookmarkLines(bookmark, cue: -1, timeWidth: 5, width: width)
      }
    }
    if let problem = detail?.bookmarksProblem {
      for l in TextWrap.wrap(StyledLine("Bookmarks unreadable: \(problem)", .error), width: width) {
        layout.lines.append(Line(cue: -1, text: l))
      }
    }
    return layout
  }

  /// The sign of a bookmark, in the transcript and on the scrubber.
  package static let bookmarkSign = "▼"

  /// A bookmark's lines in the transcript: its sign in the cue's mark column, its moment where
  /// cues have their start, its note (or "bookmark") where their text goes, belonging to `cue`.
  static func bookmarkLines(_ bookmark: Bookmark, cue: Int, timeWidth: Int, width: Int) -> [Line] {
    let textWidth = max(1, width - timeWidth - 3)
    var note = StyledLine()
    note.startIsolatedField()
    note.append(bookmark.note.isEmpty ? "bookmark" : bookmark.note, .bookmark)
    return TextWrap.wrap(note, width: textWidth).enumerated().map { i, part in
      var line = StyledLine(i == 0 ? bookmarkSign + " " : "  ", .bookmark)
      line.append(
        i == 0
          ? TextWrap.padLeft(TimeText.clock(bookmark.at), width: timeWidth) + " "
          : String(repeating: " ", count: timeWidth + 1), .bookmark)
      line.spans += part.spans
      return Line(cue: cue, text: line)
    }
  }

  /// A cue's text as the pane shows it, before wrapping: its words with spaces between them,
  /// unconfirmed ones in ‹ ›, styled for the word being spoken (`spoken`: its index, -1 for none,
  /// nil when the cue is not the one spoken) and the `marked` ranges of its scalars; and, for each
  /// character of it (span by span), the word it belongs to (nil for a space or a mark).
  static func cueText(
    _ cue: MemoDetail.Cue, spoken: Int?, marked: [Range<Int>]
  ) -> (text: StyledLine, words: [Int?]) {
    var text = StyledLine()
    var words: [Int?] = []
    func add(_ piece: String, _ style: Style, word: Int? = nil) {
      text.append(piece, style)
      words += repeatElement(word, count: piece.count)
    }
    let isSpoken = spoken != nil
    var insideUnconfirmed = false
    // Where the word starts in the cue's text (its words joined by spaces), in scalars.
    var offset = 0
    for (w, word) in cue.words.enumerated() {
      var style: Style = isSpoken ? .spoken : .normal
      if word.unconfirmed { style = .unconfirmed }
      if spoken == w { style = .spokenWord }
      if w > 0 {
        let between = marked.contains { $0.contains(offset - 1) }
        add(" ", between ? .match : isSpoken ? .spoken : .normal)
      }
      if word.unconfirmed && !insideUnconfirmed { add("‹", .unconfirmed) }
      insideUnconfirmed = word.unconfirmed
      let before = text.spans.count
      append(word.text, style, at: offset, marked: marked, to: &text)
      for span in text.spans[before...] { words += repeatElement(Int?(w), count: span.text.count) }
      offset += word.text.unicodeScalars.count + 1
      let nextUnconfirmed = w + 1 < cue.words.count && cue.words[w + 1].unconfirmed
      if word.unconfirmed && !nextUnconfirmed {
        add("›", .unconfirmed)
        insideUnconfirmed = false
      }
    }
    return (text, words)
  }

  /// The word of `cue` drawn at cell `column` of transcript line `index` (counted from where the
  /// cue's text starts, `textStart`), or nil where none is: a space, a mark, past the end.
  package func word(atLine index: Int, column: Int, of cue: MemoDetail.Cue) -> Int? {
    guard lines.indices.contains(index), lines[index].cue >= 0, column >= 0 else { return nil }
    let first = cueFirstLine[lines[index].cue]
    let (text, owners) = Self.cueText(cue, spoken: nil, marked: [])
    // The wrapped lines hold the text's characters in order, less the spaces they break at.
    let original = text.spans.flatMap { Array($0.text) }
    var at = 0
    for (part, line) in TextWrap.wrap(text, width: textWidth).enumerated() {
      var cell = 0
      for character in line.spans.flatMap({ Array($0.text) }) {
        while at < original.count && original[at] != character { at += 1 }
        guard at < original.count else { return nil }
        let width = CharacterWidth.of(character)
        if first + part == index && column < cell + width { return owners[at] }
        cell += width
        at += 1
      }
      if first + part == index { return nil }
    }
    return nil
  }

  /// The lines of cue `index`.
  package func lineRange(ofCue index: Int) -> Range<Int> {
    guard index >= 0, index < cueFirstLine.count else { return 0..<0 }
    let end = index + 1 < cueFirstLine.count ? cueFirstLine[index + 1] : lines.count
    return cueFirstLine[index]..<end
  }

  private static func filesText(_ row: MemoRow) -> String {
    var kinds: [String] = []
    // The format's own suffixes (MemoFileKind), in the order they are listed.
    let shown: [MemoFileKind] = [.audio, .transcript, .route, .title]
    for file in row.files {
      if let kind = shown.first(where: { file.hasSuffix($0.suffix) }) { kinds.append(kind.words) }
    }
    if !row.partFiles.isEmpty { kinds.append("\(row.partFiles.count) parts") }
    return kinds.isEmpty ? "none" : kinds.joined(separator: ", ")
  }

  private static func routeText(_ route: MemoDetail.Route) -> String {
    var parts: [String] = []
    let km = route.distanceMetres / 1000
    parts.append(km >= 1 ? "\(decimal(km, 2)) km" : "\(Int(route.distanceMetres.rounded())) m")
    if let d = route.durationSeconds { parts.append(TimeText.clock(d)) }
    if let gain = route.elevationGainMetres { parts.append("↑ \(Int(gain.rounded())) m") }
    parts.append(Text.count(route.points, "point"))
    parts.append(Text.count(route.segments, "segment"))
    return parts.joined(separator: " · ")
  }

  /// `value` with `places` decimals.
  package static func decimal(_ value: Double, _ places: Int) -> String {
    var factor = 1.0
    for _ in 0..<places { factor *= 10 }
    let scaled = Int((value * factor).rounded())
    let whole = scaled / Int(factor)
    var fraction = String(abs(scaled) % Int(factor))
    while fraction.count < places { fraction = "0" + fraction }
    return places == 0 ? "\(whole)" : "\(whole).\(fraction)"
  }

  /// For each cue, where `query` is found in its text (ranges of its scalars), as `stash search`
  /// and `S` find it: folded, and across cues.
  package static func marks(of query: String, in cues: [MemoDetail.Cue]) -> [[Range<Int>]] {
    var marks = [[Range<Int>]](repeating: [], count: cues.count)
    guard let pattern = SearchPattern.typed(query) else { return marks }
    for place in pattern.places(in: cues.map(\.text)) {
      for part in place.parts { marks[part.text].append(part.scalars) }
    }
    return marks
  }

  /// `word`, which starts at scalar `offset` of its cue's text, appended in `style`: each grapheme
  /// with a scalar in `marked` in `.match`.
  private static func append(
    _ word: String, _ style: Style, at offset: Int, marked: [Range<Int>], to line: inout StyledLine
  ) {
    guard marked.contains(where: { $0.overlaps(offset..<offset + word.unicodeScalars.count) }) else {
      line.append(word, style)
      return
    }
    var (run, runMarked, scalar) = ("", false, offset)
    for character in word {
      let count = character.unicodeScalars.count
      let isMarked = marked.contains { $0.overlaps(scalar..<scalar + count) }
      if isMarked != runMarked {
        line.append(run, runMarked ? .match : style)
        run = ""
      }
      (runMarked, scalar) = (isMarked, scalar + count)
      run.append(character)
    }
    line.append(run, runMarked ? .match : style)
  }
}
