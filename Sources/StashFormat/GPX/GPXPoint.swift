/// One GPX point: a track point (`trkpt`), a route point (`rtept`) or a waypoint (`wpt`).
///
/// Optional numbers are stored as NaN-for-absent so a million-point track stays near 100 bytes a
/// point; reading never produces NaN, and assigning NaN reads back as nil.
public struct GPXPoint: Sendable {
  /// Degrees north, WGS84.
  public var latitude: Double
  /// Degrees east, WGS84.
  public var longitude: Double
  private var storedElevation = Double.nan
  private var storedTime = Double.nan
  private var storedSpeed = Double.nan
  private var storedCourse = Double.nan
  private var storedAccuracy = Double.nan
  private var storedHDOP = Double.nan
  private var flags: UInt8 = 0
  private var line: UInt32 = 0
  private var column: UInt32 = 0
  private var offset: Int64 = -1
  /// The point's `<name>`, mostly on waypoints.
  public var name: String?
  /// The point's `<desc>`.
  public var description: String?

  /// A point at a position; everything else is absent until set.
  public init(
    latitude: Double, longitude: Double, elevation: Double? = nil, time: Double? = nil,
    timeHadZone: Bool? = nil, speed: Double? = nil, course: Double? = nil,
    horizontalAccuracy: Double? = nil, hdop: Double? = nil, name: String? = nil,
    description: String? = nil, location: SourceLocation? = nil
  ) {
    self.latitude = latitude
    self.longitude = longitude
    self.elevation = elevation
    self.time = time
    self.timeHadZone = timeHadZone ?? (time == nil ? nil : true)
    self.speed = speed
    self.course = course
    self.horizontalAccuracy = horizontalAccuracy
    self.hdop = hdop
    self.name = name
    self.description = description
    self.location = location
  }

  /// A point at a position with nothing else set, as the general initializer makes it with no
  /// other argument, but without running its setters: the reader makes one per point.
  init(reading latitude: Double, _ longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Metres above the WGS84 ellipsoid as GPX defines `<ele>` (phones write altitude above sea level).
  public var elevation: Double? {
    get { storedElevation.isNaN ? nil : storedElevation }
    set { storedElevation = newValue ?? .nan }
  }

  /// Seconds since 1970-01-01T00:00:00Z, to the microsecond. A time written without a zone is
  /// taken as UTC and `timeHadZone` is false. Setting a time where there was none marks it as
  /// having a zone (a time made in code is absolute); setting nil clears `timeHadZone`.
  public var time: Double? {
    get { storedTime.isNaN ? nil : storedTime }
    set {
      storedTime = newValue ?? .nan
      if storedTime.isNaN {
        timeHadZone = nil
      } else if timeHadZone == nil {
        timeHadZone = true
      }
    }
  }

  /// Whether the `<time>` carried `Z` or an offset; nil when there is no time.
  public var timeHadZone: Bool? {
    get { flags & 1 == 0 ? nil : flags & 2 != 0 }
    set {
      flags &= ~3
      if let newValue { flags |= newValue ? 3 : 1 }
    }
  }

  /// Metres per second over ground (Garmin TrackPointExtension, or GPX 1.0 `<speed>`).
  public var speed: Double? {
    get { storedSpeed.isNaN ? nil : storedSpeed }
    set { storedSpeed = newValue ?? .nan }
  }

  /// Degrees clockwise from true north, 0...360 (Garmin TrackPointExtension, or GPX 1.0 `<course>`).
  public var course: Double? {
    get { storedCourse.isNaN ? nil : storedCourse }
    set { storedCourse = newValue ?? .nan }
  }

  /// Radius in metres of the fix's horizontal uncertainty (`<stash:horizontalAccuracy>`).
  public var horizontalAccuracy: Double? {
    get { storedAccuracy.isNaN ? nil : storedAccuracy }
    set { storedAccuracy = newValue ?? .nan }
  }

  /// Horizontal dilution of precision (`<hdop>`): a unitless factor, never a distance.
  public var hdop: Double? {
    get { storedHDOP.isNaN ? nil : storedHDOP }
    set { storedHDOP = newValue ?? .nan }
  }

  /// Where the point's start tag was in the file it was read from; nil for a point built in code.
  public var location: SourceLocation? {
    get {
      offset < 0
        ? nil : SourceLocation(line: Int(line), column: Int(column), offset: Int(offset))
    }
    set {
      guard let newValue else {
        offset = -1
        return
      }
      line = UInt32(clamping: newValue.line ?? 0)
      column = UInt32(clamping: newValue.column ?? 0)
      offset = Int64(newValue.offset ?? 0)
    }
  }

  /// Sets the location without building a `SourceLocation` (the reader's hot path).
  mutating func setLocation(line: UInt, column: UInt, offset: Int) {
    self.line = UInt32(truncatingIfNeeded: line)
    self.column = UInt32(truncatingIfNeeded: column)
    self.offset = Int64(offset)
  }
}

extension GPXPoint: Equatable {
  /// Points are equal when what they say is equal; where they were read from does not count, so
  /// a document read back from its own serialization equals the original.
  public static func == (lhs: GPXPoint, rhs: GPXPoint) -> Bool {
    lhs.latitude == rhs.latitude && lhs.longitude == rhs.longitude
      && lhs.elevation == rhs.elevation && lhs.time == rhs.time
      && lhs.timeHadZone == rhs.timeHadZone && lhs.speed == rhs.speed && lhs.course == rhs.course
      && lhs.horizontalAccuracy == rhs.horizontalAccuracy && lhs.hdop == rhs.hdop
      && lhs.name == rhs.name && lhs.description == rhs.description
  }
}
