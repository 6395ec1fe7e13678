import Foundation
import StashFormat
import StashTestSupport
import Testing

/// `stash inspect FILE.m4a --json`, run as the built binary on files ffmpeg makes and on the demo fixtures.
@Suite struct InspectAudioTests {
  let stash = Fixtures.product("stash").path

  func inspect(_ path: String) throws -> (status: Int32, json: [String: Any]?, error: String) {
    let result = try runProcess(stash, ["inspect", path, "--json"])
    let json = try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    return (result.status, json, result.standardError)
  }

  @Test func fragmentedRecording() throws {
    let folder = try ScratchFolder("stash-inspect-audio")
    defer { folder.remove() }
    let path = folder.appendingPathComponent("memo_audio.m4a").path
    try TestTone.mp4(seconds: 5, fragmentSeconds: 2).write(to: URL(fileURLWithPath: path))
    let (status, json, _) = try inspect(path)
    #expect(status == 0)
    let j = try #require(json)
    #expect(j["kind"] as? String == "audio")
    #expect(j["state"] as? String == "ok")
    #expect(j["fragmented"] as? Bool == true)
    #expect(j["codec"] as? String == "mp4a.40.2")
    #expect(j["sampleRate"] as? Int == 48000)
    #expect(j["channels"] as? Int == 1)
    #expect(j["timescale"] as? Int == 48000)
    #expect(j["primingSamples"] as? Int == 1024)
    #expect(j["tailBytes"] as? Int == 0)
    #expect(j["damaged"] is NSNull)
    // ffprobe counts the same packets.
    let probe = try runProcess(
      "ffprobe",
      ["-v", "error", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", path])
    #expect(
      j["sampleCount"] as? Int == Int(probe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
    let seconds = try #require(j["durationSeconds"] as? Double)
    #expect(abs(seconds - 5) < 1024.0 / 48000)
    let diagnostics = try #require(j["diagnostics"] as? [[String: Any]])
    #expect(
      diagnostics.contains {
        $0["code"] as? String == "mp4-priming-assumed" && $0["severity"] as? String == "info"
      })
  }

  /// The demo's damaged, cut-short and length-unreadable memos each say so in the JSON.
  @Test func demoStates() throws {
    let demo = Fixtures.folder("demo")
    let damaged = try #require(
      try inspect(demo.appendingPathComponent("2026-10-11T14-20-00_audio.m4a").path).json)
    #expect(damaged["state"] as? String == "damaged")
    #expect((damaged["damaged"] as? String)?.contains("killed before its first flush") == true)
    #expect(damaged["durationSeconds"] is NSNull)
    let torn = try #require(
      try inspect(demo.appendingPathComponent("2026-04-22T12-30-05_audio.m4a").path).json)
    #expect(torn["state"] as? String == "cutShort")
    #expect(torn["tailBytes"] as? Int == 162)
    let codes = (torn["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    #expect(codes.contains("mp4-torn-tail"))
    let unreadable = try #require(
      try inspect(demo.appendingPathComponent("2026-11-02T09-15-30_audio.m4a").path).json)
    #expect(unreadable["state"] as? String == "lengthUnreadable")
    #expect(unreadable["durationSeconds"] is NSNull)
    #expect(unreadable["sampleCount"] as? Int == 310)
  }

  /// Lengths print to the microsecond, as route times do, in `inspect` and in `ls`: the demo's
  /// lengths (sample counts over 48 kHz) are rounded, not printed with their float noise.
  @Test func lengthsPrintToTheMicrosecond() throws {
    let demo = Fixtures.folder("demo")
    let names = try FileManager.default.contentsOfDirectory(atPath: demo.path).filter {
      $0.hasSuffix("_audio.m4a")
    }
    let listing = try runProcess(stash, ["ls", demo.path, "--json"])
    #expect(listing.status == 0)
    var rounded = 0
    for name in names.sorted() {
      let path = demo.appendingPathComponent(name).path
      guard let exact = try MP4Audio.read(path: path).durationSeconds else { continue }
      let micro = (exact * 1e6).rounded() / 1e6
      if micro != exact { rounded += 1 }
      let printed = micro == micro.rounded() ? String(Int64(micro)) : "\(micro)"
      let text = try runProcess(stash, ["inspect", path, "--json"]).standardOutput
      #expect(text.contains("\"durationSeconds\": \(printed),\n"), "\(name): \(exact)")
      #expect(listing.standardOutput.contains("\"durationSeconds\":\(printed),"), "\(name) in ls")
    }
    // A length that was not already a whole number of microseconds, so the rounding is seen.
    #expect(rounded >= 1)
  }

  /// A file that cannot be opened exits 2 with its path and the reason.
  @Test func missingFile() throws {
    let (status, json, error) = try inspect("/nonexistent/memo_audio.m4a")
    #expect(status == 2)
    #expect(json == nil)
    #expect(error.contains("/nonexistent/memo_audio.m4a"))
    #expect(error.contains("No such file"))
  }
}
