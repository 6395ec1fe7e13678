/// What a route's tracks add up to. Everything is per segment: a segment boundary is a gap, so
/// no distance, speed or climb is counted across it. Routes (`<rte>`, plans) and waypoints count
/// only towards the bounding box.
public struct RouteStatistics: Sendable, Equatable {
  /// Between consecutive points slower than this (m/s), the time is not moving time.
  public static let defaultMovingSpeed = 0.5
  /// Elevation changes smaller than this (metres) are taken as noise (GPS altitude wanders by
  /// several metres standing still).
  public static let defaultElevationThreshold = 5.0

  /// Metres along the ellipsoid, summed within segments.
  public var distance: Double
  /// Seconds from the earliest to the latest timed track point, gaps included; nil without
  /// two timed points.
  public var duration: Double?
  /// Seconds spent moving: intervals within a segment whose speed reaches the moving threshold.
  public var movingTime: Double
  /// Metres climbed, counting only changes past the noise threshold.
  public var elevationGain: Double
  /// Metres descended, counting only changes past the noise threshold.
  public var elevationLoss: Double
  /// Distance over moving time, m/s; nil when nothing moved.
  public var averageSpeed: Double?
  /// The highest speed the points report (Garmin's extension); when no point reports one, the
  /// highest speed between two consecutive timed points. m/s; nil when neither exists.
  public var maxSpeed: Double?
  /// The box around every point (tracks, routes and waypoints); nil when there are none.
  public var boundingBox: GPXBounds?
  /// Track points counted.
  public var pointCount: Int
  /// Track segments counted (each a run without gaps).
  public var segmentCount: Int

  /// The statistics of `document`'s tracks.
  public init(
    document: GPXDocument, movingSpeed: Double = defaultMovingSpeed,
    elevationThreshold: Double = defaultElevationThreshold
  ) {
    distance = 0
    movingTime = 0
    elevationGain = 0
    elevationLoss = 0
    pointCount = 0
    segmentCount = 0
    var earliest = Double.infinity
    var latest = -Double.infinity
    var timedPoints = 0
    var reportedMax: Double?
    var derivedMax: Double?
    var box = BoxBuilder()
    for track in document.tracks {
      for segment in track.segments {
        segmentCount += 1
        pointCount += segment.points.count
        var previous: GPXPoint?
        var elevationReference: Double?
        for point in segment.points {
          box.add(point)
          if let time = point.time {
            timedPoints += 1
            earliest = min(earliest, time)
            latest = max(latest, time)
          }
          if let speed = point.speed { reportedMax = max(reportedMax ?? speed, speed) }
          if let elevation = point.elevation {
            if let reference = elevationReference {
              let change = elevation - reference
              if change >= elevationThreshold {
                elevationGain += change
                elevationReference = elevation
              } else if -change >= elevationThreshold {
                elevationLoss -= change
                elevationReference = elevation
              }
            } else {
              elevationReference = elevation
            }
          }
          defer { previous = point }
          guard let previous else { continue }
          let step = Geodesic.distance(
            latitude1: previous.latitude, longitude1: previous.longitude, latitude2: point.latitude,
            longitude2: point.longitude)
          distance += step
          guard let start = previous.time, let end = point.time, end > start else { continue }
          let seconds = end - start
          let derived = step / seconds
          derivedMax = max(derivedMax ?? derived, derived)
          // The phone's own speeds are steadier than positions differenced a second apart.
          let speed = previous.speed.flatMap { a in point.speed.map { b in (a + b) / 2 } } ?? derived
          if speed >= movingSpeed { movingTime += seconds }
        }
      }
    }
    for route in document.routes { for point in route.points { box.add(point) } }
    for point in document.waypoints { box.add(point) }
    duration = timedPoints >= 2 ? latest - earliest : nil
    averageSpeed = movingTime > 0 ? distance / movingTime : nil
    maxSpeed = reportedMax ?? derivedMax
    boundingBox = box.bounds
  }

  private struct BoxBuilder {
    var bounds: GPXBounds?

    mutating func add(_ point: GPXPoint) {
      guard var box = bounds else {
        bounds = GPXBounds(
          minLatitude: point.latitude, minLongitude: point.longitude, maxLatitude: point.latitude,
          maxLongitude: point.longitude)
        return
      }
      box.minLatitude = min(box.minLatitude, point.latitude)
      box.maxLatitude = max(box.maxLatitude, point.latitude)
      box.minLongitude = min(box.minLongitude, point.longitude)
      box.maxLongitude = max(box.maxLongitude, point.longitude)
      bounds = box
    }
  }
}
