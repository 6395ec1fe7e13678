import Foundation
import StashTestSupport
import Testing

/// `stash inspect FILE.gpx --json`, run as the real binary.
@Suite struct InspectRouteTests {
  static let file = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="Stash" xmlns="http://www.topografix.com/GPX/1/1"
      xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" xmlns:stash="urn:stash:gpx:1">
      <wpt lat="10.5" lon="20.25"><name>Bench</name></wpt>
      <trk><name>Walk</name>
        <trkseg>
          <trkpt lat="51.5" lon="-0.1"><ele>12.5</ele><time>2026-05-01T07:30:00.125Z</time>
            <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>1.25</gpxtpx:speed><gpxtpx:course>90</gpxtpx:course></gpxtpx:TrackPointExtension>
            <stash:horizontalAccuracy>4.5</stash:horizontalAccuracy></extensions></trkpt>
          <trkpt lat="51.5001" lon="-0.1"><ele>13</ele><time>2026-05-01T09:30:01+02:00</time><hdop>2</hdop></trkpt>
        </trkseg>
      </trk>
    </gpx>

    """

  func inspect(_ text: String) throws -> (ProcessResult, [String: Any]?) {
    let folder = try ScratchFolder("stash-inspect-gpx")
    defer { folder.remove() }
    let path = folder.appendingPathComponent("memo_track.gpx").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let result = try runProcess(Fixtures.product("stash").path, ["inspect", path, "--json"])
    let json = try? JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    return (result, json)
  }

  @Test func printsTheDocumentedShape() throws {
    let (result, parsed) = try inspect(Self.file)
    #expect(result.status == 0, "\(result.standardError)")
    let json = try #require(parsed)
    #expect(json["kind"] as? String == "gpx")
    #expect(json["version"] as? String == "1.1")
    #expect((json["diagnostics"] as? [Any])?.isEmpty == true)
    let tracks = try #require(json["tracks"] as? [[String: Any]])
    #expect(tracks.first?["name"] as? String == "Walk")
    let segments = try #require(tracks.first?["segments"] as? [[String: Any]])
    let points = try #require(segments.first?["points"] as? [[String: Any]])
    #expect(points.count == 2)
    let first = points[0]
    #expect(first["lat"] as? Double == 51.5)
    #expect(first["lon"] as? Double == -0.1)
    #expect(first["ele"] as? Double == 12.5)
    #expect(first["time"] as? String == "2026-05-01T07:30:00.125Z")
    #expect(first["speed"] as? Double == 1.25)
    #expect(first["course"] as? Double == 90)
    #expect(first["horizontalAccuracy"] as? Double == 4.5)
    #expect(first["hdop"] is NSNull)
    let second = points[1]
    #expect(second["time"] as? String == "2026-05-01T07:30:01Z")
    #expect(second["hdop"] as? Double == 2)
    #expect(second["horizontalAccuracy"] is NSNull)
    #expect(second["speed"] is NSNull)
    #expect(
      Set(first.keys) == ["lat", "lon", "ele", "time", "speed", "course", "horizontalAccuracy", "hdop"])
    let waypoints = try #require(json["waypoints"] as? [[String: Any]])
    #expect(waypoints.first?["name"] as? String == "Bench")
    #expect((json["routes"] as? [Any])?.isEmpty == true)
    let statistics = try #require(json["statistics"] as? [String: Any])
    #expect(statistics["duration"] as? Double == 0.875)
    #expect(statistics["pointCount"] as? Int == 2)
    // Keys come in the documented order.
    let order = ["\"kind\"", "\"version\"", "\"tracks\"", "\"routes\"", "\"waypoints\"", "\"diagnostics\""]
      .map { result.standardOutput.range(of: $0)!.lowerBound }
    #expect(order == order.sorted())
  }

  @Test func aTornFileStillPrintsWhatItHoldsAndWhy() throws {
    let torn = String(Self.file[..<Self.file.range(of: "<hdop>")!.lowerBound])
    let (result, parsed) = try inspect(torn)
    #expect(result.status == 0)
    let json = try #require(parsed)
    let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.count == 1)
    #expect(diagnostics.first?["code"] as? String == "gpx-truncated")
    #expect(diagnostics.first?["severity"] as? String == "error")
    #expect(diagnostics.first?["line"] as? Int == 10)
    #expect((diagnostics.first?["message"] as? String)?.contains("kept the 2 points") == true)
    let tracks = try #require(json["tracks"] as? [[String: Any]])
    let segments = try #require(tracks.first?["segments"] as? [[String: Any]])
    #expect((segments.first?["points"] as? [Any])?.count == 1)
  }

  @Test func aMissingFileIsAnErrorWithItsPath() throws {
    let result = try runProcess(
      Fixtures.product("stash").path, ["inspect", "/nonexistent/x_track.gpx", "--json"])
    #expect(result.status == 2)
    #expect(result.standardError.contains("/nonexistent/x_track.gpx"))
  }
}
