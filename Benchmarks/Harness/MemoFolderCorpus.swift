import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// The 10,000-memo folder, made to read like a real phone's folder: every memo has audio (a fifth
/// fragmented recordings of 5 to 40 minutes, the rest finished ones of 20 s to 3 min), nine in ten
/// a transcript, eight in ten a route and a title. Transcripts and routes are each memo's own files,
/// generated for it: cues within its audio, route points timed from its recording date (the base)
/// to the end of its audio. Audio is hard-linked, one real file per length (its bytes carry no
/// per-memo time), so the page cache holds one copy: the warm-cache case the targets name.
///
/// A real folder has a few problems, so a small, fixed share of memos is broken on purpose (see
/// `Broken`); `stash lint` on the folder reports those and nothing else.
struct MemoFolderCorpus {
  /// The memos broken on purpose, by memo number `n` (0-based, in order of recording).
  enum Broken {
    /// One in 250 left a parts folder with a transcript part (a crash during a later recording
    /// session, or parts kept beside the finished file).
    static func parts(_ n: Int) -> Bool { n % 250 == 0 }
    /// One in 1,000 has a torn tail: a fragmented recording cut off in its last fragment.
    static func tornTail(_ n: Int) -> Bool { n % 1_000 == 500 }
    /// One in 500 has a transcript whose last cue runs 4 s past the end of the audio.
    static func cuePastAudio(_ n: Int) -> Bool { n % 500 == 125 }
  }

  var folder: String
  var count: Int
  /// Every memo's audio path, in name order.
  var audioPaths: [String]
  /// Files written: transcripts, routes, titles.
  var transcripts = 0
  var routes = 0
  var titles = 0

  /// Makes `count` memos in `scratch/name` (the audio corpus already made in `scratch/audio`).
  static func make(
    in scratch: String, name: String = "memos", count: Int, audio: AudioCorpus
  ) throws -> MemoFolderCorpus {
    let folder = scratch + "/" + name
    try Files.makeFolder(folder)
    let lengths: [(audio: String, seconds: Double)] =
      zip(audio.finished, [20.0, 45, 90, 180]).map { ($0, $1) }
      + zip(audio.fragmented, [300.0, 600, 1200, 2400]).map { ($0, $1) }
    // The torn recording: the 5-minute fragmented one cut 7 kB short, inside its last fragment
    // (about 20 kB each); what is left holds whole fragments to a little under 5 minutes.
    let torn = (audio: scratch + "/audio/torn-5-\(name).m4a", seconds: 280.0)
    try Files.copy(audio.fragmented[0], to: torn.audio, droppingLast: 7_000)

    var corpus = MemoFolderCorpus(folder: folder, count: count, audioPaths: [])
    var random = Random(seed: 20_260_314)
    let start = 1_735_689_600  // 2025-01-01T00:00:00Z
    for n in 0..<count {
      let recorded = start + n * 2_113 + random.below(600)
      // A third of the names carry a zone (Z); the rest are wall-clock times, read in the zone the
      // harness pins for its children (UTC, see ChildRun), so both name the same instant.
      var time = time_t(recorded)
      var parts = tm()
      gmtime_r(&time, &parts)
      var base = String(
        format: "%04d-%02d-%02dT%02d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
        Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
      if n % 3 == 0 { base += "Z" }
      let kind =
        Broken.tornTail(n) ? torn : n % 5 == 0 ? lengths[4 + random.below(4)] : lengths[random.below(4)]
      let prefix = folder + "/" + base
      try Files.link(kind.audio, prefix + "_audio.m4a")
      corpus.audioPaths.append(prefix + "_audio.m4a")
      let seed = UInt64(n + 1)
      if random.unit() < 0.9 {
        // One long transcript in three notes a minute the recogniser has no words for.
        let gap = kind.seconds >= 300 && n % 3 == 1 ? (kind.seconds * 0.4)...(kind.seconds * 0.4 + 60) : nil
        var text = TextCorpus.withRareWord(
          TextCorpus.transcript(seconds: kind.seconds, seed: seed, missingSpeech: gap), seed: seed)
        if Broken.cuePastAudio(n) {
          text +=
            "late\n\(WebVTTTimestamp.format(kind.seconds - 1)) --> \(WebVTTTimestamp.format(kind.seconds + 4))\n"
            + "and that was all\n"
        }
        try Files.write(prefix + "_transcription.vtt", text)
        corpus.transcripts += 1
      }
      if random.unit() < 0.8 {
        // A fix every 5 s from the start of the recording to its end.
        try Files.write(
          prefix + "_track.gpx",
          TextCorpus.route(points: Int(kind.seconds / 5), step: 5, seed: seed, start: Double(recorded)))
        corpus.routes += 1
      }
      if random.unit() < 0.8 {
        try Files.write(prefix + "_title.txt", "Walk number \(n)\(n % 7 == 0 ? " 散歩" : "")\n")
        corpus.titles += 1
      }
      if Broken.parts(n) {
        try Files.makeFolder(prefix + ".parts")
        try Files.write(prefix + ".parts/transcription.0001.vtt", TextCorpus.transcriptPart(1))
      }
    }
    corpus.audioPaths.sort()
    return corpus
  }

  /// How many memos of `count` are broken on purpose, by kind, for the report.
  static func brokenCounts(_ count: Int) -> [(kind: String, memos: Int)] {
    [
      ("parts folder", (0..<count).count(where: Broken.parts)),
      ("torn tail", (0..<count).count(where: Broken.tornTail)),
      ("cue past the audio", (0..<count).count(where: Broken.cuePastAudio)),
    ]
  }
}
