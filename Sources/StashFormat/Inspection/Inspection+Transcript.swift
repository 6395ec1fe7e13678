extension Inspection {
  /// The inspection JSON of a transcript file.
  static func transcript(at path: String) throws(FormatError) -> JSONValue {
    throw FormatError(
      code: "unsupported", message: "this build cannot inspect transcript files yet", path: path)
  }
}
