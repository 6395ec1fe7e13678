extension Inspection {
  /// The inspection JSON of a audio file.
  static func audio(at path: String) throws(FormatError) -> JSONValue {
    throw FormatError(code: "unsupported", message: "this build cannot inspect audio files yet", path: path)
  }
}
