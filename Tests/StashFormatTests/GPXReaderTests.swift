import Foundation
import StashTestSupport
import Testing

@testable import StashFormat

@Suite struct GPXReaderTests {
  static let phoneFile = GPXSamples.file(
    """
      <metadata><name>Morning</name><time>2026-05-01T07:29:59Z</time>
        <bounds minlat="51.4" minlon="-0.2" maxlat="51.6" maxlon="-0.1"/></metadata>
      <wpt lat="51.45" lon="-0.15"><ele>4</ele><name>Start</name><desc>gate</desc></wpt>
      <rte><name>Plan</name><rtept lat="51.4" lon="-0.2"/><rtept lat="51.41" lon="-0.21"><name>turn</name></rtept></rte>
      <trk><name>Walk</name><type>walking</type>
        <trkseg>
          <trkpt lat="51.5" lon="-0.1">
            <ele>12.5</ele><time>2026-05-01T07:30:00.125Z</time><hdop>0.9</hdop>
            <extensions>
              <gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr><gpxtpx:cad>80</gpxtpx:cad>
                <gpxtpx:atemp>21.5</gpxtpx:atemp><gpxtpx:speed>1.25</gpxtpx:speed><gpxtpx:course>270.5</gpxtpx:course>
              </gpxtpx:TrackPointExtension>
              <stash:horizontalAccuracy>4.7</stash:horizontalAccuracy>
            </extensions>
          </trkpt>
          <trkpt lat="51.5001" lon="-0.1001"><ele>13</ele><time>2026-05-01T09:30:01+02:00</time></trkpt>
        </trkseg>
        <trkseg>
          <trkpt lat="51.6" lon="-0.2"><time>2026-05-01T02:30:05.5-05:00</time></trkpt>
        </trkseg>
      </trk>
    """,
    namespaces:
      #"xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" xmlns:stash="urn:stash:gpx:1""#
  )

  @Test func readsEveryPartOfAPhoneFile() {
    let document = GPXReader.read(Self.phoneFile)
    #expect(document.diagnostics.isEmpty)
    #expect(document.version == "1.1")
    #expect(document.creator == "test")
    #expect(document.metadata.name == "Morning")
    #expect(document.metadata.time == 1_777_620_599)
    #expect(
      document.metadata.bounds
        == GPXBounds(minLatitude: 51.4, minLongitude: -0.2, maxLatitude: 51.6, maxLongitude: -0.1))
    #expect(
      document.waypoints == [
        GPXPoint(latitude: 51.45, longitude: -0.15, elevation: 4, name: "Start", description: "gate")
      ])
    #expect(document.routes.count == 1)
    #expect(document.routes[0].name == "Plan")
    #expect(document.routes[0].points.map(\.name) == [nil, "turn"])
    #expect(document.tracks.count == 1)
    let track = document.tracks[0]
    #expect(track.name == "Walk")
    #expect(track.type == "walking")
    #expect(track.segments.map(\.points.count) == [2, 1])
    let first = track.segments[0].points[0]
    #expect(first.latitude == 51.5)
    #expect(first.longitude == -0.1)
    #expect(first.elevation == 12.5)
    #expect(first.time == 1_777_620_600.125)
    #expect(first.timeHadZone == true)
    #expect(first.speed == 1.25)
    #expect(first.course == 270.5)
    #expect(first.horizontalAccuracy == 4.7)
    #expect(first.hdop == 0.9)
    #expect(first.location?.line == 9)
    // Offsets are turned into the same absolute instant.
    #expect(track.segments[0].points[1].time == 1_777_620_601)
    #expect(track.segments[1].points[0].time == 1_777_620_605.5)
    #expect(document.pointCount == 6)
  }

  @Test func hdopIsNeverTakenForAccuracy() {
    let document = GPXReader.read(
      GPXSamples.file(#"<trk><trkseg><trkpt lat="1" lon="2"><hdop>7.5</hdop></trkpt></trkseg></trk>"#))
    let point = GPXSamples.trackPoints(document)[0]
    #expect(point.hdop == 7.5)
    #expect(point.horizontalAccuracy == nil)
  }

  @Test func matchesNamespacesByURINeverByPrefix() {
    // Odd prefixes, a default namespace redeclared inside the extension, and a decoy that uses
    // the usual prefixes for the wrong namespaces.
    let file = GPXSamples.file(
      """
      <trk><trkseg>
        <trkpt lat="1" lon="2"><extensions>
          <TrackPointExtension xmlns="http://www.garmin.com/xmlschemas/TrackPointExtension/v2"><speed>3.5</speed></TrackPointExtension>
          <x:horizontalAccuracy xmlns:x="urn:stash:gpx:1">6</x:horizontalAccuracy>
        </extensions></trkpt>
        <trkpt lat="3" lon="4"><extensions>
          <gpxtpx:TrackPointExtension xmlns:gpxtpx="urn:someone-else"><gpxtpx:speed>9</gpxtpx:speed></gpxtpx:TrackPointExtension>
          <stash:horizontalAccuracy xmlns:stash="urn:not-stash">8</stash:horizontalAccuracy>
        </extensions></trkpt>
      </trkseg></trk>
      """)
    let points = GPXSamples.trackPoints(GPXReader.read(file))
    #expect(points.count == 2)
    #expect(points[0].speed == 3.5)
    #expect(points[0].horizontalAccuracy == 6)
    #expect(points[1].speed == nil)
    #expect(points[1].horizontalAccuracy == nil)

    // A GPX element under a foreign prefix bound to the GPX namespace is still GPX.
    let prefixed = Array(
      """
      <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" version="1.1" creator="x">
      <g:trk><g:trkseg><g:trkpt lat="5" lon="6"><g:ele>7</g:ele></g:trkpt></g:trkseg></g:trk></g:gpx>
      """.utf8)
    #expect(
      GPXSamples.trackPoints(GPXReader.read(prefixed)) == [GPXPoint(latitude: 5, longitude: 6, elevation: 7)])
  }

  @Test func readsTrackPointExtensionVersionOne() {
    let file = GPXSamples.file(
      """
      <trk><trkseg><trkpt lat="1" lon="2"><extensions><tp1:TrackPointExtension>
        <tp1:hr>99</tp1:hr><tp1:speed>2.5</tp1:speed><tp1:course>45</tp1:course>
      </tp1:TrackPointExtension></extensions></trkpt></trkseg></trk>
      """, namespaces: #"xmlns:tp1="http://www.garmin.com/xmlschemas/TrackPointExtension/v1""#)
    let point = GPXSamples.trackPoints(GPXReader.read(file))[0]
    #expect(point.speed == 2.5)
    #expect(point.course == 45)
  }

  @Test func readsGPX10WithPlainSpeedAndCourse() {
    let file = Array(
      """
      <?xml version="1.0"?>
      <gpx version="1.0" creator="old" xmlns="http://www.topografix.com/GPX/1/0">
        <name>Ten</name><time>2004-02-29T12:00:00Z</time>
        <bounds minlat="1" minlon="2" maxlat="3" maxlon="4"/>
        <trk><trkseg><trkpt lat="1.5" lon="2.5"><ele>3</ele><time>2004-02-29T12:00:01Z</time>
          <course>123.4</course><speed>5.6</speed><hdop>2</hdop></trkpt></trkseg></trk>
      </gpx>
      """.utf8)
    let document = GPXReader.read(file)
    #expect(document.diagnostics.isEmpty)
    #expect(document.version == "1.0")
    #expect(document.metadata.name == "Ten")
    #expect(document.metadata.time == 1_078_056_000)
    #expect(document.metadata.bounds?.maxLongitude == 4)
    let point = GPXSamples.trackPoints(document)[0]
    #expect(point.speed == 5.6)
    #expect(point.course == 123.4)
    #expect(point.hdop == 2)
    #expect(point.time == 1_078_056_001)
  }

  @Test func flagsATimeWithoutAZoneAndKeepsIt() {
    let document = GPXReader.read(
      GPXSamples.file(
        #"<trk><trkseg><trkpt lat="1" lon="2"><time>2026-05-01T07:30:00.5</time></trkpt></trkseg></trk>"#))
    let point = GPXSamples.trackPoints(document)[0]
    #expect(point.time == 1_777_620_600.5)
    #expect(point.timeHadZone == false)
    #expect(document.diagnostics.map(\.code) == [.gpxTimeWithoutZone])
    #expect(document.diagnostics[0].severity == .warning)
    #expect(document.diagnostics[0].location.line == 3)
  }

  @Test func readsPhoneSentinelsAsAbsent() {
    let file = GPXSamples.file(
      """
      <trk><trkseg><trkpt lat="1" lon="2"><extensions><gpxtpx:TrackPointExtension>
        <gpxtpx:speed>-1</gpxtpx:speed><gpxtpx:course>-1</gpxtpx:course></gpxtpx:TrackPointExtension>
        <stash:horizontalAccuracy>-1</stash:horizontalAccuracy></extensions></trkpt></trkseg></trk>
      """,
      namespaces:
        #"xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" xmlns:stash="urn:stash:gpx:1""#
    )
    let document = GPXReader.read(file)
    let point = GPXSamples.trackPoints(document)[0]
    #expect(point.speed == nil && point.course == nil && point.horizontalAccuracy == nil)
    #expect(
      document.diagnostics.map(\.code) == [.gpxInvalidSpeed, .gpxInvalidCourse, .gpxInvalidAccuracy])
    #expect(document.diagnostics.allSatisfy { $0.severity == .info })
  }

  @Test func reportsBadValuesAndKeepsTheRest() {
    let file = GPXSamples.file(
      """
      <trk><trkseg>
        <trkpt lat="1" lon="2"><ele>high</ele><time>yesterday</time></trkpt>
        <trkpt lon="2"><ele>1</ele></trkpt>
        <trkpt lat="x" lon="2"/>
        <trkpt lat="95" lon="2"/>
      </trkseg></trk>
      <trkpt lat="1" lon="1"/>
      """)
    let document = GPXReader.read(file)
    let points = GPXSamples.trackPoints(document)
    #expect(points == [GPXPoint(latitude: 1, longitude: 2), GPXPoint(latitude: 95, longitude: 2)])
    #expect(
      document.diagnostics.map(\.code) == [
        .gpxBadNumber, .gpxBadTime, .gpxBadCoordinate, .gpxBadCoordinate,
        .gpxCoordinateOutOfRange, .gpxMisplacedElement,
      ])
    #expect(document.diagnostics[0].message.contains("'high'"))
    // A skipped point is an error, but the file was read to its end: not damaged.
    #expect(!document.isDamaged)
    #expect(document.diagnostics[2].message.contains("no lat"))
    #expect(document.diagnostics[2].location.line == 5)
  }

  @Test func aFileWithoutNamespaceIsReadAndFlagged() {
    let document = GPXReader.read(
      Array(#"<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk></gpx>"#.utf8))
    #expect(GPXSamples.trackPoints(document).count == 1)
    #expect(document.diagnostics.map(\.code) == [.gpxNoNamespace])
  }

  @Test func keepsEmptySegmentsAndGapsAsTheyAre() {
    let document = GPXReader.read(
      GPXSamples.file(
        #"<trk><trkseg/><trkseg><trkpt lat="1" lon="2"/></trkseg><trkseg></trkseg></trk><trk/>"#))
    #expect(document.tracks.map { $0.segments.map(\.points.count) } == [[0, 1, 0], []])
  }

  @Test func readsCDATAAndEntitiesAndTextSplitAcrossChunks() throws {
    // A name long enough to straddle a 64 KiB chunk boundary arrives in several callbacks.
    let long = String(repeating: "ab&amp;", count: 12_000)
    var file = GPXSamples.file(
      "<metadata><name>\(long)</name><desc><![CDATA[<raw> & text]]></desc></metadata>")
    let document = GPXReader.read(file)
    #expect(document.metadata.name == String(repeating: "ab&", count: 12_000))
    #expect(document.metadata.description == "<raw> & text")
    file = GPXSamples.file("<metadata><name>\(String(repeating: "x", count: 70_000))</name></metadata>")
    let cut = GPXReader.read(file)
    #expect(cut.metadata.name?.utf8.count == GPXParseState.maximumText)
    #expect(cut.diagnostics.map(\.code) == [.gpxTextTooLong])
  }

  @Test func readsOtherEncodings() {
    let text =
      #"<gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="1" lon="2"><name>Café 🚶</name></wpt></gpx>"#
    let bom = GPXReader.read([0xEF, 0xBB, 0xBF] + Array(text.utf8))
    #expect(bom.waypoints.first?.name == "Café 🚶")
    var utf16: [UInt8] = [0xFF, 0xFE]
    for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    let wide = GPXReader.read(utf16)
    #expect(wide.diagnostics.isEmpty)
    #expect(wide.waypoints.first?.name == "Café 🚶")
    let latin1 = GPXReader.read(
      Array(
        #"<?xml version="1.0" encoding="ISO-8859-1"?><gpx xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="1" lon="2"><name>Caf"#
          .utf8)
        + [0xE9] + Array("</name></wpt></gpx>".utf8))
    #expect(latin1.waypoints.first?.name == "Café")
  }

  @Test func readsFromAPathAndRefusesWhatIsNotAFile() throws {
    let folder = try Fixtures.scratchFolder("stash-gpx").path
    let path = folder + "/walk_track.gpx"
    try Data(Self.phoneFile).write(to: URL(fileURLWithPath: path))
    #expect(try GPXReader.read(path: path) == GPXReader.read(Self.phoneFile))
    #expect(throws: FormatError.self) { try GPXReader.read(path: folder) }
    #expect(throws: FormatError.self) { try GPXReader.read(path: folder + "/missing.gpx") }
  }
}
