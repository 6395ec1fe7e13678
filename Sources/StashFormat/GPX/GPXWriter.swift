/// Writes GPX 1.1 that validates against the GPX 1.1 and Garmin TrackPointExtension v2 schemas:
/// elements in schema order, speed and course in `gpxtpx:TrackPointExtension`, accuracy as
/// `stash:horizontalAccuracy`.
public enum GPXWriter {
  /// `creator` written when the document has none (the schema requires one).
  public static let defaultCreator = "stash"

  /// The document as GPX 1.1 text. Values the schema forbids are left out rather than written:
  /// a negative speed, a course outside 0...360, a negative accuracy, NaN or infinity. Longitude
  /// 180 is written as -180 (the same meridian; the schema excludes 180). A time read without a
  /// zone is written without one. Diagnostics are not written.
  public static func serialize(_ document: GPXDocument) -> String {
    String(decoding: bytes(document), as: UTF8.self)
  }

  /// The document as GPX 1.1 bytes (UTF-8): what `serialize` returns, built without going
  /// through `String`.
  public static func bytes(_ document: GPXDocument) -> [UInt8] {
    var out = Output(capacity: 512 + document.pointCount * 300)
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<gpx version=\"1.1\" creator=\""
    out.escaped(document.creator ?? defaultCreator, attribute: true)
    out.append("\" xmlns=\"\(GPXNamespace.gpx11)\" xmlns:gpxtpx=\"\(GPXNamespace.trackPointExtensionV2)\"")
    out.append(" xmlns:stash=\"\(GPXNamespace.stash)\">\n")
    writeMetadata(document.metadata, to: &out)
    for waypoint in document.waypoints { writePoint(waypoint, element: "wpt", depth: 1, to: &out) }
    for route in document.routes {
      out += "  <rte>\n"
      writeText("name", route.name, depth: 2, to: &out)
      writeText("desc", route.description, depth: 2, to: &out)
      for point in route.points { writePoint(point, element: "rtept", depth: 2, to: &out) }
      out += "  </rte>\n"
    }
    for track in document.tracks {
      out += "  <trk>\n"
      writeText("name", track.name, depth: 2, to: &out)
      writeText("desc", track.description, depth: 2, to: &out)
      writeText("type", track.type, depth: 2, to: &out)
      for segment in track.segments {
        out += "    <trkseg>\n"
        for point in segment.points { writePoint(point, element: "trkpt", depth: 3, to: &out) }
        out += "    </trkseg>\n"
      }
      out += "  </trk>\n"
    }
    out += "</gpx>\n"
    return out.bytes
  }

  private static func writeMetadata(_ metadata: GPXMetadata, to out: inout Output) {
    guard !metadata.isEmpty else { return }
    out += "  <metadata>\n"
    writeText("name", metadata.name, depth: 2, to: &out)
    writeText("desc", metadata.description, depth: 2, to: &out)
    if let time = metadata.time, time.isFinite {
      out += "    <time>"
      out.time(time, zone: metadata.timeHadZone != false)
      out += "</time>\n"
    }
    if let bounds = metadata.bounds {
      out += "    <bounds minlat=\""
      out.decimal(bounds.minLatitude)
      out += "\" minlon=\""
      out.decimal(longitude(bounds.minLongitude))
      out += "\" maxlat=\""
      out.decimal(bounds.maxLatitude)
      out += "\" maxlon=\""
      out.decimal(longitude(bounds.maxLongitude))
      out += "\"/>\n"
    }
    out += "  </metadata>\n"
  }

  private static func writePoint(_ point: GPXPoint, element: StaticString, depth: Int, to out: inout Output) {
    out.indent(depth)
    out += "<"
    out += element
    out += " lat=\""
    out.decimal(point.latitude)
    out += "\" lon=\""
    out.decimal(longitude(point.longitude))
    out += "\""
    let speed = point.speed.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
    let course = point.course.flatMap { (0...360).contains($0) ? $0 : nil }
    let accuracy = point.horizontalAccuracy.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
    let hdop = point.hdop.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
    let hasTime = point.time?.isFinite ?? false
    let hasElevation = point.elevation?.isFinite ?? false
    guard
      hasElevation || hasTime || point.name != nil || point.description != nil || hdop != nil
        || speed != nil || course != nil || accuracy != nil
    else {
      out += "/>\n"
      return
    }
    out += ">\n"
    writeNumber("ele", point.elevation, depth: depth + 1, to: &out)
    if let time = point.time, time.isFinite {
      out.indent(depth + 1)
      out += "<time>"
      out.time(time, zone: point.timeHadZone != false)
      out += "</time>\n"
    }
    writeText("name", point.name, depth: depth + 1, to: &out)
    writeText("desc", point.description, depth: depth + 1, to: &out)
    writeNumber("hdop", hdop, depth: depth + 1, to: &out)
    if speed != nil || course != nil || accuracy != nil {
      out.indent(depth + 1)
      out += "<extensions>\n"
      if speed != nil || course != nil {
        out.indent(depth + 2)
        out += "<gpxtpx:TrackPointExtension>\n"
        writeNumber("gpxtpx:speed", speed, depth: depth + 3, to: &out)
        writeNumber("gpxtpx:course", course, depth: depth + 3, to: &out)
        out.indent(depth + 2)
        out += "</gpxtpx:TrackPointExtension>\n"
      }
      writeNumber("stash:horizontalAccuracy", accuracy, depth: depth + 2, to: &out)
      out.indent(depth + 1)
      out += "</extensions>\n"
    }
    out.indent(depth)
    out += "</"
    out += element
    out += ">\n"
  }

  private static func writeNumber(_ element: StaticString, _ value: Double?, depth: Int, to out: inout Output)
  {
    guard let value, value.isFinite else { return }
    out.indent(depth)
    out += "<"
    out += element
    out += ">"
    out.decimal(value)
    out += "</"
    out += element
    out += ">\n"
  }

  private static func writeText(_ element: StaticString, _ value: String?, depth: Int, to out: inout Output) {
    guard let value else { return }
    out.indent(depth)
    out += "<"
    out += element
    out += ">"
    out.escaped(value, attribute: false)
    out += "</"
    out += element
    out += ">\n"
  }

  /// The schema's longitude excludes 180; -180 is the same meridian.
  private static func longitude(_ value: Double) -> Double { value == 180 ? -180 : value }

  /// `text` as XML character data: markup escaped, characters XML 1.0 forbids replaced by U+FFFD,
  /// and a carriage return (and, in attributes, tab and newline) written as a reference so a
  /// reader's line-end normalisation gives the same text back.
  static func escaped(_ text: String, attribute: Bool) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"" where attribute: out += "&quot;"
      case "\r": out += "&#13;"
      case "\n" where attribute: out += "&#10;"
      case "\t" where attribute: out += "&#9;"
      case "\t", "\n": out.unicodeScalars.append(scalar)
      default:
        let value = scalar.value
        if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
          out += "\u{FFFD}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}
