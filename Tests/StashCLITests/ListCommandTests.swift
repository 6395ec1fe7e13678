import Foundation
import StashFormat
import StashTestSupport
import Testing

@Suite struct ListCommandTests {
  let stash = Fixtures.product("stash").path

  /// Two seconds of tone, AAC in MP4, made by ffmpeg once per run.
  static let audio: Data = try! TestTone.mp4(seconds: 2, frequency: 330, fragmented: false)

  func makeFolder() throws -> URL {
    let url = try Fixtures.scratchFolder("stash-ls")
    func write(_ name: String, _ text: String? = nil) throws {
      try (text.map { Data($0.utf8) } ?? Self.audio).write(to: url.appendingPathComponent(name))
    }
    try write("2026-03-14T08-05-12Z_audio.m4a")
    try write("2026-03-14T08-05-12Z_transcription.vtt", "WEBVTT\n")
    try write("2026-03-14T08-05-12Z_track.gpx", "<gpx/>")
    try write("2026-03-14T08-05-12Z_title.txt", "散歩 🚶 to the station\n")
    try write("2025-06-01T07-00-00Z_audio.m4a")
    try write("2025-06-01T07-00-00Z_title.txt", "red \u{1b}[31m alert")
    try write("2024-01-01T00-00-00Z_audio.m4a")
    try FileManager.default.createDirectory(
      at: url.appendingPathComponent("2024-01-01T00-00-00Z.parts"), withIntermediateDirectories: false)
    try write("2024-01-01T00-00-00Z.parts/transcription.0001.vtt", "WEBVTT\n")
    try FileManager.default.createDirectory(
      at: url.appendingPathComponent("2023-05-05T05-05-05Z.parts"), withIntermediateDirectories: false)
    try write("2023-05-05T05-05-05Z.parts/track.0001.gpx", "<gpx/>")
    try write("stray_transcript.vtt", "WEBVTT\n")
    try write("lonely_title.txt", "no audio")
    return url
  }

  @Test func listsNewestFirstWithMarksAndASummary() throws {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runProcess(stash, ["ls", folder.path], environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"])
    #expect(result.status == 0)
    let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 5)
    #expect(lines[0].hasPrefix("2026-03-14 08:05  "))
    #expect(lines[0].hasSuffix("散歩 🚶 to the station"))
    #expect(lines[1].hasPrefix("2025-06-01 07:00  "))
    #expect(lines[1].hasSuffix(#"red \x1b[31m alert"#))
    #expect(!result.standardOutput.contains("\u{1b}"))
    #expect(lines[2].hasPrefix("2024-01-01 00:00  "))
    #expect(lines[2].hasSuffix("*  2024-01-01 00:00"))
    // A capture whose audio is missing: no length, a problem, and parts to recover.
    #expect(lines[3] == "2023-05-05 05:05     --:--  --!*  2023-05-05 05:05")
    // Every column before the name has the same width, whatever the name holds.
    let nameColumn = "2026-03-14 08:05   0:00:02  TR--  ".count
    for line in lines.prefix(4) { #expect(line.dropFirst(nameColumn - 2).hasPrefix("  "), "\(line)") }
    let marks = lines.prefix(4).map { String($0.dropFirst(nameColumn - 6).prefix(4)) }
    #expect(marks[0].hasPrefix("TR"))
    #expect(marks[1].hasPrefix("--"))
    #expect(marks[2].hasPrefix("--") && marks[2].hasSuffix("*"))
    #expect(marks[3] == "--!*")
    #expect(lines[4].hasPrefix("3 memos, "))
    #expect(lines[4].contains("1 capture without audio"))
    #expect(lines[4].contains("2 need recovery"))
    #expect(lines[4].contains("2 other files"))
  }

  @Test func lengthsAgreeWithFFprobe() throws {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let json = try runJSON(folder)
    let probe = try runProcess(
      "ffprobe",
      [
        "-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1",
        folder.appendingPathComponent("2024-01-01T00-00-00Z_audio.m4a").path,
      ])
    let probed = try #require(Double(probe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
    let memos = json.filter { $0["kind"] as? String == "memo" }
    #expect(memos.count == 3)
    for memo in memos {
      let length = try #require(memo["durationSeconds"] as? Double, "\(memo["base"] ?? "")")
      #expect(abs(length - probed) < 0.05)
      #expect(memo["audioState"] as? String == "ok")
      #expect(memo["fragmented"] as? Bool == false)
    }
  }

  func runJSON(_ folder: URL) throws -> [[String: Any]] {
    let result = try runProcess(stash, ["ls", "--json", folder.path], environment: ["TZ": "UTC"])
    #expect(result.status == 0)
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
  }

  @Test func jsonFollowsTheDocumentedSchema() throws {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let memos = try runJSON(folder)
    #expect(
      memos.map { $0["base"] as? String } == [
        "2026-03-14T08-05-12Z", "2025-06-01T07-00-00Z", "2024-01-01T00-00-00Z", "2023-05-05T05-05-05Z",
      ])
    let keys = [
      "base", "kind", "displayName", "title", "recordedAt", "recordedAtLocal", "dateSource",
      "durationSeconds",
      "files", "audioState", "tailBytes", "audioReason", "fragmented", "hasTranscript", "hasRoute",
      "bookmarks",
      "parts", "needsRecovery", "recover", "problems",
    ]
    for memo in memos { #expect(Set(memo.keys) == Set(keys)) }
    let first = memos[0]
    #expect(first["kind"] as? String == "memo")
    #expect(first["title"] as? String == "散歩 🚶 to the station")
    #expect(first["displayName"] as? String == "散歩 🚶 to the station")
    #expect(first["recordedAt"] as? String == "2026-03-14T08:05:12Z")
    #expect(first["recordedAtLocal"] as? String == "2026-03-14T08:05:12+00:00")
    #expect(first["dateSource"] as? String == "base")
    #expect(
      first["files"] as? [String: String] == [
        "audio": "2026-03-14T08-05-12Z_audio.m4a", "transcript": "2026-03-14T08-05-12Z_transcription.vtt",
        "route": "2026-03-14T08-05-12Z_track.gpx", "title": "2026-03-14T08-05-12Z_title.txt",
      ])
    #expect(first["hasTranscript"] as? Bool == true)
    #expect(first["hasRoute"] as? Bool == true)
    #expect(first["needsRecovery"] as? Bool == false)
    #expect(first["parts"] is NSNull)

    let killed = memos[2]
    #expect(killed["title"] is NSNull)
    #expect(killed["displayName"] as? String == "2024-01-01 00:00")
    #expect(killed["needsRecovery"] as? Bool == true)
    #expect(killed["recover"] as? [String] == ["transcript"])
    let parts = try #require(killed["parts"] as? [String: Any])
    #expect(parts["transcriptParts"] as? Int == 1)
    let problems = try #require(killed["problems"] as? [[String: Any]])
    #expect(
      problems.contains {
        $0["code"] as? String == "folder-needs-recovery"
          && $0["file"] as? String == "2024-01-01T00-00-00Z.parts"
      })

    let capture = memos[3]
    #expect(capture["kind"] as? String == "capture")
    #expect(capture["audioState"] as? String == "missing")
    #expect(capture["durationSeconds"] is NSNull)
    #expect(capture["recover"] as? [String] == ["route"])
  }

  @Test func emptyFolderAndHostileNames() throws {
    let folder = try Fixtures.scratchFolder("stash-ls")
    defer { try? FileManager.default.removeItem(at: folder) }
    let empty = try runProcess(stash, ["ls", folder.path])
    #expect(empty.status == 0)
    #expect(empty.standardOutput == "0 memos, 0:00:00 in all\n")
    #expect(try runProcess(stash, ["ls", "--json", folder.path]).standardOutput == "[]\n")

    try Self.audio.write(to: folder.appendingPathComponent("line\nbreak\u{7}_audio.m4a"))
    let listed = try runProcess(stash, ["ls", folder.path])
    #expect(listed.standardOutput.split(separator: "\n").count == 2)
    let json = try runProcess(stash, ["ls", "--json", folder.path])
    let parsed = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
    #expect(parsed?.first?["base"] as? String == "line\nbreak\u{7}")
  }

  @Test func usageAndUnreadableFoldersExitTwo() throws {
    let missing = try runProcess(stash, ["ls", "/nonexistent/memos"])
    #expect(missing.status == 2)
    #expect(missing.standardError.contains("/nonexistent/memos"))
    #expect(missing.standardError.contains("No such file or directory"))
    #expect(missing.standardOutput.isEmpty)
    #expect(try runProcess(stash, ["ls", "a", "b"]).status == 2)
    #expect(try runProcess(stash, ["ls", "--frobnicate"]).status == 2)
    let help = try runProcess(stash, ["ls", "--help"])
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("*  a killed recording left parts"))
  }

  @Test func listsTheCurrentFolderByDefault() throws {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let result = try runProcess(
      "/bin/sh", ["-c", "cd \"$1\" && exec \"$2\" ls", "sh", folder.path, stash], environment: ["TZ": "UTC"])
    #expect(result.status == 0)
    #expect(result.standardOutput.hasPrefix("2026-03-14 08:05"))
  }

  @Test func theDemoFolderListsAsItsManifestSays() throws {
    let demo = Fixtures.folder("demo")
    let data = try Data(contentsOf: demo.appendingPathComponent("MANIFEST.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let expected = try #require(manifest["memos"] as? [[String: Any]])
    let listed = try runJSON(demo)
    #expect(listed.count == expected.count)
    var previous = "9999"
    for memo in listed {
      let base = try #require(memo["base"] as? String)
      let entry = try #require(
        expected.first { $0["base"] as? String == base }, "\(base) is not in the manifest")
      let audio = try #require(entry["audio"] as? [String: Any])
      #expect(memo["audioState"] as? String == audio["state"] as? String, "\(base)")
      if let seconds = audio["durationSeconds"] as? Double {
        #expect(abs((memo["durationSeconds"] as? Double ?? -1) - seconds) < 1e-6, "\(base)")
      } else {
        #expect(memo["durationSeconds"] is NSNull, "\(base)")
      }
      if audio["state"] as? String == "cutShort" {
        #expect(memo["tailBytes"] as? Int == audio["tailBytes"] as? Int)
      }
      #expect(memo["title"] as? String == entry["title"] as? String, "\(base)")
      // Newest first: recordedAt is ISO 8601 in UTC, so text order is time order.
      let recordedAt = try #require(memo["recordedAt"] as? String)
      #expect(recordedAt <= previous, "\(base)")
      previous = recordedAt
    }
    let table = try runProcess(stash, ["ls", demo.path])
    #expect(table.status == 0)
    #expect(table.standardOutput.split(separator: "\n").count == expected.count + 1)
  }
}
