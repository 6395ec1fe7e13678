extension Inspection {
  /// The inspection JSON of a transcript file: `{"kind":"webvtt","cues":[…],"regions":[…],
  /// "diagnostics":[…]}` plus Stash's notes, as documented in docs/inspect-transcript.md.
  static func transcript(at path: String) throws(FormatError) -> JSONValue {
    let bytes = try ReadOnlyFile.contents(of: path)
    return transcriptJSON(WebVTTParser.parse(bytes))
  }

  /// The inspection JSON of a parsed transcript.
  package static func transcriptJSON(_ document: WebVTTDocument) -> JSONValue {
    .object([
      ("kind", .string("webvtt")),
      ("headerText", .string(document.headerText)),
      ("cues", .array(document.cues.map { cueJSON($0, in: document) })),
      ("regions", .array(document.regions.map(regionJSON))),
      ("styles", .array(document.styles.map(JSONValue.string))),
      (
        "notes",
        .array(
          document.notes.map { .object([("text", .string($0.text)), ("cuesBefore", .int($0.cuesBefore))]) })
      ),
      ("missingSpeech", .array(document.missingSpeech.map(spanJSON))),
      ("part", document.partSpan.map(spanJSON) ?? .null),
      ("diagnostics", .array(document.diagnostics.map(\.json))),
    ])
  }

  /// A cue with the `VTTCue` attribute names; `line` and `position` are "auto" or a number.
  static func cueJSON(_ cue: WebVTTCue, in document: WebVTTDocument) -> JSONValue {
    .object([
      ("id", .string(cue.id)),
      ("startTime", .seconds(cue.startTime)),
      ("endTime", .seconds(cue.endTime)),
      ("pauseOnExit", .bool(false)),
      ("vertical", .string(cue.vertical.rawValue)),
      ("snapToLines", .bool(cue.snapToLines)),
      ("line", cue.line.map(JSONValue.double) ?? .string("auto")),
      ("lineAlign", .string(cue.lineAlign.rawValue)),
      ("position", cue.position.map(JSONValue.double) ?? .string("auto")),
      ("positionAlign", .string(cue.positionAlign.rawValue)),
      ("size", .double(cue.size)),
      ("align", .string(cue.align.rawValue)),
      ("region", document.region(of: cue).map(regionJSON) ?? .null),
      ("text", .string(cue.text)),
    ])
  }

  /// A region with the `VTTRegion` attribute names.
  static func regionJSON(_ region: WebVTTRegion) -> JSONValue {
    .object([
      ("id", .string(region.id)),
      ("width", .double(region.width)),
      ("lines", region.linesBeyondInt.flatMap(Double.init).map(JSONValue.double) ?? .int(region.lines)),
      ("regionAnchorX", .double(region.regionAnchorX)),
      ("regionAnchorY", .double(region.regionAnchorY)),
      ("viewportAnchorX", .double(region.viewportAnchorX)),
      ("viewportAnchorY", .double(region.viewportAnchorY)),
      ("scroll", .string(region.scroll.rawValue)),
    ])
  }

  static func spanJSON(_ span: WebVTTTimeSpan) -> JSONValue {
    .object([("start", .seconds(span.start)), ("end", .seconds(span.end))])
  }
}
