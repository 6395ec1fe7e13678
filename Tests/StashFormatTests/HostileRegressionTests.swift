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

  @Test func thereAreRegressionInputs() {
    #expect(!Self.inputs("gpx").isEmpty)
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
    #expect(empty.diagnostics.map(\.code) == ["gpx-empty"])
    #expect(empty.diagnostics.first?.location.offset == 0)
    #expect(empty.diagnostics.first?.location.line == 1)
  }
}
