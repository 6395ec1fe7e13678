/// A latitude/longitude box: `<bounds>` in metadata, or the extent a route covers.
public struct GPXBounds: Sendable, Equatable {
  /// Southern edge, degrees.
  public var minLatitude: Double
  /// Western edge, degrees.
  public var minLongitude: Double
  /// Northern edge, degrees.
  public var maxLatitude: Double
  /// Eastern edge, degrees.
  public var maxLongitude: Double

  /// A box with the given edges.
  public init(minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) {
    self.minLatitude = minLatitude
    self.minLongitude = minLongitude
    self.maxLatitude = maxLatitude
    self.maxLongitude = maxLongitude
  }
}
