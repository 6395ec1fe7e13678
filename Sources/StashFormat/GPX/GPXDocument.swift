/// A GPX file as read (or to be written): its tracks, routes and waypoints, and what the reader
/// found wrong with it.
public struct GPXDocument: Sendable, Equatable {
  /// The GPX version the file is in, from its namespace: "1.1" or "1.0".
  public var version: String
  /// The `creator` attribute: the program that wrote the file.
  public var creator: String?
  /// The file's metadata.
  public var metadata: GPXMetadata
  /// Tracks (`<trk>`) in file order.
  public var tracks: [GPXTrack]
  /// Routes (`<rte>`) in file order.
  public var routes: [GPXRoute]
  /// Waypoints (`<wpt>`) in file order.
  public var waypoints: [GPXPoint]
  /// Problems the reader found, in file order; codes start with `gpx-`.
  public var diagnostics: [Diagnostic]

  /// A document with the given parts; the writer always writes version 1.1.
  public init(
    version: String = "1.1", creator: String? = nil, metadata: GPXMetadata = GPXMetadata(),
    tracks: [GPXTrack] = [], routes: [GPXRoute] = [], waypoints: [GPXPoint] = [],
    diagnostics: [Diagnostic] = []
  ) {
    self.version = version
    self.creator = creator
    self.metadata = metadata
    self.tracks = tracks
    self.routes = routes
    self.waypoints = waypoints
    self.diagnostics = diagnostics
  }

  /// Every track point, route point and waypoint the document holds.
  public var pointCount: Int {
    tracks.reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.points.count } }
      + routes.reduce(0) { $0 + $1.points.count } + waypoints.count
  }

  /// The diagnostic codes that mean reading stopped before the end of the document.
  public static let damageCodes: Set<FormatError.Code> = [
    .gpxEmpty, .gpxNotXML, .gpxNotGPX, .gpxTruncated, .gpxMalformed, .gpxEntityRefused,
    .gpxTooDeep,
  ]

  /// True when reading stopped before the end of the document: the file is empty, torn,
  /// malformed, not GPX, or refused. What the document holds is everything read before that. A
  /// point skipped for a bad coordinate is an error too, but not damage: the rest was read.
  public var isDamaged: Bool { diagnostics.contains { Self.damageCodes.contains($0.code) } }
}
