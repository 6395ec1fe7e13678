/// `stash inspect`: one file parsed into JSON, the reader chosen by the file's suffix.
package enum Inspection {
  /// The inspection JSON of the file at `path`; the reader is chosen by suffix.
  package static func json(forFileAt path: String) throws(FormatError) -> JSONValue {
    let lower = path.lowercased()
    if lower.hasSuffix(".m4a") || lower.hasSuffix(".mp4") || lower.hasSuffix(".qta") {
      return try audio(at: path)
    }
    if lower.hasSuffix(".vtt") { return try transcript(at: path) }
    if lower.hasSuffix(".gpx") { return try route(at: path) }
    if lower.hasSuffix(".txt") { return try title(at: path) }
    throw FormatError(
      code: .unknownKind,
      message:
        "stash inspect reads .m4a, .mp4 and .qta (audio), .vtt, .gpx and .txt (title) files; this suffix is none of them",
      path: path)
  }
}
