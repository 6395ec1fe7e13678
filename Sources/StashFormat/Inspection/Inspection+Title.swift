extension Inspection {
  /// The inspection JSON of a title file.
  static func title(at path: String) throws(FormatError) -> JSONValue {
    throw FormatError(code: "unsupported", message: "this build cannot inspect title files yet", path: path)
  }
}
