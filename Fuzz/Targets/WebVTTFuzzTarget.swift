/// Fuzzes the WebVTT parser: invariants of what it keeps, the cue lookup, and that writing what
/// was read and reading it again gives the same document.
enum WebVTTFuzzTarget {
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
    let document = WebVTTParser.parse(bytes)
    check(document, inputSize: bytes.count)
    // Cues the parser kept have a start no later than their end is not required of the parser
    // (it keeps what the spec keeps), but times are never negative or NaN.
    let written = WebVTTWriter.serialize(document)
    let again = WebVTTParser.parse(Array(written.utf8))
    check(again, inputSize: written.utf8.count)
    fuzzRequire(again == document, "parse(write(x)) != x\n--- written ---\n\(written)")
    // Writing is stable after one round.
    fuzzRequire(WebVTTWriter.serialize(again) == written, "write(parse(write(x))) != write(x)")
  }

  static func check(_ document: WebVTTDocument, inputSize: Int) {
    fuzzRequire(
      document.cueLines.count == document.cues.count,
      "cueLines \(document.cueLines.count) for \(document.cues.count) cues")
    for (index, cue) in document.cues.enumerated() {
      fuzzRequire(cue.startTime.isFinite && cue.startTime >= 0, "cue \(index) start \(cue.startTime)")
      fuzzRequire(cue.endTime.isFinite && cue.endTime >= 0, "cue \(index) end \(cue.endTime)")
      fuzzRequire(cue.size >= 0 && cue.size <= 100, "cue \(index) size \(cue.size)")
      if let position = cue.position {
        fuzzRequire(position >= 0 && position <= 100, "cue \(index) position \(position)")
      }
      fuzzRequire(!cue.id.contains("-->") && !cue.id.contains("\n"), "cue \(index) id \(cue.id)")
    }
    for (index, line) in document.cueLines.enumerated() {
      fuzzRequire(line >= 1, "cue \(index) on line \(line)")
      if index > 0 { fuzzRequire(line > document.cueLines[index - 1], "cue lines not ascending at \(index)") }
    }
    for diagnostic in document.diagnostics {
      if let offset = diagnostic.location.offset {
        fuzzRequire(offset >= 0 && offset <= inputSize, "diagnostic offset \(offset) of \(inputSize)")
      }
      if let line = diagnostic.location.line { fuzzRequire(line >= 1, "diagnostic line \(line)") }
      if let column = diagnostic.location.column { fuzzRequire(column >= 1, "diagnostic column \(column)") }
    }
    fuzzRequire(
      document.diagnostics.count <= WebVTTParser.diagnosticLimit + 1,
      "\(document.diagnostics.count) diagnostics")
    // The lookup finds a cue that covers the time it is asked about.
    for cue in document.cues.prefix(8) {
      let probe = cue.startTime
      if let found = document.cueIndex(at: probe) {
        let hit = document.cues[found]
        fuzzRequire(
          hit.startTime <= probe && probe < hit.endTime,
          "cueIndex(\(probe)) gave a cue \(hit.startTime)-\(hit.endTime)")
      } else {
        fuzzRequire(
          !(cue.startTime < cue.endTime), "no cue found at \(probe) inside \(cue.startTime)-\(cue.endTime)")
      }
      _ = document.wordPosition(at: probe)
    }
    _ = document.diagnostics.map(\.json)
  }
}
