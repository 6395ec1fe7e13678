import Foundation
import StashTestSupport
import Testing

@testable import StashFormat

/// Inputs the fuzzer found (SyntheticFixtures/regressions/<target>/), kept so that what was fixed
/// stays fixed: each is read again under the invariant its target checks.
@Suite struct HostileRegressionTests {
  static func inputs(_ target: String) -> [String] {
    let folder = Fixtures.folder("regressions").appendingPathComponent(target).path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.sorted().map { folder + "/" + $0 }
  }

  /// Every list a parameterised test here (or in WebVTTRegressionTests) runs over holds inputs:
  /// an empty one would run zero cases and pass.
  @Test func thereAreRegressionInputs() {
    #expect(!Self.inputs("gpx").isEmpty)
    #expect(!Self.inputs("mp4").isEmpty)
    #expect(!Self.inputs("foldername").isEmpty)
    #expect(!Self.inputs("webvtt").isEmpty)
  }

  /// MP4: the listing and the full index agree on whether anything plays (they once did not), every
  /// sample lies in the file, and decode times only move forward (a damaged tfdt once sent them back).
  @Test(arguments: inputs("mp4"))
  func mp4(path: String) throws {
    let size = try ReadOnlyFile(path: path).size
    let summary = AudioSummary.read(path: path)
    let audio = try MP4Audio.read(path: path)
    var summaryDamaged = false
    if case .damaged = summary.state { summaryDamaged = true }
    if summaryDamaged { #expect(audio.damaged != nil, "the listing says damaged, the index plays") }
    if audio.damaged != nil && audio.samples.isEmpty {
      #expect(summaryDamaged, "the index plays nothing, the listing says \(summary.state)")
    }
    var previousEnd = Int64.min
    for sample in audio.samples {
      #expect(sample.offset >= 0 && sample.size >= 0 && sample.offset <= size - sample.size)
      #expect(sample.decodeTime >= previousEnd, "decode time \(sample.decodeTime) before \(previousEnd)")
      let (end, overflow) = sample.decodeTime.addingReportingOverflow(Int64(sample.duration))
      previousEnd = overflow ? .max : end
    }
  }

  /// Folder names: a near miss is offered only when its intended name is itself a memo file name
  /// (one once suggested a hidden name).
  @Test(arguments: inputs("foldername"))
  func folderName(path: String) throws {
    let bytes = try ReadOnlyFile.contents(of: path)
    if case .nearMiss(let intended, let base, let kind, _) = FolderName.classify(
      String(validating: bytes, as: UTF8.self))
    {
      #expect(
        FolderName.classify(intended) == .memoFile(base: base, kind: kind), "\(intended.debugDescription)")
    }
  }

  /// GPX: every diagnostic points inside the input (an empty file once gave offset -1), reading in
  /// small chunks agrees, and what was read survives a write and a read.
  @Test(arguments: inputs("gpx"))
  func gpx(path: String) throws {
    let bytes = try ReadOnlyFile.contents(of: path)
    let document = GPXReader.read(bytes)
    for diagnostic in document.diagnostics {
      #expect(diagnostic.location.offset.map { (0...bytes.count).contains($0) } ?? true, "\(diagnostic)")
      #expect(diagnostic.location.line.map { $0 >= 1 } ?? true, "\(diagnostic)")
      #expect(diagnostic.location.column.map { $0 >= 1 } ?? true, "\(diagnostic)")
    }
    let chunked = GPXReader.read(bytes, chunkSize: 7)
    #expect(chunked.pointCount == document.pointCount && chunked.isDamaged == document.isDamaged)
    var again = GPXReader.read(Array(GPXWriter.serialize(document).utf8))
    #expect(!again.isDamaged)
    var expected = document
    expected.diagnostics = []
    expected.version = again.version
    again.diagnostics = []
    if expected.creator == nil { again.creator = nil }
    #expect(again == expected)
  }

  @Test func anEmptyRouteSaysSoAtItsStart() {
    let empty = GPXReader.read([])
    #expect(empty.diagnostics.map(\.code) == [.gpxEmpty])
    #expect(empty.diagnostics.first?.location.offset == 0)
    #expect(empty.diagnostics.first?.location.line == 1)
  }
}
