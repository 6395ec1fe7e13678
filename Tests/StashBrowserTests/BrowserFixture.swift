import StashBrowser
import StashFormat
import Testing

/// Models, rows and transcripts for the in-process browser tests: no folder, no terminal, no
/// player; events go straight into `update` and screens come out of `BrowserView.render`.
enum BrowserFixture {
  /// 2026-03-14 09:30:00 UTC.
  static let march14 = 1_773_480_600.0

  /// A memo row; `title` nil leaves it untitled (its name is then the date).
  static func row(
    _ base: String, title: String? = nil, at time: Double, duration: Double? = 60,
    audio: MemoRow.Audio = .ok, transcript: Bool = true
  ) -> MemoRow {
    var files = [base + "_audio.m4a"]
    if transcript { files.append(base + "_transcription.vtt") }
    if title != nil { files.append(base + "_title.txt") }
    return MemoRow(
      base: base, displayName: title ?? String(TimeText.date(time).prefix(16)), title: title,
      recordedAt: time, durationSeconds: duration, audio: audio, hasTranscript: transcript,
      hasRoute: false, needsRecovery: false, problems: [], files: files, partFiles: [])
  }

  /// Three memos, newest first: a plain title, a wide (Japanese and emoji) one, an untitled one.
  static let rows: [MemoRow] = [
    row("2026-07-20T07-45-10Z", title: "Walk by the river", at: march14 + 86_400 * 128),
    row("2026-05-01T18-05-00Z", title: "会議のメモ 🎉", at: march14 + 86_400 * 48),
    row("2026-03-14T09-30-00Z", at: march14),
  ]

  /// Memos whose names test the layout: wide, right to left, very long, and untitled.
  static let hardNames: [MemoRow] = [
    row("2026-07-20T07-45-10Z", title: "שלום עולם", at: march14 + 86_400 * 128),
    row("2026-06-01T10-00-00Z", title: "会議のメモ 🎉 会議のメモ 会議のメモ 会議のメモ", at: march14 + 86_400 * 79),
    row(
      "2026-05-01T18-05-00Z",
      title: "A very long title that goes on and on well past any column a terminal has",
      at: march14 + 86_400 * 48),
    row("2026-04-02T08-00-00Z", title: "مرحبا بالعالم", at: march14 + 86_400 * 19),
    row("2026-03-14T09-30-00Z", at: march14),
  ]

  /// `count` cues of three seconds each, back to back from 0, each a sentence of `words` words
  /// with word times.
  static func cues(_ count: Int, words: Int = 8) -> [MemoDetail.Cue] {
    (0..<count).map { i in
      let start = Double(i) * 3
      let text = (0..<words).map { w in
        MemoDetail.Word(text: "word\(i)-\(w)", start: start + Double(w) * 0.3, unconfirmed: false)
      }
      return MemoDetail.Cue(start: start, end: start + 3, words: text)
    }
  }

  /// A detail with `count` cues and nothing else.
  static func detail(cues count: Int, words: Int = 8) -> MemoDetail {
    MemoDetail(transcript: .cues(cues(count, words: words)), missingSpeech: [], transcriptNotes: [])
  }

  /// A browser of `width` x `height` after the folder was read as `rows` and the selected memo's
  /// detail loaded (when `detail` is given).
  static func model(
    width: Int = 100, height: Int = 30, rows: [MemoRow] = rows, detail: MemoDetail? = detail(cues: 40)
  ) -> BrowserModel {
    var model = BrowserModel(folderPath: "/memos", width: width, height: height)
    _ = model.update(.resize(width: width, height: height))
    let effects = model.update(.listed(MemoList(rows), error: nil))
    if let base = model.selectedBase, let detail {
      #expect(effects.contains(.loadDetail(base: base)))
      _ = model.update(.detailLoaded(base: base, detail))
    }
    return model
  }

  /// The player holding the selected memo in `state` at `position`.
  static func snapshot(
    _ model: BrowserModel, _ state: PlayerSnapshot.State = .playing, at position: Double,
    duration: Double = 120
  ) -> PlayerSnapshot {
    PlayerSnapshot(state: state, base: model.selectedBase, position: position, duration: duration)
  }

  /// `model` with its selected memo open in the transcript and playing at `position`.
  static func playing(_ model: BrowserModel, at position: Double) -> BrowserModel {
    var model = model
    _ = model.update(.key(.enter))
    _ = model.update(.player(snapshot(model, at: position)))
    return model
  }

  /// The rows of `grid` as plain text lines (isolation marks shown as ⁅ ⁆).
  static func lines(_ grid: CellGrid) -> [String] {
    grid.plainText.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }

  /// The column (in cells) where `text` starts on row `y` of `grid`, if it is there.
  static func column(of text: String, in grid: CellGrid, row y: Int) -> Int? {
    var rowText = ""
    var columns: [Int] = []
    for x in 0..<grid.width where !grid[x, y].isContinuation {
      for ch in grid[x, y].text where ch != "\u{2068}" && ch != "\u{2069}" {
        rowText.append(ch)
        columns.append(x)
      }
    }
    let haystack = Array(rowText)
    let needle = Array(text)
    guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where Array(haystack[start..<start + needle.count]) == needle {
      return columns[start]
    }
    return nil
  }

  /// Checks what must hold after any event: indices in range, cursors in view, a grid of the
  /// terminal's size whose wide graphemes are whole.
  static func checkInvariants(
    _ model: BrowserModel, _ context: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    #expect(
      model.visible.allSatisfy { model.memos.indices.contains($0) }, "\(context)",
      sourceLocation: sourceLocation)
    if !model.visible.isEmpty {
      #expect(model.visible.indices.contains(model.selection), "\(context)", sourceLocation: sourceLocation)
      if let list = model.layout.list, !model.layout.tooSmall {
        #expect(
          model.listTop <= model.selection && model.selection < model.listTop + max(1, list.height),
          "selection out of view: \(context)", sourceLocation: sourceLocation)
      }
    }
    let cues = model.detail?.cues.count ?? 0
    if cues > 0 {
      #expect((0..<cues).contains(model.cueCursor), "\(context)", sourceLocation: sourceLocation)
    }
    #expect(model.transcriptTop >= 0 && model.listTop >= 0, "\(context)", sourceLocation: sourceLocation)
    let grid = BrowserView.render(model)
    #expect(
      grid.width == model.width && grid.height == model.height, "\(context)", sourceLocation: sourceLocation)
    checkCells(grid, context, sourceLocation: sourceLocation)
  }

  /// Every wide grapheme is followed by its continuation, and no continuation stands alone.
  static func checkCells(
    _ grid: CellGrid, _ context: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    for y in 0..<grid.height {
      var x = 0
      while x < grid.width {
        let cell = grid[x, y]
        if cell.width == 2 {
          let whole = x + 1 < grid.width && grid[x + 1, y].isContinuation
          #expect(whole, "half a wide grapheme at \(x),\(y): \(context)", sourceLocation: sourceLocation)
          x += 2
        } else {
          #expect(
            !cell.isContinuation, "stray continuation at \(x),\(y): \(context)",
            sourceLocation: sourceLocation)
          x += 1
        }
      }
    }
  }
}
