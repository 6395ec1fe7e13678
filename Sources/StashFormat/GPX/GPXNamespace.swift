/// The XML namespaces a GPX reader matches elements by (never by prefix).
package enum GPXNamespace {
  /// GPX 1.1, what Stash writes.
  package static let gpx11 = "http://www.topografix.com/GPX/1/1"
  /// GPX 1.0, where speed and course are plain point elements.
  package static let gpx10 = "http://www.topografix.com/GPX/1/0"
  /// Garmin TrackPointExtension v2: `speed` (m/s) and `course` (degrees).
  package static let trackPointExtensionV2 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
  /// Garmin TrackPointExtension v1, which some exporters still write speed and course under.
  package static let trackPointExtensionV1 = "http://www.garmin.com/xmlschemas/TrackPointExtension/v1"
  /// Stash's own namespace: `horizontalAccuracy` (metres) in a point's `<extensions>`.
  package static let stash = "urn:stash:gpx:1"

  /// The namespace an element is in, as the reader classifies it.
  enum Known: UInt8 {
    case none, gpx11, gpx10, trackPointExtension, stash, other
  }
}
