import Foundation
import StashTestSupport
import Testing

/// Playing on a real ALSA PCM (the `file` plugin, paced to real time) and the writes: rename,
/// delete to the Trash, the refusal, recovery. The real binary in tmux, on scratch folders.
@Suite struct EndToEndActionTests {
  /// The environment that sends audio to a file at the speed it would be heard.
  static func soundToFile(_ raw: URL) -> [String: String] {
    ["STASH_ALSA_DEVICE": "file:FILE=\(raw.path),FORMAT=raw", "STASH_ALSA_PACE": "1"]
  }

  @Test func playsFromACueFollowsSeeksAndPauses() throws {
    let folder = try TUIHarness.memoFolder()
    let raw = folder.deletingLastPathComponent().appendingPathComponent("\(folder.lastPathComponent).raw")
    let tmux = try TmuxSession(folder: folder, environment: Self.soundToFile(raw))
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("Down", "Down", "Enter", "Down", "Enter")
    // Enter on the second cue plays from it: the cue is marked spoken and the clock runs from 0:03.
    #expect(tmux.wait(for: "│›▶  0:03 The second cue") != nil, "\(tmux.capture())")
    #expect(tmux.wait { TUIHarness.transport($0).hasPrefix("▶ 0:04") } != nil, "\(tmux.capture())")
    // Right seeks 5 s on; the view follows the speech to the cue after the gap.
    tmux.send("Right")
    #expect(tmux.wait(for: "│›▶  0:12 After the gap", timeout: 15) != nil, "\(tmux.capture())")
    // Scrolling stops following and says how to resume; f resumes.
    tmux.send("Up")
    #expect(tmux.wait(for: "Not following the speech: f follows again.") != nil, "\(tmux.capture())")
    tmux.send("f")
    #expect(tmux.wait { !$0.contains("Not following") && $0.contains("│›▶") } != nil, "\(tmux.capture())")
    // Space pauses: the clock stops.
    tmux.send("Space")
    let paused = try #require(tmux.wait { TUIHarness.transport($0).hasPrefix("‖") }, "\(tmux.capture())")
    Thread.sleep(forTimeInterval: 1.2)
    #expect(TUIHarness.transport(tmux.capture()) == TUIHarness.transport(paused))
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
    let size = (try FileManager.default.attributesOfItem(atPath: raw.path)[.size] as? Int) ?? 0
    #expect(size > 48000 * 4, "the device was given \(size) bytes")
  }

  @Test func theEndOfTheMemoShowsAsItHappens() throws {
    let folder = try TUIHarness.memoFolder()
    let raw = folder.deletingLastPathComponent().appendingPathComponent("\(folder.lastPathComponent).raw")
    let tmux = try TmuxSession(folder: folder, environment: Self.soundToFile(raw))
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    // Play the 20-second memo from 0:18, pause, resume: the end arrives from the player thread.
    tmux.send("Down", "Down", "Enter", "g")
    tmux.type("0:18")
    tmux.send("Enter")
    #expect(tmux.wait { TUIHarness.transport($0).hasPrefix("▶ 0:18") } != nil, "\(tmux.capture())")
    tmux.send("Space")
    #expect(tmux.wait { TUIHarness.transport($0).hasPrefix("‖") } != nil, "\(tmux.capture())")
    tmux.send("Space")
    // Ended, the memo is shown opened again, stopped at its start (its waveform over the scrubber).
    let ended = tmux.wait(timeout: 15) {
      TUIHarness.transport($0).hasPrefix("■ 0:00") && TUIHarness.transport($0).contains("Stopped")
    }
    #expect(ended != nil, "the end never showed: \(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func withoutASoundDeviceItSaysWhyAndTheRestWorks() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(folder: folder, environment: ["STASH_ALSA_DEVICE": "hw:77,0"])
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("Down", "Down", "Enter", "Enter")
    let failed = try #require(tmux.wait(for: "Cannot play:"), "\(tmux.capture())")
    #expect(TUIHarness.transport(failed).hasPrefix("✕ Cannot play:"))
    tmux.send("Escape", "Up")
    #expect(tmux.wait { TUIHarness.selectedRow($0)?.contains("会議のメモ") == true } != nil, "\(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func renamesAndRemovesTheTitle() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(folder: folder)
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("Down", "Down", "r")
    #expect(tmux.wait(for: "Name (empty removes the title):") != nil)
    tmux.type("Walk by the river")
    tmux.send("Enter")
    #expect(
      tmux.wait { TUIHarness.selectedRow($0)?.contains("Walk by the river") == true } != nil,
      "\(tmux.capture())")
    let titleFile = folder.appendingPathComponent("2026-03-14T09-30-00Z_title.txt")
    #expect(try String(contentsOf: titleFile, encoding: .utf8) == "Walk by the river")
    // A title longer than a title may be is refused, and the one there is kept.
    tmux.send("r", "C-u")
    tmux.type(String(repeating: "long ", count: 41))
    tmux.send("Enter")
    #expect(
      tmux.wait(for: "it is 204 characters long, and a title holds at most 200") != nil, "\(tmux.capture())")
    #expect(try String(contentsOf: titleFile, encoding: .utf8) == "Walk by the river")
    tmux.send("Escape")
    // An empty name removes the file; the memo reads as its date again.
    tmux.send("r", "C-u", "Enter")
    #expect(tmux.wait(for: "Title removed") != nil, "\(tmux.capture())")
    #expect(tmux.wait { TUIHarness.selectedRow($0)?.contains("2026-03-14 09:30") == true } != nil)
    #expect(!FileManager.default.fileExists(atPath: titleFile.path))
    tmux.send("q")
  }

  /// A paste with line breaks into the rename prompt is one line of the title: what follows a
  /// line break is not taken for keys (a paste once went on to `d`, `y` and moved the memo to the
  /// Trash). A zero-width joiner typed after a letter joins it without crashing the browser.
  @Test func aPasteIsOneLineOfTextNeverKeys() throws {
    let folder = try TUIHarness.memoFolder()
    let data = try Fixtures.scratchFolder("stash-tui-xdg")
    defer { try? FileManager.default.removeItem(at: data) }
    let tmux = try TmuxSession(folder: folder, environment: ["XDG_DATA_HOME": data.path])
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("Down", "Down", "r")
    #expect(tmux.wait(for: "Name (empty removes the title):") != nil)
    tmux.paste("Walk\ndy\n")
    tmux.type("x\u{200D}y")
    tmux.send("Enter")
    let titleFile = folder.appendingPathComponent("2026-03-14T09-30-00Z_title.txt")
    #expect(tmux.wait(for: "Renamed to") != nil, "\(tmux.capture())")
    #expect(try String(contentsOf: titleFile, encoding: .utf8) == "Walk dy x\u{200D}y", "\(tmux.capture())")
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("2026-03-14T09-30-00Z_audio.m4a").path))
    #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("Trash").path))
    // Outside a prompt a paste does nothing.
    tmux.paste("dy")
    #expect(tmux.wait(for: "Pasted text goes into a prompt only") != nil, "\(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func deletesToTheTrashNamingEveryFile() throws {
    let folder = try TUIHarness.memoFolder()
    let data = try Fixtures.scratchFolder("stash-tui-xdg")
    let tmux = try TmuxSession(folder: folder, environment: ["XDG_DATA_HOME": data.path])
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("Down", "Down", "d")
    let asked = try #require(tmux.wait(for: "Move to the Trash?"), "\(tmux.capture())")
    #expect(asked.contains("2026-03-14T09-30-00Z_audio.m4a"))
    #expect(asked.contains("2026-03-14T09-30-00Z_transcription.vtt"))
    tmux.send("y")
    #expect(tmux.wait { $0.contains("2 memos") && $0.contains("to the Trash") } != nil, "\(tmux.capture())")
    let trashed = try FileManager.default.contentsOfDirectory(atPath: data.path + "/Trash/files")
    #expect(Set(trashed) == ["2026-03-14T09-30-00Z_audio.m4a", "2026-03-14T09-30-00Z_transcription.vtt"])
    #expect(
      !FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("2026-03-14T09-30-00Z_audio.m4a").path))
    tmux.send("q")
  }

  /// What a library writes to standard error while the browser runs stays off the screen and
  /// comes out once the browser has ended: libpulse, opening the pulse device with no absolute
  /// home folder (and no server to reach), writes that it cannot find the home folder.
  @Test func whatALibraryWritesToStandardErrorComesAfterTheScreen() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(
      folder: folder,
      environment: [
        "STASH_ALSA_DEVICE": "pulse", "HOME": "no-home", "PULSE_SERVER": "unix:/nonexistent/stash-no-server",
      ])
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("Down", "Down", "Enter", "Enter")
    let failed = try #require(tmux.wait(for: "Cannot play:"), "\(tmux.capture())")
    #expect(!failed.contains("home directory"), "\(failed)")
    tmux.send("Escape", "q")
    let ended = try #require(tmux.wait(for: "EXITED:0"), "\(tmux.capture())")
    #expect(ended.contains("Failed to get the home directory"), "\(ended)")
  }

  @Test func withoutATrashItAsksAgainBeforeDeletingForGood() throws {
    let folder = try TUIHarness.memoFolder()
    // No XDG_DATA_HOME and a HOME that is not an absolute path: there is no Trash to use.
    let tmux = try TmuxSession(folder: folder, environment: ["HOME": "no-home", "XDG_DATA_HOME": ""])
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("Down", "Down", "d")
    #expect(tmux.wait(for: "Move to the Trash?") != nil)
    tmux.send("y")
    let asked = try #require(tmux.wait(for: "Delete for good?"), "\(tmux.capture())")
    #expect(asked.contains("The Trash cannot take them"))
    #expect(asked.contains("2026-03-14T09-30-00Z_transcription.vtt"))
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("2026-03-14T09-30-00Z_audio.m4a").path))
    tmux.send("y")
    #expect(tmux.wait { $0.contains("2 memos") && $0.contains("for good") } != nil, "\(tmux.capture())")
    #expect(
      !FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("2026-03-14T09-30-00Z_audio.m4a").path))
    tmux.send("q")
  }

  @Test func refusesToDeleteWhenThePartsFolderHoldsAStrangersFile() throws {
    let folder = try TUIHarness.memoFolder()
    let parts = folder.appendingPathComponent("2026-03-14T09-30-00Z.parts")
    try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
    try "mine".write(to: parts.appendingPathComponent("notes.txt"), atomically: false, encoding: .utf8)
    let data = try Fixtures.scratchFolder("stash-tui-xdg")
    let tmux = try TmuxSession(folder: folder, environment: ["XDG_DATA_HOME": data.path])
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("Down", "Down", "d")
    #expect(tmux.wait(for: "Move to the Trash?") != nil)
    tmux.send("y")
    let refused = try #require(tmux.wait(for: "Nothing was deleted"), "\(tmux.capture())")
    #expect(refused.contains("notes.txt"))
    tmux.send("Escape")
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    #expect(
      FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("2026-03-14T09-30-00Z_audio.m4a").path))
    #expect(FileManager.default.fileExists(atPath: parts.appendingPathComponent("notes.txt").path))
    tmux.send("q")
  }

  /// A recording killed while writing its last parts: R, y publishes what the parts hold and the
  /// report keeps the torn parts as the sign of the loss, asking to accept it; y notes the loss in
  /// the transcript and the parts go, as `stash recover --accept-loss` does.
  @Test func acceptsTheLossARecoveryReportShows() throws {
    let root = try TornCapture.make("stash-tui-torn", agedAnHour: true)
    defer { root.remove() }
    let base = TornCapture.base
    let tmux = try TmuxSession(folder: root.url)
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "1 memo") != nil, "\(tmux.capture())")
    tmux.send("R")
    #expect(tmux.wait(for: "y recovers") != nil, "\(tmux.capture())")
    tmux.send("y")
    let asked = try #require(tmux.wait(for: "y accepts the loss"), "\(tmux.capture())")
    #expect(asked.contains("ends mid-cue at 0:11"), "\(asked)")
    let transcript = root.path + "/" + base + "_transcription.vtt"
    #expect(!(try String(contentsOfFile: transcript, encoding: .utf8)).contains("missing-speech"))
    #expect(FileManager.default.fileExists(atPath: root.path + "/" + base + ".parts"))
    tmux.send("y")
    let report = try #require(tmux.wait(for: "the loss was accepted"), "\(tmux.capture())")
    #expect(!report.contains("y accepts the loss"), "\(report)")
    #expect(!FileManager.default.fileExists(atPath: root.path + "/" + base + ".parts"))
    #expect(
      try String(contentsOfFile: transcript, encoding: .utf8).contains(
        "NOTE stash missing-speech 00:00:11.131 00:00:13.504\n"))
    tmux.send("Escape", "q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func recoversAKilledRecordingAndShowsTheReport() throws {
    let folder = try TUIHarness.memoFolder()
    // The untitled Japanese-free memo was killed: its transcript is still in two parts.
    let base = "2026-07-20T07-45-10Z"
    let parts = folder.appendingPathComponent(base + ".parts")
    try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
    try "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nFirst part of the walk.\n".write(
      to: parts.appendingPathComponent("transcription.0001.vtt"), atomically: false, encoding: .utf8)
    try "WEBVTT\n\n00:01:01.000 --> 00:01:04.000\nSecond part of the walk.\n".write(
      to: parts.appendingPathComponent("transcription.0002.vtt"), atomically: false, encoding: .utf8)
    for name in ["transcription.0001.vtt", "transcription.0002.vtt"] {
      _ = try runProcess("touch", ["-d", "2026-07-20 08:00:00 UTC", parts.appendingPathComponent(name).path])
    }
    let tmux = try TmuxSession(folder: folder)
    defer { tmux.close() }
    let listed = try #require(tmux.waitUntilRead(for: "3 memos"), "\(tmux.capture())")
    #expect(TUIHarness.selectedRow(listed)?.contains("*") == true, "needs-recovery mark: \(listed)")
    tmux.send("R")
    // The plan first, asking; nothing written until y.
    let plan = try #require(tmux.wait(for: "─ Recovery plan "), "\(tmux.capture())")
    #expect(plan.contains("y recovers"), "\(plan)")
    #expect(
      !FileManager.default.fileExists(atPath: folder.appendingPathComponent(base + "_transcription.vtt").path)
    )
    tmux.send("y")
    let report = try #require(tmux.wait(for: "    published: "), "\(tmux.capture())")
    #expect(report.contains(base))
    #expect(!report.contains("Recovering…"), "the line goes once the report shows: \(report)")
    tmux.send("Escape", "Enter")
    #expect(tmux.wait(for: "Second part of the walk.") != nil, "\(tmux.capture())")
    #expect(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent(base + "_transcription.vtt").path))
    tmux.send("q")
  }
}

extension TUIHarness {
  /// The transport line without its leading space.
  static func transport(_ screen: String) -> String {
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
    let last = lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    return last.trimmingCharacters(in: .whitespaces)
  }
}
