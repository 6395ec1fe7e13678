extension PartsFolder {
  /// The parts folder in `stash ls --json`.
  package var json: JSONValue {
    .object([
      ("name", .string(name)),
      ("transcriptParts", .int(transcriptParts.count)),
      ("routeParts", .int(routeParts.count)),
      ("routeWithdrawn", .bool(routeWithdrawn)),
      ("strangers", .array(strangers.map(JSONValue.string))),
      ("unreadable", .optional(unreadable)),
    ])
  }
}
