extension Memo {
  /// The memo as one element of `stash ls --json` (schema in README.md, "stash ls --json").
  package var json: JSONValue {
    var audioState = "missing"
    var tailBytes: Int?
    var audioReason: String?
    switch audio?.state {
    case .ok?: audioState = "ok"
    case .cutShort(let tail)?:
      audioState = "cutShort"
      tailBytes = tail
    case .damaged(let reason)?:
      audioState = "damaged"
      audioReason = reason
    case .lengthUnreadable(let reason)?:
      audioState = "lengthUnreadable"
      audioReason = reason
    case nil: break
    }
    let fileMembers = files.sorted { $0.key < $1.key }.map { ($0.key.key, JSONValue.string($0.value)) }
    return .object([
      ("base", .string(base)),
      ("kind", .string(hasAudio ? "memo" : "capture")),
      ("displayName", .string(displayName)),
      ("title", .optional(title?.text)),
      ("recordedAt", .string(RecordingDate.isoUTC(recordedAt))),
      ("recordedAtLocal", .string(RecordingDate.isoLocal(recordedAt))),
      ("dateSource", .string(dateSource.rawValue)),
      ("durationSeconds", .seconds(durationSeconds)),
      ("files", .object(fileMembers)),
      ("audioState", .string(audioState)),
      ("tailBytes", .optional(tailBytes)),
      ("audioReason", .optional(audioReason)),
      ("fragmented", audio.map { .bool($0.fragmented) } ?? .null),
      ("hasTranscript", .bool(hasTranscript)),
      ("hasRoute", .bool(hasRoute)),
      ("parts", parts.map(\.json) ?? .null),
      ("needsRecovery", .bool(needsRecovery)),
      ("recover", .array(partsToAssemble.map { .string($0.key) })),
      ("problems", .array(problems.map(\.json))),
    ])
  }
}
