import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The 10,000-memo folder: every memo has audio (a fifth fragmented recordings of 5 to 40 minutes,
/// the rest finished ones of 20 s to 3 min), nine in ten a transcript, eight in ten a route and a
/// title, and one in 250 a parts folder left by a crash. Audio, transcripts and routes are real
/// files hard-linked into place (one per audio length), so every reader does the work it would do on
/// distinct files while the page cache holds one copy: the warm-cache case the targets name.
struct MemoFolderCorpus {
  var folder: String
  var count: Int
  /// Every memo's audio path, in name order.
  var audioPaths: [String]

  static func make(in scratch: String, count: Int, audio: AudioCorpus) throws -> MemoFolderCorpus {
    let sides = scratch + "/memo-sides"
    let folder = scratch + "/memos"
    try Files.makeFolder(sides)
    try Files.makeFolder(folder)
    // One transcript and one route per audio length, as long as the recording.
    let lengths: [(audio: String, seconds: Double)] =
      zip(audio.finished, [20.0, 45, 90, 180]).map { ($0, $1) }
      + zip(audio.fragmented, [300.0, 600, 1200, 2400]).map { ($0, $1) }
    var kinds: [(audio: String, transcript: String, route: String)] = []
    for (index, item) in lengths.enumerated() {
      let transcript = sides + "/\(index).vtt"
      let route = sides + "/\(index).gpx"
      try Files.write(transcript, TextCorpus.transcript(seconds: item.seconds, seed: UInt64(index + 1)))
      try Files.write(
        route, TextCorpus.route(points: Int(item.seconds / 5), step: 5, seed: UInt64(index + 1)))
      kinds.append((item.audio, transcript, route))
    }
    var random = Random(seed: 20_260_314)
    var paths: [String] = []
    let start = 1_735_689_600  // 2025-01-01T00:00:00Z
    for n in 0..<count {
      var time = time_t(start + n * 2_113 + random.below(600))
      var parts = tm()
      gmtime_r(&time, &parts)
      var base = String(
        format: "%04d-%02d-%02dT%02d-%02d-%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
        Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
      if n % 3 == 0 { base += "Z" }
      let kind = n % 5 == 0 ? kinds[4 + random.below(4)] : kinds[random.below(4)]
      let prefix = folder + "/" + base
      try Files.link(kind.audio, prefix + "_audio.m4a")
      paths.append(prefix + "_audio.m4a")
      if random.unit() < 0.9 { try Files.link(kind.transcript, prefix + "_transcription.vtt") }
      if random.unit() < 0.8 { try Files.link(kind.route, prefix + "_track.gpx") }
      if random.unit() < 0.8 {
        try Files.write(prefix + "_title.txt", "Walk number \(n)\(n % 7 == 0 ? " 散歩" : "")\n")
      }
      if n % 250 == 0 {
        try Files.makeFolder(prefix + ".parts")
        try Files.write(prefix + ".parts/transcription.0001.vtt", TextCorpus.transcriptPart(1))
      }
    }
    return MemoFolderCorpus(folder: folder, count: count, audioPaths: paths.sorted())
  }
}
