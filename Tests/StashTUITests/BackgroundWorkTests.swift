import Foundation
import StashTestSupport
import Testing

/// Slow work runs off the interface thread: keys are answered while the transcript filter reads
/// thousands of files, its progress shows, and a newer filter supersedes an older one.
@Suite struct BackgroundWorkTests {
  /// Memos in the generated folder, each transcript about 6 kB: enough that the first transcript
  /// search takes a good part of a second even on a fast machine, so a key sent during it is
  /// answered before it ends (with 1 kB transcripts it ended first now and then).
  static let memoCount = 8000

  /// A folder of `memoCount` memos (the test tone, hard-linked, and a transcript); every second
  /// transcript says "omega", every third "alpha". Returns the folder and how many say omega.
  static func bigFolder() throws -> (URL, omega: Int) {
    let folder = try Fixtures.scratchFolder("stash-tui-big")
    var omega = 0
    let filler = (1...12).map { i in
      "00:00:\(String(format: "%02d", i * 4)).000 --> 00:00:\(String(format: "%02d", i * 4 + 3)).000\n"
        + String(
          repeating: "Cue \(i) of a long generated memo about nothing in particular, said at some length. ",
          count: 6) + "\n"
    }.joined(separator: "\n")
    for n in 0..<memoCount {
      let base = String(format: "2025-01-%02dT%02d-%02d-00Z", n / 1440 + 1, n / 60 % 24, n % 60)
      var words: [String] = []
      if n % 2 == 0 {
        words.append("omega")
        omega += 1
      }
      if n % 3 == 0 { words.append("alpha") }
      let text =
        "WEBVTT\n\n" + filler + "\n00:00:59.000 --> 00:00:59.500\nThe end \(words.joined(separator: " ")).\n"
      let audio = folder.appendingPathComponent(base + "_audio.m4a")
      do {
        try FileManager.default.linkItem(at: TUIHarness.toneAudio, to: audio)
      } catch {
        try FileManager.default.copyItem(at: TUIHarness.toneAudio, to: audio)
      }
      try text.write(
        to: folder.appendingPathComponent(base + "_transcription.vtt"), atomically: false, encoding: .utf8)
    }
    return (folder, omega)
  }

  @Test func keysAreAnsweredWhileTheFilterSearchesAndTheNewestFilterWins() throws {
    let (folder, omega) = try BackgroundWorkTests.bigFolder()
    let tmux = try TmuxSession(folder: folder, width: 120, height: 30)
    defer { tmux.close() }
    #expect(tmux.wait(for: "\(BackgroundWorkTests.memoCount) memos", timeout: 30) != nil, "\(tmux.capture())")
    // A first filter starts reading every transcript; its progress shows while the prompt is open.
    tmux.send("/")
    tmux.type("alpha")
    #expect(tmux.wait(for: "transcripts…") != nil, "no search progress: \(tmux.capture())")
    // A second one supersedes it; Enter closes the prompt and a key is answered mid-search.
    tmux.send("BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
    tmux.type("omega")
    tmux.send("Enter")
    tmux.send("?")
    let help = try #require(tmux.wait(for: "─ Keys "), "help never showed: \(tmux.capture())")
    #expect(
      help.contains("transcripts…"),
      "the key was answered only after the search had ended (or no progress showed): \(help)")
    tmux.send("Escape")
    // The newest filter's result, not the superseded one's.
    let done = try #require(
      tmux.wait(timeout: 60) { !$0.contains("transcripts…") && $0.contains("shown") }, "\(tmux.capture())")
    #expect(done.contains("filter “omega”: \(omega) shown"), "\(done)")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil, "\(tmux.capture())")
  }
}
