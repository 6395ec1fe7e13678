import Foundation
import StashFormat

extension Harness {
  /// Issue 47: a two-hour Voice Memos transcript (`tsrp`, 20,000 word runs in the table shape)
  /// parsed, and made into WebVTT, in memory.
  mutating func voiceMemoTranscript(runs count: Int = 20_000) throws {
    var table: [String] = []
    var items: [String] = []
    var random = Random(seed: 47)
    var time = 0.0
    let words = ["so", "um", "the", "garden…", "we", "planted", "tomatoes.", "really?", "uh", "yes", "and"]
    for _ in 0..<count {
      let length = 0.1 + Double(random.next() % 400) / 1000
      table.append("{\"timeRange\":[\(time),\(time + length)]}")
      items.append("\"\(words[Int(random.next() % UInt64(words.count))]) \",\(table.count - 1)")
      time += length + Double(random.next() % 200) / 1000
    }
    let json = Array(
      ("{\"attributedString\":{\"runs\":[\(items.joined(separator: ","))],\"attributeTable\":["
        + table.joined(separator: ",") + "]},\"locale\":{\"identifier\":\"en_US\",\"current\":0}}").utf8)
    var parsed = 0
    var cues = 0
    var parses: [Double] = []
    var conversions: [Double] = []
    for _ in 0..<runs {
      var transcript: VoiceMemoTranscript?
      parses.append(try Measure.time { transcript = try VoiceMemoTranscript.parse(json) }.wall)
      parsed = transcript?.runs.count ?? 0
      conversions.append(
        Measure.time { cues = WebVTTParser.parse(transcript?.webVTT() ?? []).cues.count }.wall)
    }
    let parse = Runs(values: parses)
    figures.append(
      Figure(
        issue: "#47", name: "Voice Memos transcript (tsrp), \(count) runs",
        result: parse.text(1, scale: 1000, unit: " ms"), target: "≤ 50 ms",
        verdict: .verdict(parse.median <= 0.05),
        note:
          String(format: "%.1f MB of JSON, %d runs read; ", Double(json.count) / 1e6, parsed)
          + "made into \(cues) cues of WebVTT and read back in "
          + Runs(values: conversions).text(1, scale: 1000, unit: " ms")))
  }
}
