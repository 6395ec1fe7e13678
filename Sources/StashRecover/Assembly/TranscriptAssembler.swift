import StashFormat

/// Joins transcript parts into one WebVTT file. Cue times already count from the start of the
/// recording, so cues are kept as they are, raw text included (and with it the
/// `<c.unconfirmed>` marking). Each gap `PartsLoss` finds between readable parts (parts missing or
/// unreadable, or a torn part that is not the last) gets one `NOTE stash missing-speech <start>
/// <end>`, from where the speech before it ends (or is torn) to where the speech after it starts.
public enum TranscriptAssembler {
  /// One part read.
  struct Read {
    var number: Int
    var document: WebVTTDocument
    /// Why the part is damaged, or nil when it read cleanly.
    var damage: String?
    /// True when nothing in it could be used.
    var unreadable: Bool
  }

  /// Reads one part: unreadable when it has no `WEBVTT` signature (or is empty); damaged (torn)
  /// when the parser found an error or the file does not end with a line break, which every
  /// finished write of a part does.
  static func read(_ part: Part) -> Read {
    let document = WebVTTParser.parse(part.bytes)
    if part.bytes.isEmpty || document.diagnostics.contains(where: { $0.code == .vttNoSignature }) {
      return Read(number: part.number, document: document, damage: "not a WebVTT file", unreadable: true)
    }
    var damage: String?
    if let error = document.diagnostics.first(where: { $0.severity == .error }) {
      damage = "damaged at line \(error.location.line ?? 0): \(error.message)"
    } else if let last = part.bytes.last, last != 0x0A && last != 0x0D {
      damage = "torn: it ends in the middle of a line"
    }
    return Read(number: part.number, document: document, damage: damage, unreadable: false)
  }

  /// Assembles `parts` (ascending by number).
  public static func assemble(_ parts: [Part]) -> Assembly {
    let reads = parts.map(read)
    var cues: [WebVTTCue] = []
    var notes: [WebVTTNote] = []
    var regions: [WebVTTRegion] = []
    var styles: [String] = []
    var seenIDs = Set<String>()

    for read in reads where !read.unreadable {
      for region in read.document.regions where !regions.contains(region) { regions.append(region) }
      for style in read.document.styles where !styles.contains(style) { styles.append(style) }
      for note in read.document.notes {
        notes.append(WebVTTNote(text: note.text, cuesBefore: cues.count + note.cuesBefore))
      }
      for (index, var cue) in read.document.cues.enumerated() {
        // Identifiers must be unique in a file; parts number their cues afresh.
        if !cue.id.isEmpty {
          if seenIDs.contains(cue.id) { cue.id += "-" + PartName.transcript(read.number).fileName }
          seenIDs.insert(cue.id)
        }
        if read.damage != nil && index == read.document.cues.count - 1 {
          // The torn cue: rewriting it from its nodes closes the spans the tear left open.
          cue.nodes = cue.nodes
        }
        cues.append(cue)
      }
    }
    // The gaps are the loss's (PartsLoss), so the notes written here and what the report, `show`
    // and lint say of the parts agree: a torn part that is not the last loses from its tear.
    let gaps = PartsLoss.read(.transcript, parts: parts.map { (number: $0.number, bytes: $0.bytes) }).gaps.map
    {
      Gap(start: $0.start, end: $0.end, parts: $0.parts)
    }
    let document = WebVTTDocument(
      regions: regions, styles: styles, cues: cues, notes: notes,
      missingSpeech: gaps.map { WebVTTTimeSpan(start: $0.start, end: $0.end) })
    let damage = reads.compactMap { read in read.damage.map { (number: read.number, reason: $0) } }
    let runsFromOne = parts.map(\.number) == Array(1...max(1, parts.count)) && !parts.isEmpty
    return Assembly(
      bytes: WebVTTWriter.bytes(document), unbroken: runsFromOne && damage.isEmpty,
      gaps: gaps, items: cues.count, damage: damage,
      unconfirmedWords: cues.contains { marksUnconfirmed($0.text) })
  }

  private static let unconfirmedTag = Array("<c.unconfirmed".utf8)

  /// Whether a cue's raw text opens an unconfirmed span. A byte search: a sweep asks it of every
  /// cue, and `String.contains`, which compares characters, was 3 % of a sweep's instructions.
  static func marksUnconfirmed(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      let tag = unconfirmedTag
      guard bytes.count >= tag.count else { return false }
      for start in 0...(bytes.count - tag.count) where bytes[start] == tag[0] {
        if (1..<tag.count).allSatisfy({ bytes[start + $0] == tag[$0] }) { return true }
      }
      return false
    }
  }

  /// True when `finished` reads cleanly and notes no missing speech, and every part reads cleanly
  /// with every cue of it in `finished`.
  public static func finished(_ finished: [UInt8], holdsAllOf parts: [Part]) -> Bool {
    let document = WebVTTParser.parse(finished)
    guard document.missingSpeech.isEmpty, !document.diagnostics.contains(where: { $0.severity == .error })
    else { return false }
    struct Key: Hashable {
      var start: Double
      var end: Double
      var text: String
    }
    let held = Set(document.cues.map { Key(start: $0.startTime, end: $0.endTime, text: $0.text) })
    return parts.allSatisfy { part in
      let read = read(part)
      return read.damage == nil
        && read.document.cues.allSatisfy {
          held.contains(Key(start: $0.startTime, end: $0.endTime, text: $0.text))
        }
    }
  }

  /// True when `finished` reads without an error and holds every cue (times and raw text) that
  /// assembling `parts` gives, the torn ones' salvage included.
  public static func finished(_ finished: [UInt8], holdsAllReadableOf parts: [Part]) -> Bool {
    let document = WebVTTParser.parse(finished)
    guard !document.diagnostics.contains(where: { $0.severity == .error }) else { return false }
    func key(_ cue: WebVTTCue) -> String { "\(cue.startTime)\u{0}\(cue.endTime)\u{0}\(cue.text)" }
    let held = Set(document.cues.map(key))
    return WebVTTParser.parse(assemble(parts).bytes).cues.allSatisfy { held.contains(key($0)) }
  }
}
