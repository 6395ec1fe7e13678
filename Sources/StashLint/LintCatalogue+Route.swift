import StashFormat

extension LintCatalogue {
  /// Every GPX reader code, with the severities docs/inspect-route.md gives.
  package static let route: [LintRule] = routeTable.map {
    LintRule(code: $0.0, severity: $0.1, summary: $0.2, reason: $0.3, fix: $0.4)
  }

  // swift-format-ignore
  /// Code, severity, summary, reason and fix of each GPX rule.
  private static let routeTable: [(FormatError.Code, Severity, String, String, String)] = [
    (.gpxEmpty, .error, "an empty route file", "There is no route in it.", "Remove the file, or restore the route."),
    (.gpxNotXML, .error, "a route file that is not XML", "Nothing in it can be read.", "Replace it with the real GPX file."),
    (.gpxNotGPX, .error, "XML whose root is not `<gpx>`", "It is not a route.", "Replace it with the real GPX file."),
    (.gpxTruncated, .error, "a route file that stops before `</gpx>`", "A writer killed mid-write; every point that closed is kept, the rest is lost.", "Run `stash recover` if parts remain; otherwise close the file (`</trkseg></trk></gpx>`) after the last whole point."),
    (.gpxMalformed, .error, "XML that breaks mid-file", "What came before is kept; the rest is lost.", "Fix the XML at the position given."),
    (.gpxEntityRefused, .error, "runaway entity expansion", "An entity bomb; reading stops there.", "Remove the DOCTYPE and its entities."),
    (.gpxTooDeep, .error, "elements nested more than 1,024 deep", "Reading stops there.", "Replace the file with a clean one."),
    (.gpxBadCoordinate, .error, "a point without a numeric `lat` or `lon`", "The point is skipped.", "Give the point numeric `lat` and `lon`, or remove it."),
    (.gpxExternalEntity, .warning, "an external entity declaration", "It is never read (a hostile file could point anywhere).", "Remove the DOCTYPE."),
    (.gpxNoNamespace, .warning, "`<gpx>` with no namespace", "Read as GPX anyway, but it is not valid GPX 1.1.", "Add `xmlns=\"http://www.topografix.com/GPX/1/1\"`."),
    (.gpxCoordinateOutOfRange, .warning, "a latitude beyond ±90 or longitude beyond ±180", "No place on Earth; kept as written but wrong on a map.", "Correct the coordinates or remove the point."),
    (.gpxBadNumber, .warning, "a number field that is not a number", "The field reads as absent.", "Write a decimal number."),
    (.gpxBadTime, .warning, "a `<time>` that is not an xsd:dateTime", "The point has no time.", "Write `YYYY-MM-DDThh:mm:ssZ`."),
    (.gpxTimeWithoutZone, .warning, "a `<time>` with no zone", "It names no instant; it is read as if UTC.", "Write times in UTC with `Z`."),
    (.gpxMisplacedElement, .warning, "a point, segment or track outside its parent", "It is skipped.", "Move it into its parent element."),
    (.gpxBadBounds, .warning, "`<bounds>` without four numbers", "Ignored.", "Fix or remove `<bounds>`."),
    (.gpxTextTooLong, .warning, "a text field over 64 KiB", "It is cut there.", "Shorten the text."),
    (.gpxTrailingData, .warning, "bytes after `</gpx>`", "Ignored; often a second write appended to the file.", "Remove what follows `</gpx>`."),
    (.gpxInvalidSpeed, .info, "a negative speed", "Phones write -1 for no speed; a writer should leave it out.", "Leave unknown speeds out."),
    (.gpxInvalidCourse, .info, "a course outside 0–360", "Phones write -1 for no course; invalid against the schema.", "Leave unknown courses out."),
    (.gpxInvalidAccuracy, .info, "a negative accuracy", "It marks an invalid fix.", "Leave the accuracy out, or drop the invalid fix."),
  ]
}
