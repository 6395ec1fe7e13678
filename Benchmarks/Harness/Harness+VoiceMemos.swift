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
    let json = VoiceMemoRecording.tableJSON(runs)
    let dressed = VoiceMemoRecording.dress(bytes, title: "New Recording", transcript: json)
    // The transcript the import makes: the Stash memos with a transcript carry the same bytes.
    let vtt = try VoiceMemoTranscript.parse(json).webVTT()
    // The three sources: Apple's recordings; the same audio as Stash memos; and with the
    // transcript too, so that both write the same files and only recognising the recordings and
    // making their transcripts differ.
    let sources = ["voice-memos", "stash-audio", "stash-audio-vtt"].map { Harness.scratch + "/import-" + $0 }
    for folder in sources {
      try? FileManager.default.removeItem(atPath: folder)
      try Files.makeFolder(folder)
    }
    var paths: [String] = []
    let start = 1_735_689_600
    for memo in 0..<count {
      let at = Date(timeIntervalSince1970: Double(start + memo * 900))
      let day = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: at)
      let (y, mo, d, h, mi) = (day.year!, day.month!, day.day!, day.hour!, day.minute!)
      let base = String(format: "%04d-%02d-%02dT%02d-%02d-00Z", y, mo, d, h, mi)
      let files: [(String, [UInt8])] = [
        (sources[0] + String(format: "/%04d%02d%02d %02d%02d00-%08X.m4a", y, mo, d, h, mi, memo), dressed),
        (sources[1] + "/\(base)_audio.m4a", bytes), (sources[2] + "/\(base)_audio.m4a", bytes),
        (sources[2] + "/\(base)_transcription.vtt", vtt),
      ]
      for (path, content) in files {
        try Data(content).write(to: URL(fileURLWithPath: path))
        // Dated as finished long ago: no recording that could still be going on.
        var times = [timeval(tv_sec: start, tv_usec: 0), timeval(tv_sec: start, tv_usec: 0)]
        guard utimes(path, &times) == 0 else { throw HarnessError("cannot date \(path)") }
        paths.append(path)
      }
    }
    sync()
    Files.warm(paths)
    var seconds: [[Double]] = [[], [], []]
    for round in 0..<3 {
      for turn in 0..<3 {
        let which = (turn + round) % 3
        // A folder never imported into: the import record keeps what went where.
        let target = Harness.scratch + "/voice-memos-target-\(round)-\(turn)"
        let run = try ChildRun.checked([self.stash, "import", sources[which], target], keepOutput: false)
        let made = try FileManager.default.contentsOfDirectory(atPath: target)
        let transcripts = made.filter { $0.hasSuffix("_transcription.vtt") }.count
        guard made.filter({ $0.hasSuffix("_audio.m4a") }).count == count,
          transcripts == (which == 1 ? 0 : count)
        else { throw HarnessError("the import of \(sources[which]) made \(made.count) files") }
        seconds[which].append(run.wall)
        try FileManager.default.removeItem(atPath: target)
        sync()
      }
    }
    let ofAudio = Runs(values: zip(seconds[0], seconds[1]).map { $0 / $1 })
    let ofMemos = Runs(values: zip(seconds[0], seconds[2]).map { $0 / $1 })
    let size = String(format: "%.2f GB", Double(count * dressed.count) / 1e9)
    figures.append(
      Figure(
        issue: "#47", name: "`stash import` of \(count) Voice Memos recordings (\(size))",
        result: String(format: "%.2fx the same memos from Stash", ofMemos.median),
        target: "≤ 1.2x", verdict: .verdict(ofMemos.median <= 1.2),
        note: "\(minutes)-minute recordings with a tsrp of \(runs.count) runs each, against the same audio "
          + "with the transcript their import makes, as Stash memos (the same files written): Voice Memos "
          + Runs(values: seconds[0]).text(2, unit: " s") + ", Stash memos "
          + Runs(values: seconds[2]).text(2, unit: " s") + "; the median of 3 rounds' own shares"))
    figures.append(
      Figure(
        issue: "#47", name: "`stash import` of \(count) Voice Memos recordings, over the audio alone",
        result: String(format: "%.2fx", ofAudio.median), target: "report", verdict: .info,
        note: "against the same audio as Stash memos without transcripts, "
          + Runs(values: seconds[1]).text(2, unit: " s")
          + ": the transcripts' files are written and fsynced as every imported file is"))
  }
}
