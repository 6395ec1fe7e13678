extension Inspection {
  /// The inspection JSON of a route file.
  static func route(at path: String) throws(FormatError) -> JSONValue {
    throw FormatError(code: "unsupported", message: "this build cannot inspect route files yet", path: path)
  }
}
