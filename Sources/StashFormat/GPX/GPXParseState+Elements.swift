/// The reader's reactions to the events of a document: which elements open which parts of it,
/// and what captured text becomes.
extension GPXParseState {
  /// An element opened: decide what it is from its namespace, name and parent, and push that.
  /// `rootName` (`{namespace}local`) is only for a message about a root that is not GPX; a feeder
  /// that gives such a document to another reader passes none.
  mutating func start(
    _ space: GPXNamespace.Known, _ local: GPXElementNames.Local, _ attributes: GPXAttributes,
    rootName: String? = nil
  ) {
    guard depth < Self.maximumDepth else {
      stop(.gpxTooDeep, "elements are nested more than \(Self.maximumDepth) deep; GPX needs about eight")
      return
    }
    guard depth > 0 else {
      startRoot(space, local, attributes, rootName: rootName)
      return
    }
    let parent = stack[depth - 1]
    var kind = Kind.ignored
    if space == gpxNamespace {
      switch local {
      case .metadata where parent == .root: kind = .metadata
      case .name: kind = beginField(nameField(in: parent))
      case .desc: kind = beginField(descriptionField(in: parent))
      case .time:
        kind = beginField(
          parent == .root || parent == .metadata ? .metadataTime : isPoint(parent) ? .time : .none)
      case .type where parent == .track: kind = beginField(.trackType)
      case .ele where isPoint(parent): kind = beginField(.elevation)
      case .speed where isPoint(parent): kind = beginField(.speed)
      case .course where isPoint(parent): kind = beginField(.course)
      case .hdop where isPoint(parent): kind = beginField(.hdop)
      case .bounds where parent == .root || parent == .metadata: readBounds(attributes)
      case .trk:
        if parent == .root {
          kind = .track
          track = GPXTrack()
        } else {
          misplaced("trk", "<gpx>")
        }
      case .trkseg:
        if parent == .track {
          kind = .segment
          segmentPoints = []
        } else {
          misplaced("trkseg", "<trk>")
        }
      case .trkpt:
        if parent == .segment {
          kind = beginPoint(attributes, as: .trackPoint)
        } else {
          misplaced("trkpt", "<trkseg>")
        }
      case .rte:
        if parent == .root {
          kind = .route
          route = GPXRoute()
        } else {
          misplaced("rte", "<gpx>")
        }
      case .rtept:
        if parent == .route {
          kind = beginPoint(attributes, as: .routePoint)
        } else {
          misplaced("rtept", "<rte>")
        }
      case .wpt:
        if parent == .root {
          kind = beginPoint(attributes, as: .waypoint)
        } else {
          misplaced("wpt", "<gpx>")
        }
      default: break
      }
    } else if pointOpen {
      // Garmin's and Stash's extension elements count anywhere inside a point's extensions.
      if space == .trackPointExtension {
        if local == .speed {
          kind = beginField(.speed)
        } else if local == .course {
          kind = beginField(.course)
        }
      } else if space == .stash, local == .horizontalAccuracy {
        kind = beginField(.accuracy)
      }
    }
    stack[depth] = kind
    depth += 1
  }

  /// An element closed: pop what it was, and file the value, point, segment or track it ends.
  mutating func end() {
    // expat may still report the end of an empty element after the reader stopped it.
    guard !stopped, depth > 0 else { return }
    depth -= 1
    switch stack[depth] {
    case .field: finishField()
    case .trackPoint:
      segmentPoints.append(point)
      closePoint()
    case .routePoint:
      route.points.append(point)
      closePoint()
    case .waypoint:
      document.waypoints.append(point)
      closePoint()
    case .segment:
      track.segments.append(GPXSegment(points: segmentPoints))
      segmentPoints = []
    case .track:
      document.tracks.append(track)
      track = GPXTrack()
    case .route:
      document.routes.append(route)
      route = GPXRoute()
    case .root: rootClosed = true
    case .ignored, .metadata: break
    }
  }

  /// Keeps what a torn file held: the open segment, track and route with every point that
  /// closed. A point whose end tag never came is dropped (its fields may be cut).
  mutating func closeOpenParts() -> (droppedPoint: Bool, open: [Kind]) {
    let stack = stack
    let open = (0..<depth).map { stack[$0] }
    let dropped = pointOpen
    pointOpen = false
    if open.contains(.segment) { track.segments.append(GPXSegment(points: segmentPoints)) }
    if open.contains(.track) { document.tracks.append(track) }
    if open.contains(.route) { document.routes.append(route) }
    return (dropped, open)
  }

  private mutating func startRoot(
    _ space: GPXNamespace.Known, _ local: GPXElementNames.Local, _ attributes: GPXAttributes,
    rootName: String?
  ) {
    sawRoot = true
    guard local == .gpx, space == .gpx11 || space == .gpx10 || space == .none else {
      // Without a name (the scanner's call), the scanner gives the file to expat.
      let element = rootName.map { "<\($0)>" } ?? "another element"
      stop(.gpxNotGPX, "the document is XML but its root element is \(element), not GPX's <gpx>")
      return
    }
    let version = attributes.text("version")
    switch space {
    case .gpx10: document.version = "1.0"
    case .none:
      document.version = version == "1.0" ? "1.0" : "1.1"
      note(
        .gpxNoNamespace, .warning,
        "<gpx> has no xmlns: read as GPX \(document.version), but other tools may refuse it; "
          + "declare xmlns=\"\(document.version == "1.0" ? GPXNamespace.gpx10 : GPXNamespace.gpx11)\"")
    default: document.version = "1.1"
    }
    gpxNamespace = space
    document.creator = attributes.text("creator")
    stack[0] = .root
    depth = 1
  }

  private mutating func beginField(_ field: Field) -> Kind {
    guard field != .none, capture == .none else { return .ignored }
    capture = field
    text.count = 0
    textCut = false
    return .field
  }

  private func isPoint(_ kind: Kind) -> Bool {
    kind == .trackPoint || kind == .routePoint || kind == .waypoint
  }

  private func nameField(in parent: Kind) -> Field {
    switch parent {
    case .root, .metadata: .metadataName
    case .track: .trackName
    case .route: .routeName
    case .trackPoint, .routePoint, .waypoint: .pointName
    default: .none
    }
  }

  private func descriptionField(in parent: Kind) -> Field {
    switch parent {
    case .root, .metadata: .metadataDescription
    case .track: .trackDescription
    case .route: .routeDescription
    case .trackPoint, .routePoint, .waypoint: .pointDescription
    default: .none
    }
  }

  private mutating func misplaced(_ element: String, _ parent: String) {
    note(.gpxMisplacedElement, .warning, "<\(element)> outside \(parent) is not part of GPX: skipped")
  }

  private mutating func beginPoint(_ attributes: GPXAttributes, as kind: Kind) -> Kind {
    var latitude: Double?
    var longitude: Double?
    var sawLatitude = false
    var sawLongitude = false
    for attribute in attributes.list {
      let name = attribute.name
      guard name.count == 3, name[0] == UInt8(ascii: "l") else { continue }
      if name[1] == UInt8(ascii: "a"), name[2] == UInt8(ascii: "t") {
        sawLatitude = true
        latitude = DecimalText.parse(attribute.value)
      } else if name[1] == UInt8(ascii: "o"), name[2] == UInt8(ascii: "n") {
        sawLongitude = true
        longitude = DecimalText.parse(attribute.value)
      }
    }
    guard let latitude, let longitude else {
      let problem =
        !sawLatitude || !sawLongitude
        ? "has no \(!sawLatitude ? "lat" : "lon") attribute" : "has a lat or lon that is not a number"
      note(.gpxBadCoordinate, .error, "a point \(problem): it cannot be placed and is skipped")
      return .ignored
    }
    if !(-90...90).contains(latitude) || !(-180...180).contains(longitude) {
      note(
        .gpxCoordinateOutOfRange, .warning,
        "a point at lat \(latitude), lon \(longitude) is off the globe (lat -90...90, lon -180...180): kept as written"
      )
    }
    point = GPXPoint(reading: latitude, longitude)
    let (line, column) = place
    point.setLocation(line: UInt(line), column: UInt(column), offset: eventOffset)
    pointOpen = true
    return kind
  }

  private mutating func closePoint() {
    pointOpen = false
    pointsKept += 1
  }

  private mutating func readBounds(_ attributes: GPXAttributes) {
    let values = [
      attributes.value("minlat"), attributes.value("minlon"), attributes.value("maxlat"),
      attributes.value("maxlon"),
    ].map { $0.flatMap { DecimalText.parse($0) } }
    guard let minLatitude = values[0], let minLongitude = values[1], let maxLatitude = values[2],
      let maxLongitude = values[3]
    else {
      note(.gpxBadBounds, .warning, "<bounds> needs minlat, minlon, maxlat and maxlon as numbers: ignored")
      return
    }
    document.metadata.bounds = GPXBounds(
      minLatitude: minLatitude, minLongitude: minLongitude, maxLatitude: maxLatitude,
      maxLongitude: maxLongitude)
  }
}
