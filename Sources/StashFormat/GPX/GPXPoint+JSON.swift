/// A point as `stash inspect` prints it (docs/inspect-route.md).
extension GPXPoint {
  /// `{"lat","lon","ele","time","speed","course","horizontalAccuracy","hdop"}`, plus `name` and
  /// `description` when `named` (waypoints and route points). `time` is ISO 8601 in UTC with its
  /// fraction (to the microsecond); a time written without a zone is printed without `Z`.
  package func json(named: Bool) -> JSONValue {
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
