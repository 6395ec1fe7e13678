import Foundation
import StashTestSupport
import Testing

/// A clip saved from the browser in the real binary in tmux (issue 48 §2): the A-B loop set while
/// the memo plays, `c` asks once where clips go (offering `$XDG_DOCUMENTS_DIR`), and the clip is
/// there, `ffprobe` giving it the loop's length, named after the memo and the span; the folder is
/// remembered for the next run, and nothing is written into the memo folder.
@Suite struct ClipEndToEndTests {
  @Test func theLoopIsSavedAsAClipInTheFolderChosenOnce() throws {
    let folder = try TUIHarness.steppedFolder()
    let documents = try Fixtures.scratchFolder("stash-clips")
    let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    var environment = EndToEndActionTests.soundToFile(ListeningEndToEndTests.soundFile(folder))
    environment["XDG_DOCUMENTS_DIR"] = documents.path
    let tmux = try TmuxSession(folder: folder, environment: environment)
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "1 memo") != nil, "\(tmux.capture())")
    tmux.send("Space")
    #expect(tmux.wait { (2...4).contains(ListeningEndToEndTests.clock($0) ?? 0) } != nil, "\(tmux.capture())")
    tmux.send("l")
    #expect(tmux.wait(for: "l again sets its end") != nil, "\(tmux.capture())")
    #expect(tmux.wait { (ListeningEndToEndTests.clock($0) ?? 0) >= 7 } != nil, "\(tmux.capture())")
    tmux.send("l")
    let loop = try #require(tmux.wait(for: "Repeating"), "\(tmux.capture())")
    tmux.send("c")
    #expect(tmux.wait(for: "Save clips in (asked once): \(documents.path)") != nil, "\(tmux.capture())")
    tmux.send("Enter")
    let saved = try #require(tmux.wait(for: "Saved "), "\(tmux.capture())")
    let clips = try FileManager.default.contentsOfDirectory(atPath: documents.path).filter {
      $0.hasSuffix(".m4a")
    }
    try #require(clips.count == 1, "\(clips) \(saved)")
    #expect(clips[0].hasPrefix("2026-03-14 09:30 0m0"), "\(clips[0])")
    // The loop's ends as the status line said them (whole seconds), and ffprobe's length.
    let probe = try runProcess(
      "ffprobe",
      ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", documents.path + "/" + clips[0]])
    let length = try #require(Double(probe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(length > 3 && length < 7, "a clip of \(length) s from \(loop)")
    // Asked once: the folder is remembered for the next run.
    let remembered = try String(
      contentsOf: tmux.stateHome.appendingPathComponent("stash/clip-folder"), encoding: .utf8)
    #expect(remembered == documents.path + "\n")
    tmux.send("c")
    #expect(
      tmux.wait { $0.components(separatedBy: "Saved ").count > 1 && !$0.contains("Save clips in") } != nil)
    #expect(
      tmux.wait(timeout: 5) { _ in
        ((try? FileManager.default.contentsOfDirectory(atPath: documents.path)) ?? []).filter {
          $0.hasSuffix(".m4a")
        }.count == 2
      } != nil, "the second clip was not saved beside the first: \(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
    // Nothing new in the memo folder.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)
  }
}
