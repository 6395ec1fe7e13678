/// A `<rte>`: a planned route, an ordered list of points to pass through.
public struct GPXRoute: Sendable, Equatable {
  /// The route's `<name>`.
  public var name: String?
  /// The route's `<desc>`.
  public var description: String?
  /// The route's points (`<rtept>`) in file order.
  public var points: [GPXPoint]

  /// A route with the given parts.
  public init(name: String? = nil, description: String? = nil, points: [GPXPoint] = []) {
    self.name = name
    self.description = description
    self.points = points
  }
}
