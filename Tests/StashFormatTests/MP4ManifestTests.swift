import Foundation
import StashFormat
import StashTestSupport
import Testing

/// Every audio value SyntheticFixtures/demo/MANIFEST.json states, checked against the reader and
/// the listing's summary.
@Suite struct MP4ManifestTests {
  /// The memos of the demo MANIFEST that have audio, with their audio object.
  static func memos() throws -> [(base: String, file: String, audio: [String: Any])] {
    let folder = Fixtures.folder("demo")
    let data = try Data(contentsOf: folder.appendingPathComponent("MANIFEST.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let memos = try #require(manifest["memos"] as? [[String: Any]])
    return memos.compactMap { memo in
      guard let base = memo["base"] as? String, let audio = memo["audio"] as? [String: Any] else {
        return nil
      }
      return (base, folder.appendingPathComponent("\(base)_audio.m4a").path, audio)
    }
  }

  @Test func everyManifestAudioValue() throws {
    let memos = try Self.memos()
    #expect(memos.count >= 10)
    var states: Set<String> = []
    for memo in memos {
      let a = memo.audio
      let audio = try MP4Audio.read(path: memo.file)
      let summary = AudioSummary.read(path: memo.file)
      let label = memo.base
      let state = try #require(a["state"] as? String)
      states.insert(state)
      #expect(audio.stateName == state, "\(label)")
      #expect(summary.fragmented == audio.fragmented, "\(label)")
      let size = try FileManager.default.attributesOfItem(atPath: memo.file)[.size] as? Int
      #expect(size == a["fileBytes"] as? Int, "\(label)")
      #expect(audio.sampleCount == a["sampleCount"] as? Int, "\(label)")
      switch state {
      case "damaged":
        #expect(audio.damaged != nil, "\(label)")
        if (a["damagedBecause"] as? String)?.contains("no moov") == true {
          #expect(audio.damageCode == "mp4-no-index", "\(label)")
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
    #expect(states == ["ok", "cutShort", "damaged", "lengthUnreadable"])
  }
}
