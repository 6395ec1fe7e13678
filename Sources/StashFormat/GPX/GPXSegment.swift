/// A `<trkseg>`: points recorded without interruption. A boundary between segments is a gap in
/// the route, and nothing derived from the route (distance, the sketch) joins across it.
public struct GPXSegment: Sendable, Equatable {
  /// The segment's points in file order.
  public var points: [GPXPoint]

  /// A segment holding `points`.
  public init(points: [GPXPoint] = []) { self.points = points }
}
