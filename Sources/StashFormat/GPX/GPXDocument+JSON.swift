/// The JSON forms of GPX values, as `stash inspect FILE.gpx --json` prints them (documented in
/// docs/inspect-route.md). Absent values are null, never left out, so every point has one shape.
extension GPXDocument {
  /// `{"kind":"gpx","version",...,"tracks","routes","waypoints","statistics","diagnostics"}`.
  package var json: JSONValue {
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
