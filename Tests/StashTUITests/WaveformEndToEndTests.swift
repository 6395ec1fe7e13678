import Foundation
import StashTestSupport
import Testing

/// The waveform strip in the real binary in tmux: measured in the background while the memo plays
/// to a real ALSA PCM (the `file` plugin, paced to real time), then clicked to seek.
@Suite struct WaveformEndToEndTests {
  static let blocks: Set<Character> = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

  @Test func theStripFillsInAndAClickOnItSeeksThere() throws {
    let folder = try TUIHarness.steppedFolder()
    let tmux = try TmuxSession(
      folder: folder, environment: EndToEndActionTests.soundToFile(ListeningEndToEndTests.soundFile(folder)))
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "1 memo") != nil, "\(tmux.capture())")
    tmux.send("Space")
    // The strip is the row over the transport line (30 rows: row 28); it is whole once no
    // column is unknown.
    func strip(_ screen: String) -> [Character] {
      let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
      return lines.count > 28 ? Array(lines[28]) : []
    }
    let filled = tmux.wait(timeout: 10) { screen in
      let row = strip(screen).filter { $0 != " " }
      return row.count > 20 && row.allSatisfy { Self.blocks.contains($0) }
    }
    let screen = try #require(filled, "the strip never filled in: \(tmux.capture())")
    let row = strip(screen)
    let start = try #require(row.firstIndex { $0 != " " })
    let end = try #require(row.lastIndex { $0 != " " })
    // The loudest step (-6 dBFS, 14 to 18 s) is the full block, the silence before it the lowest.
    let scale = Double(end - start) / 20
    #expect(row[start + Int((16 * scale).rounded())] == "█", "\(String(row))")
    #expect(row[start + Int((13 * scale).rounded())] == "▁", "\(String(row))")
    // A click on the strip at 16 s moves the clock there.
    let before = ListeningEndToEndTests.clock(tmux.capture()) ?? 0
    #expect(before < 10, "the clock ran too far before the click: \(before)")
    tmux.click(x: start + Int((16 * scale).rounded()), y: 28)
    let moved = tmux.wait(timeout: 5) { (15...18).contains(ListeningEndToEndTests.clock($0) ?? 0) }
    #expect(moved != nil, "the click did not seek to 0:16: \(tmux.capture())")
    // Without colour (the session sets NO_COLOR) the played part is bold, the head reversed and
    // the rest dim, and no colour is sent.
    let attributed = tmux.captureWithAttributes().split(separator: "\n", omittingEmptySubsequences: false)
    let line = attributed.count > 28 ? String(attributed[28]) : ""
    func has(_ pattern: String) -> Bool { line.range(of: pattern, options: .regularExpression) != nil }
    // (tmux may reset the colours to the default between an attribute and the cell.)
    let block = "(\u{1b}\\[[0-9;]*m)*[▁▂▃▄▅▆▇█]"
    #expect(has("\u{1b}\\[([0-9]+;)*1m" + block), "no bold played part: \(line.debugDescription)")
    #expect(has("\u{1b}\\[([0-9]+;)*7m" + block), "no reversed head: \(line.debugDescription)")
    #expect(has("\u{1b}\\[([0-9]+;)*2m"), "no dim part to come: \(line.debugDescription)")
    #expect(!has("\u{1b}\\[([0-9]+;)*(3[0-7]|38;)"), "colour with NO_COLOR: \(line.debugDescription)")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  /// Opened and not played, a memo shows its strip (issue 46 §1), measured in the background;
  /// a click on it, with nothing playing, starts playing there.
  @Test func anOpenedMemoShowsItsStripAndAClickPlaysFromThere() throws {
    let folder = try TUIHarness.steppedFolder()
    let tmux = try TmuxSession(
      folder: folder, environment: EndToEndActionTests.soundToFile(ListeningEndToEndTests.soundFile(folder)))
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "1 memo") != nil, "\(tmux.capture())")
    tmux.send("Enter")
    let filled = tmux.wait(timeout: 10) { screen in
      let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
      guard lines.count > 29 else { return false }
      let row = lines[28].filter { $0 != " " }
      return row.count > 20 && row.allSatisfy { Self.blocks.contains($0) } && lines[29].hasPrefix(" ■ 0:00")
    }
    let screen = try #require(filled, "no strip on the opened memo: \(tmux.capture())")
    let row = Array(screen.split(separator: "\n", omittingEmptySubsequences: false)[28])
    let start = try #require(row.firstIndex { $0 != " " })
    let end = try #require(row.lastIndex { $0 != " " })
    let scale = Double(end - start) / 20
    #expect(row[start + Int((16 * scale).rounded())] == "█", "\(String(row))")
    tmux.click(x: start + Int((16 * scale).rounded()), y: 28)
    let playing = tmux.wait(timeout: 5) { screen in
      TUIHarness.transport(screen).hasPrefix("▶")
        && (15...18).contains(ListeningEndToEndTests.clock(screen) ?? 0)
    }
    #expect(playing != nil, "the click did not play from 0:16: \(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  /// A memo whose file states no length: the strip and the scrubber span what its index counts,
  /// the time left reads as about that long, and the strip fills in as it does for any memo.
  @Test func aLengthTheFileDoesNotStateStillGetsItsStrip() throws {
    let folder = try TUIHarness.steppedFolder()
    try MP4Patch.zeroTrackTimescale(folder.appendingPathComponent("2026-03-14T09-30-00Z_audio.m4a").path)
    let tmux = try TmuxSession(
      folder: folder, environment: EndToEndActionTests.soundToFile(ListeningEndToEndTests.soundFile(folder)))
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "1 memo") != nil, "\(tmux.capture())")
    tmux.send("Space")
    let filled = tmux.wait(timeout: 10) { screen in
      let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
      guard lines.count > 29 else { return false }
      let row = lines[28].filter { $0 != " " }
      return row.count > 20 && row.allSatisfy { Self.blocks.contains($0) } && lines[29].contains("-≈0:")
    }
    #expect(filled != nil, "no strip over a counted scale: \(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }
}
