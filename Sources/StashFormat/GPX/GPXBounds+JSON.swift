/// A box as `stash inspect` prints it (docs/inspect-route.md).
extension GPXBounds {
  /// `{"minLat","minLon","maxLat","maxLon"}`.
  package var json: JSONValue {
    .object([
      ("minLat", .double(minLatitude)), ("minLon", .double(minLongitude)),
      ("maxLat", .double(maxLatitude)), ("maxLon", .double(maxLongitude)),
    ])
  }
}
