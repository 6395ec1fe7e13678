import Foundation
import StashTestSupport
import Testing

/// A recording from Apple's Voice Memos, imported by `stash import`, in the real browser in tmux
/// (issue 47): listed under its title, found by `S` at the word its transcript run times, and
/// played from that word to an ALSA `file` PCM.
@Suite struct ImportedVoiceMemoEndToEndTests {
  static let runs: [(String, (Double, Double)?)] = [
    ("Planting ", (0.5, 1.0)), ("the ", (1.1, 1.3)), ("tomatoes. ", (1.4, 2.0)), ("Then ", (6.2, 6.5)),
    ("compost ", (6.6, 7.2)), ("everything.", (7.3, 8.0)),
  ]

  @Test func anImportedRecordingIsFoundByItsWordAndPlaysFromIt() throws {
    let root = try Fixtures.scratchFolder("stash-tui-voice-memo")
    let recordings = root.appendingPathComponent("Recordings")
    let memos = root.appendingPathComponent("memos")
    try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
    let audio = try VoiceMemoRecording.make(
      seconds: 12, title: "Garden plans", transcript: VoiceMemoRecording.tableJSON(Self.runs))
    try Data(audio).write(to: recordings.appendingPathComponent("20250608 083012-1A2B3C4D.m4a"))
    let imported = try runProcess(
      Fixtures.product("stash").path, ["import", recordings.path, memos.path],
      environment: ["XDG_STATE_HOME": root.appendingPathComponent("state").path])
    try #require(imported.status == 0, "\(imported.standardOutput)\(imported.standardError)")

    let sound = root.appendingPathComponent("sound.raw")
    let tmux = try TmuxSession(folder: memos, environment: EndToEndActionTests.soundToFile(sound))
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "1 memo") != nil, "\(tmux.capture())")
    #expect(tmux.wait(for: "Garden plans") != nil, "the title is not listed: \(tmux.capture())")
    tmux.send("S")
    #expect(tmux.wait(for: "Search what was said:") != nil, "\(tmux.capture())")
    tmux.type("compost")
    // The hit at its run's start (0:06.6), the cue from the phrase after the pause (0:06.2).
    #expect(tmux.wait(for: "0:06  Then [compost]") != nil, "\(tmux.capture())")
    tmux.send("Enter")
    #expect(tmux.wait(for: "1 hit: Enter plays from one") != nil, "\(tmux.capture())")
    tmux.send("Enter")
    let playing = tmux.wait { ListeningEndToEndTests.clock($0) != nil }
    let first = playing.flatMap(ListeningEndToEndTests.clock)
    #expect(first.map { (6...9).contains($0) } == true, "not played from the word: \(tmux.capture())")
    #expect(
      tmux.wait(timeout: 10) { _ in
        ((try? FileManager.default.attributesOfItem(atPath: sound.path)[.size] as? Int) ?? 0) > 0
      } != nil, "nothing reached the device")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }
}
