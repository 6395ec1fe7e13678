import Testing

@testable import StashFormat

/// A full reading that keeps no samples counts a finished file's table a chunk at a time
/// (`MP4SampleTable.tally`): it must count exactly what keeping every sample counts.
@Suite struct MP4TallyTests {
  @Test func countingByChunkCountsWhatKeepingEverySampleCounts() throws {
    let files = try MP4TestFiles.shared.get()
    var tallied = 0
    for name in ["finished.m4a", "faststart.m4a", "speech-finished.m4a", "with-video-finished.mp4"] {
      let bytes = try files.bytes(name)
      var paths = [files.path(name)]
      // Cut at many points: a finished file with its index first then lists chunks past the end,
      // and one chunk at each cut runs past it in part.
      for n in 1...40 {
        paths.append(try files.write(Array(bytes.prefix(bytes.count * n / 41)), as: "tally-\(n)-" + name))
      }
      for path in paths {
        let kept = try MP4Reader(path: path, depth: .full)
        let counted = try MP4Reader(FileLocation(path: path), depth: .full, keepingSamples: false)
        #expect(counted.samples.isEmpty)
        #expect(counted.listedCount == kept.listedCount, "\(path)")
        #expect(counted.wholeCount == kept.wholeCount, "\(path)")
        #expect(counted.wholeDuration == kept.wholeDuration, "\(path)")
        #expect(counted.usableEnd == kept.usableEnd, "\(path)")
        #expect(counted.missingSamples == kept.missingSamples, "\(path)")
        #expect(counted.diagnostics == kept.diagnostics, "\(path)")
        if !kept.fragmented && kept.missingSamples && kept.wholeCount > 0 { tallied += 1 }
      }
    }
    // Some cuts left a table with samples both in the file and past its end.
    #expect(tallied > 0)
  }
}
