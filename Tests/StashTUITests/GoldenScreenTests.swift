import Foundation
import StashTestSupport
import Testing

/// Screens produced by the real binary's update step and view (`--render-once`), compared as
/// plain text with golden copies, plus checks of the style map where plain text cannot show it.
@Suite struct GoldenScreenTests {
  @Test func listSideBySideOnAWideTerminal() throws {
    let folder = try TUIHarness.memoFolder()
    Golden.check("listWide", try TUIHarness.render(folder))
  }

  @Test func detailAloneOnANarrowTerminal() throws {
    let folder = try TUIHarness.memoFolder()
    let screen = try TUIHarness.render(folder, size: "60x24", keys: "<end><enter>")
    Golden.check("detailNarrow", screen)
    #expect(screen.contains("Missing speech: 0:08–0:12"))
    #expect(screen.contains("‹these words were never›"))
  }

  @Test func tooSmallBelowFortyByTen() throws {
    let folder = try TUIHarness.memoFolder()
    let small = try TUIHarness.render(folder, size: "39x10")
    #expect(small.hasPrefix("Terminal too small\n39x10; needs 40x10"))
    let fits = try TUIHarness.render(folder, size: "40x10")
    #expect(!fits.contains("Terminal too small"))
    // Growing again lays out at once.
    let regrown = try TUIHarness.render(folder, size: "39x10", keys: "<resize 100x30>")
    #expect(regrown == (try TUIHarness.render(folder)))
  }

  @Test func helpIsTheKeyTable() throws {
    let folder = try TUIHarness.memoFolder()
    let screen = try TUIHarness.render(folder, size: "100x50", keys: "?")
    Golden.check("help", screen)
    // --help prints the same table.
    let help = try runProcess(TUIHarness.binary, ["--help"], environment: TUIHarness.environment)
    #expect(help.status == 0)
    // The screen's first page (at 100 columns the rest scrolls) and the whole of --help.
    for line in ["Ctrl-← ,", "previous cue", "go to a typed time", "bookmark here"] {
      #expect(screen.contains(line), "help screen lacks \(line)")
    }
    for line in ["Ctrl-← ,", "previous cue", "go to a typed time", "bookmark here", "q Ctrl-C"] {
      #expect(help.standardOutput.contains(line), "--help lacks \(line)")
    }
  }

  @Test func playingFromACueHighlightsTheCueAndTheWord() throws {
    let folder = try TUIHarness.memoFolder()
    // Open the memo with the transcript, Enter on the first cue (its first word is at 0.5 s), and
    // 0.7 s pass on the virtual clock: the word at 1.0 s is being spoken.
    let screen = try TUIHarness.render(folder, keys: "<end><enter><enter><wait 0.7>", styles: true)
    let (text, styles) = split(screen)
    Golden.check("playingFirstCue", text)
    let row = try #require(text.split(separator: "\n").firstIndex { $0.contains("▶  0:00 Hello") })
    let line = Array(text.split(separator: "\n", omittingEmptySubsequences: false)[row])
    let map = Array(styles[row])
    // "there," is the word at 1.0 s: the word style covers it and nothing else on the line.
    let word = try #require(String(line).range(of: "there,"))
    let start = String(line)[..<word.lowerBound].count
    let cellsBefore = TUIHarness.cells(String(String(line).prefix(start)))
    #expect(map[cellsBefore..<cellsBefore + 6].allSatisfy { $0 == "W" }, "\(String(map))")
    #expect(map.filter { $0 == "W" }.count == 6)
    #expect(text.contains(" ▶ 0:01 "))
  }

  @Test func theWaveformStripShowsTheLoudnessStepsOverTheScrubber() throws {
    let folder = try TUIHarness.steppedFolder()
    // Enter opens the memo, Enter plays from its first cue (0.5 s), 9 s pass: the head is at 9.5 s.
    let screen = try TUIHarness.render(folder, keys: "<enter><enter><wait 9>", styles: true)
    let (text, styles) = split(screen)
    Golden.check("waveformStrip", text)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let strip = Array(lines[28])
    let scrubber = Array(lines[29])
    let head = try #require(scrubber.firstIndex(of: "●"))
    let start = try #require(strip.firstIndex { $0 != " " })
    let end = try #require(strip.lastIndex { $0 != " " })
    // The strip is the scrubber's columns: from its first cell to its last.
    #expect(scrubber[start] == "━" && "─┴".contains(scrubber[end]) && scrubber[end + 1] == " ")
    // Silence, -40, -20 and -6 dBFS, each where the scrubber puts its time.
    let scale = Double(end - start) / 20
    for (time, block) in [(1.0, "▁"), (4.0, "▄"), (7.0, "▁"), (10.0, "▆"), (16.0, "█"), (19.0, "▁")] {
      let column = start + Int((time * scale).rounded())
      #expect(String(strip[column]) == block, "\(time) s")
    }
    // Played bold, the head reversed, the rest dim; nothing past the strip's ends.
    let map = styles[28]
    #expect(map[start..<head].allSatisfy { $0 == "b" } && map[head] == "S")
    #expect(map[(head + 1)...end].allSatisfy { $0 == "d" })
    // The cue starts (0.5, 3, 12, 15 s) tick the scrubber beneath.
    #expect(scrubber.filter { $0 == "┻" || $0 == "┴" }.count == 4)
  }

  @Test func followingMovesWithTheSpeechUntilTheUserScrolls() throws {
    let folder = try TUIHarness.memoFolder()
    let followed = try TUIHarness.render(folder, keys: "<end><enter><enter><wait 13>")
    #expect(followed.contains("▶  0:12 After the gap"))
    #expect(followed.contains("│›▶  0:12"))
    // Up stops following: the cursor moves, the spoken mark moves on with the clock, a hint shows.
    let unfollowed = try TUIHarness.render(folder, keys: "<end><enter><enter><wait 13><up><up><wait 3>")
    #expect(unfollowed.contains("▶  0:15 The last cue"))
    #expect(unfollowed.contains("│›   0:00 Hello"))
    #expect(unfollowed.contains("Not following the speech: f follows again."))
    // f resumes: the cursor is back on the spoken cue.
    let resumed = try TUIHarness.render(folder, keys: "<end><enter><enter><wait 13><up><up><wait 3>f")
    #expect(resumed.contains("│›▶  0:15 The last cue"))
    #expect(!resumed.contains("Not following"))
  }

  @Test func filterByTitleAndTranscriptText() throws {
    let folder = try TUIHarness.memoFolder()
    let byTranscript = try TUIHarness.render(folder, keys: "/river<enter>")
    Golden.check("filterTranscript", byTranscript)
    let byTitle = try TUIHarness.render(folder, keys: "/会議<enter>")
    #expect(byTitle.contains("会議のメモ 🎉"))
    #expect(!byTitle.contains("שלום"))
    #expect(byTitle.contains("1 shown"))
    // n finds the match inside the transcript.
    let found = try TUIHarness.render(folder, keys: "/river<enter><enter>n")
    #expect(found.contains("│›   0:03 The second cue"))
    #expect(found.contains("Cue 1 of 1 with “river”"))
  }

  @Test func deleteConfirmationNamesEveryFile() throws {
    let folder = try TUIHarness.memoFolder()
    let screen = try TUIHarness.render(folder, keys: "<end>d")
    Golden.check("deleteConfirm", screen)
    #expect(screen.contains("2026-03-14T09-30-00Z_audio.m4a"))
    #expect(screen.contains("2026-03-14T09-30-00Z_transcription.vtt"))
    let kept = try TUIHarness.render(folder, keys: "<end>dn")
    #expect(kept.contains("Nothing deleted."))
  }

  @Test func noTranscriptSaysWhy() throws {
    let folder = try TUIHarness.memoFolder()
    // The untitled memo's transcript is not WebVTT; the Hebrew-titled one is still in parts.
    try "NOT A VTT\n\n00:01.000 --> 00:02.000\nhello\n".write(
      to: folder.appendingPathComponent("2026-03-14T09-30-00Z_transcription.vtt"), atomically: false,
      encoding: .utf8)
    let parts = folder.appendingPathComponent("2026-07-20T07-45-10Z.parts")
    try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
    try "WEBVTT\n".write(
      to: parts.appendingPathComponent("transcription.0001.vtt"), atomically: false, encoding: .utf8)
    let unreadable = try TUIHarness.render(folder, keys: "<end>")
    #expect(unreadable.contains("Transcript unreadable (line 1): not a WebVTT file"), "\(unreadable)")
    // The list marks it `!`, as `stash ls` does (one set of marks, MemoMarks).
    #expect(TUIHarness.selectedRow(unreadable)?.contains("!") == true, "\(unreadable)")
    let inParts = try TUIHarness.render(folder)
    #expect(inParts.contains("No transcript: it is still in 1 part(s) in"), "\(inParts)")
    #expect(inParts.contains("R recovers"))
    let silent = try TUIHarness.render(folder, keys: "j")
    // An absent file is said to be absent, not guessed to be silence.
    #expect(silent.contains("No transcript: the memo has no transcript file."))
  }

  @Test func wideCharactersAreNeverCutInHalf() throws {
    let folder = try TUIHarness.memoFolder()
    // At 40 columns the list row's name has 24 cells: the title fits; at 34 the emoji would be cut.
    for width in 40...46 {
      let screen = try TUIHarness.render(folder, size: "\(width)x12")
      for line in screen.split(separator: "\n") {
        #expect(TUIHarness.cells(String(line)) <= width, "line wider than \(width): \(line)")
      }
    }
  }

  private func split(_ screen: String) -> (String, [[Character]]) {
    let parts = screen.components(separatedBy: "--- styles\n")
    return (parts[0], parts[1].split(separator: "\n").map { Array($0) })
  }
}

extension TUIHarness {
  /// Terminal cells a line takes, counting CJK and emoji as two (the test's own count, from the
  /// Unicode East Asian Width property's wide ranges, independent of the binary's wcwidth).
  static func cells(_ line: String) -> Int {
    var total = 0
    for ch in line {
      let v = ch.unicodeScalars.first!.value
      let wide =
        (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
        || (0xF900...0xFAFF).contains(v) || (0xFF00...0xFF60).contains(v) || (0x1F300...0x1FAFF).contains(v)
      total += wide ? 2 : 1
    }
    return total
  }
}
