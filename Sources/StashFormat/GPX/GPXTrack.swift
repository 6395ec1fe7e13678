/// A `<trk>`: a recorded route, split into segments at its gaps.
public struct GPXTrack: Sendable, Equatable {
  /// The track's `<name>`.
  public var name: String?
  /// The track's `<desc>`.
  public var description: String?
  /// The track's `<type>` (an activity, for most exporters).
  public var type: String?
  /// The track's segments in file order.
  public var segments: [GPXSegment]

  /// A track with the given parts.
  public init(
    name: String? = nil, description: String? = nil, type: String? = nil,
    segments: [GPXSegment] = []
  ) {
    self.name = name
    self.description = description
    self.type = type
    self.segments = segments
  }
}
