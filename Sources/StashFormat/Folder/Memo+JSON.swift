extension Memo {
  /// The memo as one element of `stash ls --json` (schema in README.md, "stash ls --json").
  package var json: JSONValue { json(problems: nil) }

  /// `json`, with `problems` (each in the shape README gives) in place of the reader's own when
  /// given: the listing and `show` give the memo's one account of its problems (StashLint's).
  package func json(problems: [JSONValue]?) -> JSONValue {
    var tree = JSONTree()
    describe(to: &tree, problems: problems)
    return tree.value
  }

  /// The memo as `json` describes it, written to `writer`: a listing writes it straight into its
  /// output bytes, with no tree and no String per field. (Not generic, so that the description
  /// is compiled for the writer here, not called through a protocol from another module.)
  package func writeJSON(to writer: inout JSONWriter, problems: [JSONValue]? = nil) {
    describe(to: &writer, problems: problems)
  }

  /// The one description of the memo's JSON, for both outputs.
  private func describe(to out: inout some JSONOutput, problems given: [JSONValue]?) {
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
    out.beginObject()
    out.key("base")
    out.string(base)
    out.key("kind")
    out.string(hasAudio ? "memo" : "capture")
    out.key("displayName")
    out.string(displayName)
    out.key("title")
    out.string(title?.text)
    out.key("recordedAt")
    out.recordingDate(recordedAt, local: false)
    out.key("recordedAtLocal")
    out.recordingDate(recordedAt, local: true)
    out.key("dateSource")
    out.string(dateSource.rawValue)
    out.key("durationSeconds")
    out.seconds(durationSeconds)
    out.key("files")
    out.beginObject()
    // Kinds compare in their declared order, so this is the order of the sorted keys.
    for kind in MemoFileKind.allCases {
      guard let name = files[kind] else { continue }
      out.key(kind.key)
      out.string(name)
    }
    out.endObject()
    out.key("audioState")
    out.string(audioState)
    out.key("tailBytes")
    out.int(tailBytes)
    out.key("audioReason")
    out.string(audioReason)
    out.key("fragmented")
    out.bool(audio?.fragmented)
    out.key("hasTranscript")
    out.bool(hasTranscript)
    out.key("hasRoute")
    out.bool(hasRoute)
    out.key("bookmarks")
    out.int(bookmarkCount)
    out.key("parts")
    if let parts { parts.writeJSON(to: &out) } else { out.null() }
    out.key("needsRecovery")
    out.bool(needsRecovery)
    out.key("recover")
    out.strings(partsToAssemble.lazy.map(\.key))
    out.key("problems")
    out.beginArray()
    if let given {
      for problem in given { out.value(problem) }
    } else {
      for problem in problems { out.value(problem.json) }
    }
    out.endArray()
    out.endObject()
  }
}
