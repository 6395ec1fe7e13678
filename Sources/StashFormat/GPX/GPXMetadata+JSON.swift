/// The metadata as `stash inspect` prints it (docs/inspect-route.md).
extension GPXMetadata {
  /// `{"name","description","time","bounds"}`.
  package var json: JSONValue {
    .object([
      ("name", .optional(name)),
      ("description", .optional(description)),
      ("time", .optional(time.map { ISO8601Time.format($0, zone: timeHadZone != false) })),
      ("bounds", bounds.map(\.json) ?? .null),
    ])
  }
}
