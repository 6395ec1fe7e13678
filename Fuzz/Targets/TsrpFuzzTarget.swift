/// Fuzzes the Voice Memos transcript (`tsrp`) path: the strict JSON reader, the three shapes of
/// runs, and the WebVTT made from them, which must read back clean and in order whatever the input.
enum TsrpFuzzTarget {
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
    let input = Array(bytes)
    let transcript: VoiceMemoTranscript
    do {
      transcript = try VoiceMemoTranscript.parse(input, path: "fuzz", offset: 100)
    } catch {
      fuzzRequire(error.code == .mp4BadTranscript, "code \(error.code.rawValue)")
      let offset = error.location.offset ?? -1
      fuzzRequire(offset >= 100 && offset <= 100 + input.count, "offset \(offset) of \(input.count)")
      return
    }
    for run in transcript.runs {
      if let start = run.start {
        fuzzRequire(start.isFinite && start >= 0, "start \(start)")
        fuzzRequire((run.end ?? start) >= start, "end before start")
      }
    }
    let document = WebVTTParser.parse(transcript.webVTT(audioLength: 10))
    let wrong = document.diagnostics.filter { $0.severity != .info }
    fuzzRequire(wrong.isEmpty, "the WebVTT made reads back with \(wrong.map(\.message))")
    for (cue, next) in zip(document.cues, document.cues.dropFirst()) {
      fuzzRequire(cue.startTime < cue.endTime && cue.endTime <= next.startTime, "cues out of order")
    }
  }
}
