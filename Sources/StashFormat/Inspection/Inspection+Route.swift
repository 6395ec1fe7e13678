extension Inspection {
  /// The inspection JSON of a route file: `GPXDocument.json` (see docs/inspect-route.md). A
  /// damaged file still gives its JSON, with what could be read and diagnostics saying why.
  static func route(at path: String) throws(FormatError) -> JSONValue {
    try GPXReader.read(path: path).json
  }
}
