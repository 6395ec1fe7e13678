/// The statistics as `stash inspect` prints them (docs/inspect-route.md).
extension RouteStatistics {
  /// Metres, seconds and metres per second; null where there is nothing to measure.
  package var json: JSONValue {
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
