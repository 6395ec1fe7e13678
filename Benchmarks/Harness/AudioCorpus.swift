/// The real audio the corpora use: one short recording encoded by ffmpeg (AAC-LC, mono, 48 kHz,
/// fragmented every 5 s as the phone writes), and longer ones made from it by stream copy (no
/// re-encoding, so the setup stays quick), fragmented again or finished (moov at the end).
struct AudioCorpus {
  /// Finished (non-fragmented) recordings of 20, 45, 90 and 180 s.
  var finished: [String]
  /// Fragmented recordings of 5, 10, 20 and 40 minutes.
  var fragmented: [String]
  /// The 40-minute fragmented recording (decode and CPU figures).
  var fortyMinutes: String { fragmented[3] }
  /// A fragmented two-hour recording (seek figure).
  var twoHours: String

  static let fragmentFlags = [
    "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "5000000",
  ]

  static func make(in folder: String) throws -> AudioCorpus {
    try Files.makeFolder(folder)
    let base = folder + "/base.m4a"
    // Speech-like bursts over a tone; random(0) is seeded, so the encode is the same every time.
    try ffmpeg(
      [
        "-f", "lavfi", "-i",
        "aevalsrc=0.3*sin(2*PI*220*t)*(0.5+0.5*sin(2*PI*0.7*t))+0.05*random(0):s=48000:d=120",
        "-ac", "1", "-ar", "48000", "-c:a", "aac", "-b:a", "32k",
      ] + fragmentFlags + [base])
    var corpus = AudioCorpus(finished: [], fragmented: [], twoHours: folder + "/two-hours.m4a")
    for seconds in [20, 45, 90, 180] {
      let path = folder + "/finished-\(seconds).m4a"
      try ffmpeg(["-stream_loop", "-1", "-i", base, "-t", "\(seconds)", "-c", "copy", path])
      corpus.finished.append(path)
    }
    for minutes in [5, 10, 20, 40] {
      let path = folder + "/fragmented-\(minutes).m4a"
      try ffmpeg(
        ["-stream_loop", "-1", "-i", base, "-t", "\(minutes * 60)", "-c", "copy"] + fragmentFlags + [path])
      corpus.fragmented.append(path)
    }
    try ffmpeg(
      ["-stream_loop", "-1", "-i", base, "-t", "7200", "-c", "copy"] + fragmentFlags + [corpus.twoHours])
    return corpus
  }

  static func ffmpeg(_ arguments: [String]) throws {
    _ = try ChildRun.checked(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments)
  }
}
