/// The `<metadata>` of a GPX 1.1 file (in GPX 1.0 the same fields sit directly under `<gpx>`).
public struct GPXMetadata: Sendable, Equatable {
  /// The file's `<name>`.
  public var name: String?
  /// The file's `<desc>`.
  public var description: String?
  /// When the file was created, seconds since 1970 UTC.
  public var time: Double?
  /// Whether the metadata `<time>` carried a zone; nil when there is no time.
  public var timeHadZone: Bool?
  /// The `<bounds>` the file declares (not checked against its points).
  public var bounds: GPXBounds?

  /// Metadata with the given parts.
  public init(
    name: String? = nil, description: String? = nil, time: Double? = nil,
    timeHadZone: Bool? = nil, bounds: GPXBounds? = nil
  ) {
    self.name = name
    self.description = description
    self.time = time
    self.timeHadZone = timeHadZone ?? (time == nil ? nil : true)
    self.bounds = bounds
  }

  /// True when no field is set; the writer leaves such metadata out.
  public var isEmpty: Bool {
    name == nil && description == nil && time == nil && bounds == nil
  }
}
