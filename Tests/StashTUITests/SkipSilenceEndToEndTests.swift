import Foundation
import StashTestSupport
import Testing

/// Skip silence and voice boost in the real browser in tmux, playing to ALSA's `file` PCM paced to
/// real time: started from the command line, changed with `s` and `v`, and the transport line
/// saying how much of the memo's pauses was left out while the clock keeps the memo's time.
@Suite struct SkipSilenceEndToEndTests {
  /// A memo of 0.4 s tone bursts, each followed by 3 s of silence, 24 s in all.
  static func pausedFolder() throws -> URL {
    let folder = try Fixtures.scratchFolder("stash-tui-skip")
    let memo = folder.appendingPathComponent("2026-08-01T09-00-00_audio.m4a").path
    let made = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "aevalsrc=if(lt(mod(t\\,3.4)\\,0.4)\\,0.5*sin(2*PI*440*t)\\,0):s=48000:d=24", "-ac", "1", "-c:a",
        "aac",
        "-b:a", "96k", memo,
      ])
    try #require(made.status == 0, "ffmpeg failed: \(made.standardError)")
    return folder
  }

  @Test func theLineSaysWhatSkipSilenceSavedAndVoiceBoostIsOn() throws {
    let folder = try Self.pausedFolder()
    let tmux = try TmuxSession(
      folder: folder, width: 120,
      environment: EndToEndActionTests.soundToFile(ListeningEndToEndTests.soundFile(folder)),
      arguments: ["--skip-silence=strong", "--voice-boost"])
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "1 memo") != nil, "\(tmux.capture())")
    tmux.send("Enter", " ")
    // Seven pauses of 3 s cut to 0.15 s: the memo's 24 s play in about 4.5 s, and the line says
    // how much was left out, in memo time.
    let saved = tmux.wait(timeout: 15) { screen in
      let line = TUIHarness.transport(screen)
      guard line.contains("voice boost"), let range = line.range(of: "skip silence strong, ") else {
        return false
      }
      let clock = line[range.upperBound...].prefix { $0 != " " }
      return clock >= "0:06" && clock.count == 4
    }
    #expect(saved != nil, "\(TUIHarness.transport(tmux.capture()))")
    // The clock stays in memo time: past what real time alone would have reached.
    tmux.send("s")
    #expect(tmux.wait(for: "Skip silence off") != nil, "\(tmux.capture())")
    // v's second level adds enhance (the noise reduction), the third turns both off.
    tmux.send("v")
    #expect(tmux.wait(for: "Voice boost + enhance") != nil, "\(tmux.capture())")
    #expect(tmux.wait { TUIHarness.transport($0).contains("voice boost + enhance") } != nil)
    tmux.send("v")
    #expect(tmux.wait(for: "Voice boost and enhance off.") != nil, "\(tmux.capture())")
    #expect(tmux.wait { !TUIHarness.transport($0).contains("voice boost") } != nil)
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }
}
