import Foundation
import StashTestSupport
import Testing

/// Apple Voice Memos recordings through the `stash` binary: lint says what one is before import,
/// inspect shows its transcript, import makes memos that lint finds clean, and search finds a word
/// at the time its run starts.
@Suite struct ImportVoiceMemosCLITests {
  let stash = Fixtures.product("stash").path

  static let runs: [(String, (Double, Double)?)] = [
    ("Buy ", (0.2, 0.5)), ("tomato ", (0.55, 0.9)), ("seeds. ", (0.95, 1.4)), ("Um, ", (2.1, 2.3)),
    ("and ", (2.3, 2.45)), ("compost…", (2.52, 2.9)),
  ]

  @Test func aRecordingFolderImportsCleanAndSearchFindsTheWordAtItsTime() throws {
    let root = try ScratchFolder("stash-import-voice-memos-cli")
    defer { root.remove() }
    let recordings = root.appendingPathComponent("Recordings")
    let memos = root.appendingPathComponent("memos")
    try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: memos, withIntermediateDirectories: true)
    let name = "20250608 083012-1A2B3C4D.m4a"
    let audio = try VoiceMemoRecording.make(
      seconds: 3, title: "Garden", transcript: VoiceMemoRecording.tableJSON(Self.runs))
    try Data(audio).write(to: recordings.appendingPathComponent(name))
    let environment = ProcessInfo.processInfo.environment.merging([
      "XDG_STATE_HOME": root.appendingPathComponent("state").path
    ]) { $1 }

    // Before import: lint says what it is and what to do.
    let before = try runProcess(
      stash, ["lint", recordings.path, "--format", "json"], environment: environment)
    #expect(before.standardOutput.contains("Apple's Voice Memos"), "\(before.standardOutput)")
    #expect(before.standardOutput.contains("stash import"))
    let one = try runProcess(stash, ["lint", recordings.appendingPathComponent(name).path])
    #expect(one.standardOutput.contains("a recording from Apple's Voice Memos"), "\(one.standardOutput)")

    let inspect = try runProcess(stash, ["inspect", recordings.appendingPathComponent(name).path, "--json"])
    #expect(inspect.status == 0, "\(inspect.standardError)")
    let inspected = try #require(
      try JSONSerialization.jsonObject(with: Data(inspect.standardOutput.utf8)) as? [String: Any])
    let voiceMemo = try #require(inspected["voiceMemo"] as? [String: Any])
    let transcript = try #require(voiceMemo["transcript"] as? [String: Any])
    #expect(transcript["box"] as? String == "moov/trak/udta/tsrp")
    #expect(transcript["shape"] as? String == "interleaved" || transcript["shape"] as? String == "table")
    #expect(transcript["runCount"] as? Int == Self.runs.count)
    #expect(voiceMemo["title"] as? String == "Garden")

    let imported = try runProcess(stash, ["import", recordings.path, memos.path], environment: environment)
    #expect(imported.status == 0, "\(imported.standardOutput)\(imported.standardError)")
    #expect(imported.standardOutput.contains("copied: 2025-06-08T08-30-12"), "\(imported.standardOutput)")
    let again = try runProcess(stash, ["import", recordings.path, memos.path], environment: environment)
    #expect(again.standardOutput.contains("already here: 2025-06-08T08-30-12"), "\(again.standardOutput)")

    // One recording named on the command line comes alone, as one memo's file does.
    let other = root.appendingPathComponent("one")
    let single = try runProcess(
      stash, ["import", recordings.appendingPathComponent(name).path, other.path], environment: environment)
    #expect(single.status == 0, "\(single.standardOutput)\(single.standardError)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: other.path).sorted() == [
        "2025-06-08T08-30-12_audio.m4a", "2025-06-08T08-30-12_title.txt",
        "2025-06-08T08-30-12_transcription.vtt",
      ])

    let lint = try runProcess(stash, ["lint", memos.path])
    #expect(lint.status == 0, "\(lint.standardOutput)\(lint.standardError)")

    let search = try runProcess(stash, ["search", "compost", memos.path, "--json"])
    #expect(search.status == 0, "\(search.standardError)")
    let found = try #require(
      try JSONSerialization.jsonObject(with: Data(search.standardOutput.utf8)) as? [String: Any])
    let hits = try #require(found["hits"] as? [[String: Any]])
    #expect(hits.count == 1, "\(search.standardOutput)")
    #expect(hits.first?["base"] as? String == "2025-06-08T08-30-12")
    #expect(hits.first?["start"] as? Double == 2.52)
    #expect(hits.first?["cueStart"] as? Double == 2.1)
  }
}
