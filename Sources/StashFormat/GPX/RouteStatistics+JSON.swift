/// The statistics as `stash inspect` prints them (docs/inspect-route.md).
extension RouteStatistics {
  /// Metres, seconds and metres per second; null where there is nothing to measure.
  /// Numbers carry the precision of what they measure: times to the microsecond (the sums of
  /// instants near 1.7e9 s carry float noise below that), lengths and speeds to the millimetre.
  package var json: JSONValue {
    let (seconds, metres) = (JSONValue.seconds, JSONValue.metres)
    return .object([
      ("distance", metres(distance)),
      ("duration", seconds(duration)),
      ("movingTime", seconds(movingTime)),
      ("elevationGain", metres(elevationGain)),
      ("elevationLoss", metres(elevationLoss)),
      ("averageSpeed", metres(averageSpeed)),
      ("maxSpeed", metres(maxSpeed)),
      ("boundingBox", boundingBox.map(\.json) ?? .null),
      ("pointCount", .int(pointCount)),
      ("segmentCount", .int(segmentCount)),
      ("offGlobePointCount", .int(offGlobePointCount)),
    ])
  }
}
