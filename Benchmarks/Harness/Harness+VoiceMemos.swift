import Foundation
import StashFormat
import StashTestSupport

#if canImport(Glibc)
  import Glibc
#endif

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

  /// Issue 47: `stash import` of `count` Voice Memos recordings (`minutes` of AAC each, moov last,
  /// a `tsrp` transcript of a word run every 0.4 s, Apple's names and items) against the same audio
  /// as Stash memos (`<base>_audio.m4a`, the recordings' bytes before their items were added), in
  /// the same rounds, each in another order. The share is the median of the rounds' own: what
  /// recognising the recordings and making their transcripts costs over the copy.
  mutating func voiceMemoImport(count: Int, minutes: Int, audio: AudioCorpus) throws {
    let plain = Harness.scratch + "/voice-memos-plain-\(minutes).m4a"
    if !FileManager.default.fileExists(atPath: plain) {
      // Stream copies of the corpus's finished recording: moov last, as Apple writes it.
      try AudioCorpus.ffmpeg(
        ["-stream_loop", "-1", "-i", audio.finished[0], "-t", "\(minutes * 60)", "-c", "copy", plain])
    }
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
    var random = Random(seed: 4747)
    let words = ["so", "um", "the", "garden…", "we", "planted", "tomatoes.", "really?", "uh", "yes", "and"]
    var runs: [(String, (Double, Double)?)] = []
    var time = 0.0
    while time < Double(minutes * 60) - 1 {
      runs.append((words[Int(random.next() % UInt64(words.count))] + " ", (time, time + 0.3)))
      time += 0.4
    }
    let dressed = VoiceMemoRecording.dress(
      bytes, title: "New Recording", transcript: VoiceMemoRecording.tableJSON(runs))
    let apple = Harness.scratch + "/voice-memos-source"
    let stash = Harness.scratch + "/voice-memos-as-stash"
    for folder in [apple, stash] {
      try? FileManager.default.removeItem(atPath: folder)
      try Files.makeFolder(folder)
    }
    var paths: [String] = []
    let start = 1_735_689_600
    for memo in 0..<count {
      let at = Date(timeIntervalSince1970: Double(start + memo * 900))
      let day = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: at)
      let (y, mo, d, h, mi) = (day.year!, day.month!, day.day!, day.hour!, day.minute!)
      let applePath = apple + String(format: "/%04d%02d%02d %02d%02d00-%08X.m4a", y, mo, d, h, mi, memo)
      let stashPath = stash + String(format: "/%04d-%02d-%02dT%02d-%02d-00Z_audio.m4a", y, mo, d, h, mi)
      try Data(dressed).write(to: URL(fileURLWithPath: applePath))
      try Data(bytes).write(to: URL(fileURLWithPath: stashPath))
      // Dated as finished long ago: no recording that could still be going on.
      for path in [applePath, stashPath] {
        var times = [timeval(tv_sec: start, tv_usec: 0), timeval(tv_sec: start, tv_usec: 0)]
        guard utimes(path, &times) == 0 else { throw HarnessError("cannot date \(path)") }
      }
      paths += [applePath, stashPath]
    }
    sync()
    Files.warm(paths)
    var apples: [Double] = []
    var stashes: [Double] = []
    for round in 0..<3 {
      for turn in 0..<2 {
        let voiceMemos = (turn + round) % 2 == 0
        // A folder never imported into: the import record keeps what went where.
        let target = Harness.scratch + "/voice-memos-target-\(round)-\(turn)"
        let run = try ChildRun.checked(
          [self.stash, "import", voiceMemos ? apple : stash, target], keepOutput: false)
        let made = try FileManager.default.contentsOfDirectory(atPath: target)
        let transcripts = made.filter { $0.hasSuffix("_transcription.vtt") }.count
        guard made.filter({ $0.hasSuffix("_audio.m4a") }).count == count,
          transcripts == (voiceMemos ? count : 0)
        else { throw HarnessError("the import of \(voiceMemos ? apple : stash) made \(made.count) files") }
        if voiceMemos { apples.append(run.wall) } else { stashes.append(run.wall) }
        try FileManager.default.removeItem(atPath: target)
        sync()
      }
    }
    let shares = Runs(values: zip(apples, stashes).map { $0 / $1 })
    let size = String(format: "%.2f GB", Double(count * dressed.count) / 1e9)
    figures.append(
      Figure(
        issue: "#47", name: "`stash import` of \(count) Voice Memos recordings (\(size))",
        result: String(format: "%.2fx the same audio as Stash memos", shares.median),
        target: "≤ 1.2x", verdict: .verdict(shares.median <= 1.2),
        note: "\(minutes)-minute recordings with a tsrp of \(runs.count) runs each, made into transcripts; "
          + "Voice Memos " + Runs(values: apples).text(2, unit: " s") + ", as Stash memos "
          + Runs(values: stashes).text(2, unit: " s") + "; the median of 3 rounds' own shares"))
  }
}
