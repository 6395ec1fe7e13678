extension Inspection {
  /// The inspection JSON of a title file: the trimmed text, the one line it is shown as, and what is wrong with it.
  static func title(at path: String) throws(FormatError) -> JSONValue {
    // A file that cannot be opened at all is an error of the command, not a finding about a title.
    let title = try Title.read(ReadOnlyFile(path: path))
    return .object([
      ("kind", .string("title")),
      ("text", .optional(title.text)),
      ("displayText", .optional(title.displayText)),
      ("byteCount", .optional(title.byteCount)),
      ("diagnostics", .array(title.problems.map(\.json))),
    ])
  }
}
