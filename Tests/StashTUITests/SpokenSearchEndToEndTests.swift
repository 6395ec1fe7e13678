import Foundation
import StashTestSupport
import Testing

/// The search of what was said (`S`) in the real binary in tmux, playing to an ALSA `file` PCM:
/// the hit is listed with its time and marked line, and Enter plays the memo from there.
@Suite struct SpokenSearchEndToEndTests {
  /// Types `query` into `S` in the harness's folder playing to an ALSA `file` PCM, waits for the
  /// hit list to show `listed` (its one hit), and plays from the hit with Enter, Enter; `then` gets
  /// the session, the sound file and the clock first shown.
  static func playFromTheOnlyHit(
    _ query: String, listed: String, then: (TmuxSession, URL, Int?) throws -> Void
  ) throws {
    let folder = try TUIHarness.memoFolder()
    let sound = ListeningEndToEndTests.soundFile(folder)
    let tmux = try TmuxSession(folder: folder, environment: EndToEndActionTests.soundToFile(sound))
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("S")
    #expect(tmux.wait(for: "Search what was said:") != nil, "\(tmux.capture())")
    tmux.type(query)
    #expect(tmux.wait { $0.contains(listed) } != nil, "\(tmux.capture())")
    #expect(tmux.wait(for: "1 hit in 1 memo") != nil, "\(tmux.capture())")
    tmux.send("Enter")
    #expect(tmux.wait(for: "1 hit: Enter plays from one") != nil, "\(tmux.capture())")
    tmux.send("Enter")
    let playing = tmux.wait { ListeningEndToEndTests.clock($0) != nil }
    try then(tmux, sound, playing.flatMap(ListeningEndToEndTests.clock))
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func aHitIsListedAndEnterPlaysFromIt() throws {
    // Upper case, and a phrase: the fold finds "The last cue ends here." (cue 4, from 0:15).
    try Self.playFromTheOnlyHit("LAST CUE", listed: "2026-03-14 09:30    0:15  The [last cue]") {
      tmux, sound, first in
      // The clock starts at the hit, not at 0:00, and the device is given sound.
      #expect(first.map { (15...19).contains($0) } == true, "\(tmux.capture())")
      #expect(
        tmux.wait(timeout: 10) { _ in
          ((try? FileManager.default.attributesOfItem(atPath: sound.path)[.size] as? Int) ?? 0) > 0
        } != nil, "nothing reached the device")
      // The transcript pane shows the memo, its cursor on the hit's cue.
      #expect(tmux.wait(for: "│›   0:15 The last cue ends here.") != nil, "\(tmux.capture())")
    }
  }

  /// A phrase typed without the comma it crosses (issue 49) is found at its first word's own
  /// time (`there` at 0:01), marked as the text has it, and Enter plays from that word.
  @Test func aPhraseAcrossACommaPlaysFromItsFirstWord() throws {
    try Self.playFromTheOnlyHit("there this is", listed: "2026-03-14 09:30    0:01  Hello [there, th") {
      tmux, _, first in
      #expect(first.map { (1...3).contains($0) } == true, "\(tmux.capture())")
    }
  }

  /// A damaged transcript is searched as far as it reads, and the hit list says so, as `stash
  /// search` warns of it. (The list once said nothing of it.)
  @Test func aDamagedTranscriptIsSaidToBeOne() throws {
    let folder = try TUIHarness.memoFolder()
    let damaged = "WEBVTT\n\n00:00.000 --> 00:01.000\nfirst words here\n\n00:0x.000 --> 00:02.000\nsocks\n"
    // The memo with no transcript in the harness's folder gets this one.
    try Data(damaged.utf8).write(to: folder.appendingPathComponent("2026-05-01T18-05-00Z_transcription.vtt"))
    let tmux = try TmuxSession(folder: folder)
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil, "\(tmux.capture())")
    tmux.send("S")
    tmux.type("words")
    #expect(
      tmux.wait(for: "2 hits in 2 memos · 1 damaged tra") != nil,
      "\(tmux.capture())")
    #expect(tmux.wait { $0.contains("0:00  first [words] he") } != nil, "\(tmux.capture())")
    // The memo beside the hit (the first hit's) says where its transcript is damaged, once: what
    // is wrong is in the problem above it.
    let beside = tmux.wait { $0.contains("Transcript damaged at line 6: the rest is shown.") }
    #expect(beside.map { !$0.contains("Transcript problem") } == true, "\(tmux.capture())")
    tmux.send("Escape")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }
}
