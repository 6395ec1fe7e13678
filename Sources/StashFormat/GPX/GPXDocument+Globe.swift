/// Points off the globe: some writers mark pauses with impossible coordinates (an older OpenTracks
/// wrote latitude 100 and 200). They stay in the document as written; everything derived from a
/// route (statistics, the sketch, exports) leaves them out and breaks the segment there
/// (FORMAT.md §4.3).
extension GPXPoint {
  /// Whether the point's latitude lies in −90…90 and its longitude in −180…180.
  public var isOnGlobe: Bool { (-90...90).contains(latitude) && (-180...180).contains(longitude) }
}

extension GPXTrack {
  /// The track's segments split at every point off the globe, which is left out; runs left
  /// empty are dropped.
  public var segmentsOnGlobe: [GPXSegment] {
    segments.flatMap { segment -> [GPXSegment] in
      guard segment.points.contains(where: { !$0.isOnGlobe }) else { return [segment] }
      return segment.points.split(whereSeparator: { !$0.isOnGlobe }).map { GPXSegment(points: Array($0)) }
    }
  }
}

extension GPXDocument {
  /// Track points, route points and waypoints off the globe, which nothing derived counts.
  public var offGlobePointCount: Int {
    tracks.reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.points.count { !$0.isOnGlobe } } }
      + routes.reduce(0) { $0 + $1.points.count { !$0.isOnGlobe } } + waypoints.count { !$0.isOnGlobe }
  }
}
