import Foundation
import StashFormat
import StashTestSupport
import Testing

/// Bookmarks in the real binary in tmux (issue 48 §1), the memo playing to a real ALSA PCM (the
/// `file` plugin, paced to real time): `b` while playing writes the moment to
/// `<base>_bookmarks.vtt` at once, the note typed after goes into it, the bookmark shows on the
/// scrubber under the waveform and in the transcript, `!` plays from it again, and `S` finds its
/// note and plays from it.
@Suite struct BookmarkEndToEndTests {
  @Test func aBookmarkAddedWhilePlayingIsWrittenShownAndPlayedFromAgain() throws {
    let folder = try TUIHarness.steppedFolder()
    let file = folder.appendingPathComponent("2026-03-14T09-30-00Z_bookmarks.vtt")
    let tmux = try TmuxSession(
      folder: folder, environment: EndToEndActionTests.soundToFile(ListeningEndToEndTests.soundFile(folder)))
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "1 memo") != nil, "\(tmux.capture())")
    tmux.send("Space")
    #expect(tmux.wait { (3...6).contains(ListeningEndToEndTests.clock($0) ?? 0) } != nil, "\(tmux.capture())")
    tmux.send("b")
    // Written with the key, before any note is typed.
    let prompt = try #require(tmux.wait(for: "Note for the bookmark at"), "\(tmux.capture())")
    let written = try #require(
      Self.waitForFile(file) { $0.cues.count == 1 }, "no bookmarks file after b: \(tmux.capture())")
    let at = written.cues[0].startTime
    #expect(prompt.contains("Note for the bookmark at \(TimeText.clock(at))"), "\(prompt)")
    #expect((3...7).contains(at), "bookmarked at \(at) s")
    tmux.type("budget for Ana")
    tmux.send("Enter")
    #expect(tmux.wait(for: "Noted at") != nil, "\(tmux.capture())")
    let noted = try #require(Self.waitForFile(file) { $0.cues.first?.text == "budget for Ana" })
    #expect(noted.headerText == Bookmarks.header)
    // In the transcript, with its note; played on past it, on the scrubber (row 29, under the
    // strip) where the head was.
    let shown = tmux.wait { $0.contains("▼  \(TimeText.clock(at)) budget for Ana") }
    #expect(shown != nil, "\(tmux.capture())")
    let past = tmux.wait { (ListeningEndToEndTests.clock($0) ?? 0) >= Int(at) + 3 }
    let rows = (past ?? "").split(separator: "\n", omittingEmptySubsequences: false)
    #expect(rows.count > 29 && rows[29].contains("▼"), "\(past ?? tmux.capture())")
    // ! plays from it again.
    tmux.send("!")
    let back = tmux.wait(timeout: 5) { screen in
      (ListeningEndToEndTests.clock(screen) ?? 99) <= Int(at) + 1 && screen.contains("Bookmark 1 of 1")
    }
    #expect(back != nil, "! did not play from the bookmark at \(at) s: \(tmux.capture())")
    // S finds the note, marked as a bookmark, and plays from its moment.
    #expect(tmux.wait { (ListeningEndToEndTests.clock($0) ?? 0) >= Int(at) + 3 } != nil, "\(tmux.capture())")
    tmux.send("S")
    #expect(tmux.wait(for: "Search what was said:") != nil, "\(tmux.capture())")
    tmux.type("Ana")
    // (The list is narrow: the note is cut before its match, after the sign.)
    let listed = tmux.wait(for: "for [Ana]")
    #expect(listed?.contains("▼ …get for [Ana]") == true, "\(listed ?? tmux.capture())")
    tmux.send("Enter")
    #expect(tmux.wait(for: "1 hit: Enter plays from one") != nil, "\(tmux.capture())")
    tmux.send("Enter")
    let found = tmux.wait(timeout: 5) { (ListeningEndToEndTests.clock($0) ?? 99) <= Int(at) + 1 }
    #expect(found != nil, "Enter on the note did not play from \(at) s: \(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  /// The bookmarks file at `url` once it reads and `condition` holds, within five seconds.
  static func waitForFile(_ url: URL, until condition: (WebVTTDocument) -> Bool) -> WebVTTDocument? {
    let deadline = Date().addingTimeInterval(5)
    repeat {
      if let data = try? Data(contentsOf: url) {
        let document = WebVTTParser.parse([UInt8](data))
        if condition(document) { return document }
      }
      usleep(20_000)
    } while Date() < deadline
    return nil
  }
}
