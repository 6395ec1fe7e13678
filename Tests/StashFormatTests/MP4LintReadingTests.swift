import Foundation
import StashTestSupport
import Testing

@testable import StashFormat

/// Lint reads each audio file once for its summary and its full index (`MP4Audio.lintReading`):
/// both must come out exactly as the two readings on their own give them, on whole files, on
/// files cut short at many points and on files with a byte broken.
@Suite struct MP4LintReadingTests {
  /// The files below, written once: the tests run at once, and each writing them again under the
  /// same names while another read them once made the two readings of a file disagree.
  static let written = Result { try makePaths() }
  static func paths() throws -> [String] { try written.get() }

  /// Every test file, each cut at 30 points and with one byte inverted at 10 places, plus the
  /// regression files whose summary and full index disagree.
  static func makePaths() throws -> [String] {
    let files = try MP4TestFiles.shared.get()
    var paths: [String] = []
    for name in [
      "finished.m4a", "fragmented.m4a", "faststart.m4a", "speech-finished.m4a", "speech-fragmented.m4a",
      "with-video.mp4", "with-video-finished.mp4", "video-only.mp4", "alac.m4a",
    ] {
      let bytes = try files.bytes(name)
      paths.append(files.path(name))
      for n in 1...30 {
        paths.append(try files.write(Array(bytes.prefix(bytes.count * n / 31)), as: "once-cut-\(n)-" + name))
      }
      for n in 0..<10 {
        var broken = bytes
        // Spread over the file, denser near the start where the boxes are.
        let at = n < 5 ? (n * 97 + 9) % bytes.count : bytes.count * n / 10
        broken[at] ^= 0xFF
        paths.append(try files.write(broken, as: "once-broken-\(n)-" + name))
      }
    }
    // A finished file whose last sample is made to run past the end, its chunk still starting in
    // the mdat: the summary trusts the table, the full walk finds the sample missing.
    for name in ["finished.m4a", "speech-finished.m4a"] {
      var bytes = try files.bytes(name)
      let stsz = Array("stsz".utf8)
      let at = try #require((0..<(bytes.count - 16)).first { Array(bytes[$0..<($0 + 4)]) == stsz })
      #expect(bytes[at + 8..<at + 12] == [0, 0, 0, 0], "\(name): one size for every sample")
      let count = bytes[at + 12..<at + 16].reduce(0) { $0 << 8 | Int($1) }
      let last = at + 16 + 4 * (count - 1)
      bytes.replaceSubrange(last..<last + 4, with: [0, 0x10, 0, 0])
      paths.append(try files.write(bytes, as: "once-last-sample-outside-" + name))
    }
    let regressions = Fixtures.folder("regressions/mp4")
    for name in try FileManager.default.contentsOfDirectory(atPath: regressions.path).sorted() {
      paths.append(regressions.appendingPathComponent(name).path)
    }
    paths.append(files.path("no-such-file.m4a"))
    return paths
  }

  @Test func oneReadingGivesWhatTheTwoReadingsGive() throws {
    var (full, summaryOnly, unreadable) = (0, 0, 0)
    for path in try Self.paths() {
      let summary = AudioSummary.read(path: path)
      let diagnostics = Result { () throws(FormatError) in try MP4Audio.diagnostics(ReadOnlyFile(path: path))
      }
      var asked: AudioSummary?
      let reading = MP4Audio.lintReading(FileLocation(path: path), listedAsRegularFile: false) {
        asked = $0
        return true
      }
      #expect(reading.summary == summary, "\(path)")
      #expect(asked == summary, "\(path)")
      switch (reading.diagnostics, diagnostics) {
      case (.success(let one)?, .success(let two)): #expect(one == two, "\(path)")
      case (.failure(let one)?, .failure(let two)):
        #expect(one.message == two.message, "\(path)")
        unreadable += 1
      default: Issue.record("\(path): \(String(describing: reading.diagnostics)) against \(diagnostics)")
      }
      // Not asked for the index: the summary alone, the same.
      let quick = MP4Audio.lintReading(FileLocation(path: path), listedAsRegularFile: false) { _ in false }
      #expect(quick.summary == summary && quick.diagnostics == nil, "\(path)")
      if summary.fragmented { summaryOnly += 1 } else { full += 1 }
    }
    // Both layouts were met, and a file that cannot be opened.
    #expect(full > 100 && summaryOnly > 100 && unreadable > 0, "\(full) \(summaryOnly) \(unreadable)")
  }

  /// A finished file whose table the summary trusts though the full walk counts it otherwise:
  /// the one reading notices (`summaryDiffers`), and the summary is then read on its own.
  @Test func aSummaryThatWouldTrustTheTableIsReadOnItsOwn() throws {
    var (differing, wouldBeWrong) = (0, 0)
    for path in try Self.paths() where FileManager.default.fileExists(atPath: path) {
      let both = try MP4Reader(FileLocation(path: path), depth: .both, keepingSamples: false)
      guard both.summaryDiffers else { continue }
      differing += 1
      #expect(both.depth == .full, "\(path)")
      // Taken from the full walk, the summary would have said something else.
      if AudioSummary(both) != AudioSummary.read(path: path) { wouldBeWrong += 1 }
    }
    #expect(differing > 0 && wouldBeWrong > 0, "\(differing) \(wouldBeWrong)")
  }
}
