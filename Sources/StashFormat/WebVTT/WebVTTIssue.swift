/// A problem found while parsing, before it is given a line and column.
struct WebVTTIssue {
  var code: FormatError.Code
  /// Byte offset in the parsed text.
  var offset: Int
  var message: String
}
