/// A Voice Memos transcript as a memo's WebVTT transcript (FORMAT.md, "A transcript from Apple's
/// Voice Memos"). Times are taken to the millisecond first, so what is compared is what is written.
///
/// - A cue is a sentence or a phrase: a new cue starts after a run whose text ends a sentence
///   (`.`, `?`, `!` and their full-width forms) or a pause Apple marked (`…`), before a run that
///   starts `pauseGap` or more after the previous run ended, and after `cueRunLimit` runs, but
///   only where the run's start is later than every time already in the cue.
/// - A cue starts at its first timed run's start; each later run whose start is later than the
///   last time written gets an inline timestamp `<hh:mm:ss.ttt>` before its text, so search and
///   the browser can go to the word. Runs without a time (or sharing a time) have none.
/// - A cue ends where its last run ends, at least a millisecond after its last time, and never
///   after the next cue starts.
/// - The cue's text is the runs' text as Apple wrote it, pause marks and disfluencies kept, with
///   the space at the cue's two ends left out.
extension VoiceMemoTranscript {
  /// A silence at least this long (seconds) between runs ends a phrase.
  public static let pauseGap = 1.0
  /// The most runs in one cue, so a long stretch without punctuation still reads in pieces.
  public static let cueRunLimit = 40

  /// The transcript as WebVTT cues. A transcript without any time becomes one cue spanning
  /// `audioLength` (1 s when unknown); none at all when it has no text.
  public func webVTTDocument(audioLength: Double? = nil) -> WebVTTDocument {
    func milliseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1000).rounded()) }
    struct Piece {
      var text: String
      var time: Int64?
      var end: Int64?
    }
    // Untimed runs before the first timed one join its cue.
    var cues: [[Piece]] = []
    var current: [Piece] = []
    var lastTime: Int64?
    var lastEnd: Int64?
    var breakBefore = false
    var currentTimed = false
    for run in runs {
      let time = run.start.map(milliseconds)
      if let time, let lastTime, currentTimed, time > lastTime {
        let paused = lastEnd.map { Double(time - $0) >= Self.pauseGap * 1000 } ?? false
        if breakBefore || paused || current.count >= Self.cueRunLimit {
          cues.append(current)
          current = []
          currentTimed = false
        }
      }
      current.append(Piece(text: run.text, time: time, end: run.end.map(milliseconds)))
      if let time {
        currentTimed = true
        lastTime = max(lastTime ?? time, time)
        lastEnd = run.end.map(milliseconds) ?? time
      }
      breakBefore = Self.endsPhrase(run.text)
    }
    if !current.isEmpty { cues.append(current) }

    var out: [WebVTTCue] = []
    out.reserveCapacity(cues.count)
    let starts = cues.map { $0.first { $0.time != nil }?.time }
    for (index, pieces) in cues.enumerated() {
      let start = starts[index] ?? 0
      var nodes: [WebVTTNode] = []
      var latest = start
      var end = start
      for (position, piece) in pieces.enumerated() {
        var text = piece.text
        if position == 0 { text = Self.trimmed(text, leading: true) }
        if position == pieces.count - 1 { text = Self.trimmed(text, leading: false) }
        if let time = piece.time, time > latest, !nodes.isEmpty {
          nodes.append(.timestamp(Double(time) / 1000))
          latest = time
        }
        if let pieceEnd = piece.end { end = max(end, pieceEnd) }
        if !text.isEmpty {
          if case .text(let before)? = nodes.last {
            nodes[nodes.count - 1] = .text(before + text)
          } else {
            nodes.append(.text(text))
          }
        }
      }
      guard !nodes.isEmpty else { continue }
      if starts.allSatisfy({ $0 == nil }) {
        end = milliseconds(audioLength.flatMap { $0 > 0 && $0 <= Self.latestTime ? $0 : nil } ?? 1)
      }
      end = max(end, latest + 1)
      if let next = starts.dropFirst(index + 1).lazy.compactMap({ $0 }).first { end = min(end, next) }
      out.append(WebVTTCue(startTime: Double(start) / 1000, endTime: Double(end) / 1000, nodes: nodes))
    }
    return WebVTTDocument(cues: out)
  }

  /// The transcript as a WebVTT file's bytes, written by `WebVTTWriter`.
  public func webVTT(audioLength: Double? = nil) -> [UInt8] {
    WebVTTWriter.bytes(webVTTDocument(audioLength: audioLength))
  }

  /// Whether a run's text ends a sentence or a marked pause (trailing space and quotes aside).
  static func endsPhrase(_ text: String) -> Bool {
    // By scalars from the end: a run is a word or two, and this runs once per run of a transcript
    // of thousands (Character's properties cost more than the rest of the conversion).
    for scalar in text.unicodeScalars.reversed() {
      switch scalar {
      case " ", "\t", "\n", "\r", "\"", "\u{201D}", ")": continue
      case ".", "?", "!", "…", "。", "？", "！": return true
      default:
        if scalar.value >= 0x80 && scalar.properties.isWhitespace { continue }
        return false
      }
    }
    return false
  }

  /// `text` without the white space at its start (`leading`) or its end.
  static func trimmed(_ text: String, leading: Bool) -> String {
    let scalars = text.unicodeScalars
    func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      scalar.value < 0x80
        ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }
    if leading {
      guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
      return first == scalars.startIndex ? text : String(scalars[first...])
    }
    guard let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
    let end = scalars.index(after: last)
    return end == scalars.endIndex ? text : String(scalars[..<end])
  }
}
