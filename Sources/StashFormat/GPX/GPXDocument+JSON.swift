/// The JSON forms of GPX values, as `stash inspect FILE.gpx --json` prints them (documented in
/// docs/inspect-route.md). Absent values are null, never left out, so every point has one shape.
extension GPXDocument {
  /// `{"kind":"gpx","version",...,"tracks","routes","waypoints","statistics","diagnostics"}`.
  public var json: JSONValue {
    .object([
      ("kind", .string("gpx")),
      ("version", .string(version)),
      ("creator", .optional(creator)),
      ("metadata", metadata.json),
      (
        "tracks",
        .array(
          tracks.map { track in
            .object([
              ("name", .optional(track.name)),
              ("description", .optional(track.description)),
              ("type", .optional(track.type)),
              (
                "segments",
                .array(
                  track.segments.map { segment in
                    .object([("points", .array(segment.points.map { $0.json(named: false) }))])
                  })
              ),
            ])
          })
      ),
      (
        "routes",
        .array(
          routes.map { route in
            .object([
              ("name", .optional(route.name)),
              ("description", .optional(route.description)),
              ("points", .array(route.points.map { $0.json(named: true) })),
            ])
          })
      ),
      ("waypoints", .array(waypoints.map { $0.json(named: true) })),
      ("statistics", RouteStatistics(document: self).json),
      ("diagnostics", .array(diagnostics.map(\.json))),
    ])
  }
}

extension GPXMetadata {
  /// `{"name","description","time","bounds"}`.
  public var json: JSONValue {
    .object([
      ("name", .optional(name)),
      ("description", .optional(description)),
      ("time", .optional(time.map { ISO8601Time.format($0, zone: timeHadZone != false) })),
      ("bounds", bounds.map(\.json) ?? .null),
    ])
  }
}

extension GPXBounds {
  /// `{"minLat","minLon","maxLat","maxLon"}`.
  public var json: JSONValue {
    .object([
      ("minLat", .double(minLatitude)), ("minLon", .double(minLongitude)),
      ("maxLat", .double(maxLatitude)), ("maxLon", .double(maxLongitude)),
    ])
  }
}

extension GPXPoint {
  /// `{"lat","lon","ele","time","speed","course","horizontalAccuracy","hdop"}`, plus `name` and
  /// `description` when `named` (waypoints and route points). `time` is ISO 8601 in UTC with its
  /// fraction (to the microsecond); a time written without a zone is printed without `Z`.
  public func json(named: Bool) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("lat", .double(latitude)),
      ("lon", .double(longitude)),
      ("ele", .optional(elevation)),
      ("time", .optional(time.map { ISO8601Time.format($0, zone: timeHadZone != false) })),
      ("speed", .optional(speed)),
      ("course", .optional(course)),
      ("horizontalAccuracy", .optional(horizontalAccuracy)),
      ("hdop", .optional(hdop)),
    ]
    if named {
      members.append(("name", .optional(name)))
      members.append(("description", .optional(description)))
    }
    return .object(members)
  }
}

extension RouteStatistics {
  /// Metres, seconds and metres per second; null where there is nothing to measure.
  public var json: JSONValue {
    .object([
      ("distance", .double(distance)),
      ("duration", .optional(duration)),
      ("movingTime", .double(movingTime)),
      ("elevationGain", .double(elevationGain)),
      ("elevationLoss", .double(elevationLoss)),
      ("averageSpeed", .optional(averageSpeed)),
      ("maxSpeed", .optional(maxSpeed)),
      ("boundingBox", boundingBox.map(\.json) ?? .null),
      ("pointCount", .int(pointCount)),
      ("segmentCount", .int(segmentCount)),
    ])
  }
}
