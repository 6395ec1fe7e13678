/// What a route's tracks add up to. Everything is per segment: a segment boundary is a gap, so
/// no distance, speed or climb is counted across it. Points off the globe count for nothing and
/// break their segment. Routes (`<rte>`, plans) and waypoints count
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
  /// Seconds spent moving, within segments: between points that both report a speed, when their
  /// mean reaches the moving threshold; otherwise from positions, ignoring jitter within ten
  /// metres of where the route last settled.
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
  /// Track segments counted (each a run without gaps; a point off the globe ends one).
  public var segmentCount: Int
  /// Points off the globe (tracks, routes and waypoints), left out of everything above.
  public var offGlobePointCount: Int

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
    offGlobePointCount = document.offGlobePointCount
    var earliest = Double.infinity
    var latest = -Double.infinity
    var timedPoints = 0
    var reportedMax: Double?
    var derivedMax: Double?
    var box = BoxBuilder()
    for track in document.tracks {
      for segment in track.segmentsOnGlobe {
        segmentCount += 1
        pointCount += segment.points.count
        var previous: GPXPoint?
        var lastTimed: GPXPoint?
        var moving = MovementTracker()
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
          if let previous {
            distance += Geodesic.distance(
              latitude1: previous.latitude, longitude1: previous.longitude, latitude2: point.latitude,
              longitude2: point.longitude)
          }
          previous = point
          guard let time = point.time else { continue }
          defer { lastTimed = point }
          if let last = lastTimed, let start = last.time, time > start {
            let step = Geodesic.distance(
              latitude1: last.latitude, longitude1: last.longitude, latitude2: point.latitude,
              longitude2: point.longitude)
            derivedMax = max(derivedMax ?? 0, step / (time - start))
            if let lastSpeed = last.speed, let speed = point.speed {
              // The phone's own (Doppler) speeds are steadier than differenced positions.
              if (lastSpeed + speed) / 2 >= movingSpeed { movingTime += time - start }
              moving.restart(at: point)
              continue
            }
          }
          movingTime += moving.advance(to: point, movingSpeed: movingSpeed)
        }
      }
    }
    for route in document.routes { for point in route.points where point.isOnGlobe { box.add(point) } }
    for point in document.waypoints where point.isOnGlobe { box.add(point) }
    duration = timedPoints >= 2 ? latest - earliest : nil
    averageSpeed = movingTime > 0 ? distance / movingTime : nil
    maxSpeed = reportedMax ?? derivedMax
    boundingBox = box.bounds
  }

  /// Moving time from positions alone. GPS positions jitter by metres a second while standing
  /// still, so consecutive points are not compared directly: time counts once the route leaves a
  /// circle of `stillRadius` around where it last settled, at the speed it left with.
  private struct MovementTracker {
    static let stillRadius = 10.0
    var anchor: GPXPoint?
    var lastStill: GPXPoint?

    mutating func restart(at point: GPXPoint) {
      anchor = point
      lastStill = point
    }

    /// The moving seconds that `point` (a timed point) completes.
    mutating func advance(to point: GPXPoint, movingSpeed: Double) -> Double {
      guard let anchor, let anchorTime = anchor.time, let lastStill, let stillTime = lastStill.time,
        let time = point.time
      else {
        restart(at: point)
        return 0
      }
      let away = Geodesic.distance(
        latitude1: anchor.latitude, longitude1: anchor.longitude, latitude2: point.latitude,
        longitude2: point.longitude)
      guard away >= Self.stillRadius else {
        self.lastStill = point
        return 0
      }
      restart(at: point)
      // Walking steadily out of the circle: all of it was moving.
      if time > anchorTime, away / (time - anchorTime) >= movingSpeed { return time - anchorTime }
      // Standing, then setting off: only the leg from the last still point.
      let leg = Geodesic.distance(
        latitude1: lastStill.latitude, longitude1: lastStill.longitude, latitude2: point.latitude,
        longitude2: point.longitude)
      if time > stillTime, leg / (time - stillTime) >= movingSpeed { return time - stillTime }
      return 0
    }
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
