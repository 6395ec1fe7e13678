import Testing

@testable import StashFormat

@Suite struct GPXRouteStatisticsTests {
  @Test func geodesicDistancesMatchKnownValues() {
    // Vincenty's own test line, Flinders Peak to Buninyong (Geoscience Australia): 54,972.271 m.
    let flinders = (-(37 + 57 / 60.0 + 3.7203 / 3600), 144 + 25 / 60.0 + 29.5244 / 3600)
    let buninyong = (-(37 + 39 / 60.0 + 10.1561 / 3600), 143 + 55 / 60.0 + 35.3839 / 3600)
    let d = Geodesic.distance(
      latitude1: flinders.0, longitude1: flinders.1, latitude2: buninyong.0, longitude2: buninyong.1)
    #expect(abs(d - 54_972.271) < 0.001)
    // A degree of longitude on the equator is a/180*pi; a degree of latitude at the equator is
    // 110,574.4 m on WGS84; a quarter meridian is 10,001,965.729 m.
    #expect(
      abs(Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 1) - 111_319.491) < 0.001)
    #expect(
      abs(Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 1, longitude2: 0) - 110_574.389) < 0.01)
    #expect(
      abs(Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 90, longitude2: 0) - 10_001_965.729)
        < 0.01)
    #expect(Geodesic.distance(latitude1: 12, longitude1: 34, latitude2: 12, longitude2: 34) == 0)
    // Nearly antipodal points, where Vincenty fails to converge, still get a sane answer.
    let antipodal = Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 0.5, longitude2: 179.7)
    #expect(antipodal > 19_900_000 && antipodal < 20_050_000)
  }

  @Test func countsDistanceWithinSegmentsOnlyNeverAcrossAGap() {
    let east = GPXSegment(points: [
      GPXPoint(latitude: 0, longitude: 0, elevation: 0, time: 0),
      GPXPoint(latitude: 0, longitude: 0.001, elevation: 0, time: 60),
    ])
    // The second segment starts a degree away: that jump is a gap, not a walk.
    let north = GPXSegment(points: [
      GPXPoint(latitude: 1, longitude: 0, time: 1000), GPXPoint(latitude: 1.001, longitude: 0, time: 1100),
    ])
    let statistics = RouteStatistics(document: GPXDocument(tracks: [GPXTrack(segments: [east, north])]))
    let expected =
      Geodesic.distance(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 0.001)
      + Geodesic.distance(latitude1: 1, longitude1: 0, latitude2: 1.001, longitude2: 0)
    #expect(abs(statistics.distance - expected) < 1e-9)
    #expect(statistics.distance < 300)
    #expect(statistics.duration == 1100)
    #expect(statistics.movingTime == 160)
    #expect(statistics.segmentCount == 2 && statistics.pointCount == 4)
    #expect(abs(statistics.averageSpeed! - expected / 160) < 1e-9)
    #expect(
      statistics.boundingBox
        == GPXBounds(minLatitude: 0, minLongitude: 0, maxLatitude: 1.001, maxLongitude: 0.001))
  }

  @Test func standingStillIsNotMovingTime() {
    // Ten minutes of jitter (a metre or so) then a minute's walk of about 100 m.
    var points: [GPXPoint] = []
    for second in 0..<600 {
      points.append(
        GPXPoint(latitude: 10 + Double(second % 2) * 0.00001, longitude: 10, time: Double(second)))
    }
    points.append(GPXPoint(latitude: 10.0009, longitude: 10, time: 660))
    let statistics = RouteStatistics(
      document: GPXDocument(tracks: [GPXTrack(segments: [GPXSegment(points: points)])]))
    // Only the walk counts: from the last still point (599 s) to the end.
    #expect(statistics.movingTime == 61)
    #expect(statistics.duration == 660)
    // With the points' own speeds, those decide instead of the differenced positions.
    for i in points.indices { points[i].speed = i < 300 ? 1.4 : 0 }
    let reported = RouteStatistics(
      document: GPXDocument(tracks: [GPXTrack(segments: [GPXSegment(points: points)])]))
    // 299 one-second steps at 1.4 m/s, and the step to the first 0 m/s point, whose mean is 0.7.
    #expect(reported.movingTime == 300)
    #expect(reported.maxSpeed == 1.4)
  }

  @Test func elevationNoiseIsIgnoredRealClimbsCount() {
    // +-2 m of noise around 100 m, a climb to 130 m, noise, a descent to 90 m.
    let elevations: [Double] = [100, 102, 98, 101, 99, 110, 120, 130, 128, 131, 129, 110, 90, 92, 89]
    let points = elevations.enumerated().map {
      GPXPoint(latitude: 0, longitude: Double($0.offset) * 0.0001, elevation: $0.element)
    }
    let statistics = RouteStatistics(
      document: GPXDocument(tracks: [GPXTrack(segments: [GPXSegment(points: points)])]))
    #expect(statistics.elevationGain == 30)
    #expect(statistics.elevationLoss == 40)
    let raw = RouteStatistics(
      document: GPXDocument(tracks: [GPXTrack(segments: [GPXSegment(points: points)])]), elevationThreshold: 0
    )
    #expect(raw.elevationGain > 40)
    #expect(statistics.duration == nil && statistics.averageSpeed == nil && statistics.maxSpeed == nil)
  }

  @Test func derivesMaximumSpeedWhenNoPointReportsOne() {
    let points = [
      GPXPoint(latitude: 0, longitude: 0, time: 0), GPXPoint(latitude: 0, longitude: 0.0001, time: 10),
      GPXPoint(latitude: 0, longitude: 0.0002, time: 12), GPXPoint(latitude: 0, longitude: 0.0003, time: 12),
    ]
    let statistics = RouteStatistics(
      document: GPXDocument(tracks: [GPXTrack(segments: [GPXSegment(points: points)])]))
    // 11.13 m in 2 s; the zero-time step is skipped rather than divided by zero.
    #expect(abs(statistics.maxSpeed! - 111_319.491 * 0.0001 / 2) < 0.01)
  }

  @Test func anEmptyDocumentHasNothingToSay() {
    let statistics = RouteStatistics(document: GPXDocument())
    #expect(statistics.distance == 0 && statistics.movingTime == 0 && statistics.pointCount == 0)
    #expect(statistics.duration == nil && statistics.boundingBox == nil)
  }
}
