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
    var out = ""
    out.reserveCapacity(512 + document.pointCount * 300)
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<gpx version=\"1.1\" creator=\""
    out += escaped(document.creator ?? defaultCreator, attribute: true)
    out += "\" xmlns=\"\(GPXNamespace.gpx11)\" xmlns:gpxtpx=\"\(GPXNamespace.trackPointExtensionV2)\""
    out += " xmlns:stash=\"\(GPXNamespace.stash)\">\n"
    writeMetadata(document.metadata, to: &out)
    for waypoint in document.waypoints { writePoint(waypoint, element: "wpt", indent: "  ", to: &out) }
    for route in document.routes {
      out += "  <rte>\n"
      writeText("name", route.name, indent: "    ", to: &out)
      writeText("desc", route.description, indent: "    ", to: &out)
      for point in route.points { writePoint(point, element: "rtept", indent: "    ", to: &out) }
      out += "  </rte>\n"
    }
    for track in document.tracks {
      out += "  <trk>\n"
      writeText("name", track.name, indent: "    ", to: &out)
      writeText("desc", track.description, indent: "    ", to: &out)
      writeText("type", track.type, indent: "    ", to: &out)
      for segment in track.segments {
        out += "    <trkseg>\n"
        for point in segment.points { writePoint(point, element: "trkpt", indent: "      ", to: &out) }
        out += "    </trkseg>\n"
      }
      out += "  </trk>\n"
    }
    out += "</gpx>\n"
    return out
  }

  private static func writeMetadata(_ metadata: GPXMetadata, to out: inout String) {
    guard !metadata.isEmpty else { return }
    out += "  <metadata>\n"
    writeText("name", metadata.name, indent: "    ", to: &out)
    writeText("desc", metadata.description, indent: "    ", to: &out)
    if let time = metadata.time, time.isFinite {
      out += "    <time>\(ISO8601Time.format(time, zone: metadata.timeHadZone != false))</time>\n"
    }
    if let bounds = metadata.bounds {
      out += "    <bounds minlat=\"\(DecimalText.format(bounds.minLatitude))\""
      out += " minlon=\"\(DecimalText.format(longitude(bounds.minLongitude)))\""
      out += " maxlat=\"\(DecimalText.format(bounds.maxLatitude))\""
      out += " maxlon=\"\(DecimalText.format(longitude(bounds.maxLongitude)))\"/>\n"
    }
    out += "  </metadata>\n"
  }

  private static func writePoint(_ point: GPXPoint, element: String, indent: String, to out: inout String) {
    out += indent + "<" + element + " lat=\"" + DecimalText.format(point.latitude) + "\" lon=\""
    out += DecimalText.format(longitude(point.longitude)) + "\""
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
    let inner = indent + "  "
    writeNumber("ele", point.elevation, indent: inner, to: &out)
    if let time = point.time, time.isFinite {
      out += inner + "<time>" + ISO8601Time.format(time, zone: point.timeHadZone != false) + "</time>\n"
    }
    writeText("name", point.name, indent: inner, to: &out)
    writeText("desc", point.description, indent: inner, to: &out)
    writeNumber("hdop", hdop, indent: inner, to: &out)
    if speed != nil || course != nil || accuracy != nil {
      out += inner + "<extensions>\n"
      let deeper = inner + "  "
      if speed != nil || course != nil {
        out += deeper + "<gpxtpx:TrackPointExtension>\n"
        writeNumber("gpxtpx:speed", speed, indent: deeper + "  ", to: &out)
        writeNumber("gpxtpx:course", course, indent: deeper + "  ", to: &out)
        out += deeper + "</gpxtpx:TrackPointExtension>\n"
      }
      writeNumber("stash:horizontalAccuracy", accuracy, indent: deeper, to: &out)
      out += inner + "</extensions>\n"
    }
    out += indent + "</" + element + ">\n"
  }

  private static func writeNumber(_ element: String, _ value: Double?, indent: String, to out: inout String) {
    guard let value, value.isFinite else { return }
    out += indent + "<" + element + ">" + DecimalText.format(value) + "</" + element + ">\n"
  }

  private static func writeText(_ element: String, _ value: String?, indent: String, to out: inout String) {
    guard let value else { return }
    out += indent + "<" + element + ">" + escaped(value, attribute: false) + "</" + element + ">\n"
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
