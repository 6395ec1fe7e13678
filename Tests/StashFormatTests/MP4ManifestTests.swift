import Foundation
import StashFormat
import StashTestSupport
import Testing

/// Every audio value SyntheticFixtures/demo/MANIFEST.json states, checked against the reader and
/// the listing's summary.
@Suite struct MP4ManifestTests {
  /// The entries of `folder`'s MANIFEST that have an audio object (memos, or crash captures).
  static func memos(in folder: String) throws -> [(base: String, file: String, audio: [String: Any])] {
    let url = Fixtures.folder(folder)
    let data = try Data(contentsOf: url.appendingPathComponent("MANIFEST.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let entries =
      (manifest["memos"] as? [[String: Any]] ?? []) + (manifest["captures"] as? [[String: Any]] ?? [])
    return entries.compactMap { memo in
      guard let base = memo["base"] as? String, let audio = memo["audio"] as? [String: Any] else {
        return nil
      }
      return (base, url.appendingPathComponent("\(base)_audio.m4a").path, audio)
    }
  }

  @Test(arguments: ["demo", "lint", "crash", "twins"])
  func everyManifestAudioValue(folder: String) throws {
    let memos = try Self.memos(in: folder)
    #expect(memos.count >= 2)
    var states: Set<String> = []
    for memo in memos {
      let a = memo.audio
      let audio = try MP4Audio.read(path: memo.file)
      let summary = AudioSummary.read(path: memo.file)
      let label = "\(folder)/\(memo.base)"
      let state = try #require(a["state"] as? String)
      states.insert(state)
      #expect(audio.stateName == state, "\(label)")
      #expect(summary.fragmented == audio.fragmented, "\(label)")
      let size = try FileManager.default.attributesOfItem(atPath: memo.file)[.size] as? Int
      #expect(size == a["fileBytes"] as? Int, "\(label)")
      #expect(audio.sampleCount == a["sampleCount"] as? Int, "\(label)")
      if let fragments = a["fragmentCount"] as? Int { #expect(audio.fragmentCount == fragments, "\(label)") }
      switch state {
      case "damaged":
        #expect(audio.damaged != nil, "\(label)")
        if (a["damagedBecause"] as? String)?.contains("no moov") == true {
          #expect(audio.damageCode == .mp4NoIndex, "\(label)")
        }
        #expect(summary.state == .damaged(reason: try #require(audio.damaged)), "\(label)")
        continue
      case "lengthUnreadable":
        #expect(
          summary.state == .lengthUnreadable(reason: try #require(audio.lengthUnreadableReason)), "\(label)")
      case "cutShort":
        #expect(summary.state == .cutShort(tailBytes: audio.tailBytes), "\(label)")
      default:
        #expect(summary.state == .ok, "\(label)")
      }
      // (A file with no index shows nothing of its layout, so that is checked only from here.)
      #expect((a["layout"] as? String) == (audio.fragmented ? "fragmented" : "finished"), "\(label)")
      #expect(audio.codec == a["codec"] as? String, "\(label)")
      #expect(audio.sampleRate == a["sampleRate"] as? Int, "\(label)")
      #expect(audio.channels == a["channels"] as? Int, "\(label)")
      #expect(Int(audio.timescale) == a["timescale"] as? Int, "\(label)")
      #expect(audio.primingSamples == a["primingSamples"] as? Int, "\(label)")
      #expect(audio.tailBytes == a["tailBytes"] as? Int, "\(label)")
      // The MANIFEST's seconds were computed in another language: equal to within rounding, and
      // the sample counts behind them exactly.
      let seconds = a["durationSeconds"] as? Double
      #expect((audio.durationSeconds == nil) == (seconds == nil), "\(label)")
      #expect(summary.durationSeconds == audio.durationSeconds, "\(label)")
      if let ours = audio.durationSeconds, let seconds {
        #expect(abs(ours - seconds) < 1e-9, "\(label)")
        let units = try #require(a["durationSamples"] as? Int)
        #expect(Int((ours * Double(audio.timescale)).rounded()) == units, "\(label)")
      }
      if let created = a["creationTime"] as? String {
        let date = try #require(ISO8601DateFormatter().date(from: created))
        #expect(audio.creationTime == date.timeIntervalSince1970, "\(label)")
        #expect(summary.creationTime == date.timeIntervalSince1970, "\(label)")
      }
      if state == "ok", a["ffprobeReads"] as? Bool == true,
        let probed = a["ffprobeDurationSeconds"] as? Double,
        let seconds
      {
        // ffprobe counts ffmpeg's unsignalled priming in; with an edit list it agrees exactly.
        let expected = audio.fragmented ? seconds + Double(audio.primingSamples) / 48000 : seconds
        #expect(abs(probed - expected) < 1e-5, "\(label)")
      }
    }
    if folder == "demo" { #expect(states == ["ok", "cutShort", "damaged", "lengthUnreadable"]) }
  }
}
