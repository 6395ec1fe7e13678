import Foundation
import StashTestSupport
import Testing

@testable import StashFormat

/// Hostile input: entity bombs, external entities, absurd nesting and size.
@Suite struct GPXSecurityTests {
  @Test func refusesABillionLaughs() {
    // The classic: ten levels of ten references, 10^9 copies of "lol" (3 GB) if expanded.
    var dtd = #"<!ENTITY lol0 "lol">"#
    for level in 1...9 {
      dtd += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
    }
    let file = Array(
      """
      <?xml version="1.0"?>
      <!DOCTYPE gpx [\(dtd)]>
      <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1">
      <trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk>
      <metadata><name>&lol9;</name></metadata>
      </gpx>
      """.utf8)
    let clock = ContinuousClock()
    var read = GPXDocument()
    let elapsed = clock.measure { read = GPXReader.read(file) }
    #expect(read.diagnostics.last?.code == .gpxEntityRefused)
    #expect(read.isDamaged)
    #expect(GPXSamples.trackPoints(read).count == 1)
    #expect((read.metadata.name?.utf8.count ?? 0) <= GPXParseState.maximumText)
    // Not a timing test: a generous bound that only an expansion running away would miss.
    #expect(elapsed < .seconds(20))
  }

  @Test func refusesAQuadraticBlowup() {
    // One large entity referenced many times: no nesting, still far more out than in.
    let big = String(repeating: "x", count: 50_000)
    let references = String(repeating: "&big;", count: 20_000)
    let file = Array(
      """
      <!DOCTYPE gpx [<!ENTITY big "\(big)">]>
      <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><metadata><desc>\(references)</desc></metadata></gpx>
      """.utf8)
    #expect(GPXReader.read(file).diagnostics.last?.code == .gpxEntityRefused)
  }

  @Test func neverReadsAnExternalEntity() throws {
    // A local file with a marker stands in for /etc/passwd, and /etc/passwd itself is tried too.
    let folder = try Fixtures.scratchFolder("stash-gpx-xxe").path
    let secret = folder + "/secret.txt"
    try "SECRET-MARKER-4711".write(toFile: secret, atomically: true, encoding: .utf8)
    for target in ["file://" + secret, secret, "/etc/passwd", "file:///etc/passwd"] {
      let file = Array(
        """
        <?xml version="1.0"?>
        <!DOCTYPE gpx [<!ENTITY xxe SYSTEM "\(target)"><!ENTITY % remote SYSTEM "\(target)"> %remote;]>
        <gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1">
        <metadata><name>before &xxe; after</name><desc>&xxe;</desc></metadata>
        <wpt lat="1" lon="2"><name>&xxe;</name></wpt>
        </gpx>
        """.utf8)
      let read = GPXReader.read(file)
      let texts = [read.metadata.name, read.metadata.description, read.waypoints.first?.name]
      for text in texts.compactMap({ $0 }) {
        #expect(!text.contains("SECRET-MARKER"), "\(target)")
        #expect(!text.contains("root:"), "\(target)")
      }
      #expect(read.metadata.name == "before  after")
      #expect(read.diagnostics.contains { $0.code == .gpxExternalEntity }, "\(target)")
      #expect(read.waypoints.count == 1)
    }
  }

  @Test func refusesAbsurdNesting() {
    let depth = 100_000
    let file = Array(
      (#"<gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1">"#
        + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "</gpx>").utf8)
    let read = GPXReader.read(file)
    #expect(read.diagnostics.map(\.code) == [.gpxTooDeep])
  }

  @Test func readsAMillionPointsInOneSegment() {
    // Built by repetition, not by the writer (not what this test is about), so it is quick:
    // 99,999 lines of ten identical points, then a line of nine and a distinct last point.
    let count = 1_000_000
    let point = #"<trkpt lat="1.5" lon="2"/>"#
    let line = String(repeating: point, count: 10) + "\n"
    let text =
      #"<gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"# + "\n"
      + String(repeating: line, count: 99_999) + String(repeating: point, count: 9)
      + #"<trkpt lat="1.999999" lon="2"><ele>99</ele></trkpt></trkseg></trk></gpx>"#
    let bytes = Array(text.utf8)
    let read = GPXReader.read(bytes)
    #expect(read.diagnostics.isEmpty)
    #expect(read.tracks.count == 1 && read.tracks[0].segments.count == 1)
    let points = read.tracks[0].segments[0].points
    #expect(points.count == count)
    #expect(points[999_999].latitude == 1.999999)
    #expect(points[999_999].elevation == 99)
    #expect(points[999_999].location?.line == 100_001)
  }
}
