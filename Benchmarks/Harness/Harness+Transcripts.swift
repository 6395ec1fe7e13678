import Foundation
import StashFormat

extension Harness {
  /// WebVTT: the transcript set (three-hour memos' worth of cues, to `megabytes` in all) read from
  /// the page cache and parsed, file by file, as the browser and linter do; webvtt-py on a part of it.
  mutating func transcripts(megabytes: Int) throws {
    let folder = Harness.scratch + "/transcripts"
    try Files.makeFolder(folder)
    var paths: [String] = []
    var total = 0
    while total < megabytes * 1_000_000 {
      let path = folder + "/memo\(paths.count)_transcription.vtt"
      let text = TextCorpus.transcript(seconds: 3 * 3600, seed: UInt64(1000 + paths.count))
      try Files.write(path, text)
      total += text.utf8.count
      paths.append(path)
    }
    Files.warm(paths)
    let parse = { (paths: [String]) throws -> (cues: [Int], diagnostics: Int) in
      var cues: [Int] = []
      var diagnostics = 0
      for path in paths {
        let document = WebVTTParser.parse(try ReadOnlyFile.contents(of: path))
        cues.append(document.cues.count)
        diagnostics += document.diagnostics.count
      }
      return (cues, diagnostics)
    }
    var result: (cues: [Int], diagnostics: Int) = ([], 0)
    var walls: [Double] = []
    var cpus: [Double] = []
    for _ in 0..<runs {
      let time = try Measure.time { result = try parse(paths) }
      walls.append(rate(total, time.wall))
      cpus.append(rate(total, time.cpu))
    }
    let wall = Runs(values: walls)
    figures.append(
      Figure(
        issue: "#3", name: String(format: "WebVTT reading, %.0f MB transcript set", Double(total) / 1e6),
        result: wall.text(0, unit: " MB/s"), target: "≥ 200 MB/s", verdict: .verdict(wall.median >= 200),
        note:
          "\(paths.count) files, \(result.cues.reduce(0, +)) cues, \(result.diagnostics) diagnostics; "
          + "by CPU time \(Runs(values: cpus).text(0, unit: " MB/s"))"))

    // webvtt-py is slow (about 4 MB/s), so it reads the first files only, and so do we, again.
    var subset: [String] = []
    var subsetBytes = 0
    for path in paths where subsetBytes < (quick ? 2_000_000 : 5_000_000) {
      subset.append(path)
      subsetBytes += Files.size(path)
    }
    var ours: (cues: [Int], diagnostics: Int) = ([], 0)
    let ourRuns = Runs(
      values: try (0..<runs).map { _ in rate(subsetBytes, try Measure.time { ours = try parse(subset) }.wall)
      })
    let input = String(format: "%d transcripts, %.1f MB", subset.count, Double(subsetBytes) / 1e6)
    comparePeer(
      task: "transcripts", peer: "webvtt-py", mode: "webvtt", subset: subset, bytes: subsetBytes,
      input: input,
      ours: ours.cues, ourRuns: ourRuns, what: "cue count")
  }
}
