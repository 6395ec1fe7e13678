/// A parsed WebVTT file: header, regions, style sheets, cues and comments, Stash's own notes, and
/// every problem found on the way. Built by `WebVTTParser`, written back by `WebVTTWriter`.
public struct WebVTTDocument: Sendable {
  /// The text after `WEBVTT` and its separator on the first line, then any further header lines,
  /// each after a LF.
  public var headerText: String
  /// REGION blocks, in file order.
  public var regions: [WebVTTRegion]
  /// STYLE blocks' CSS text, in file order (not parsed: Stash draws no CSS).
  public var styles: [String]
  /// The cues, in file order.
  public var cues: [WebVTTCue] { didSet { lookup = WebVTTCueLookup() } }
  /// NOTE blocks other than Stash's own, with where they sit.
  public var notes: [WebVTTNote]
  /// Gaps the app knows the transcript is missing (`NOTE stash missing-speech <start> <end>`).
  public var missingSpeech: [WebVTTTimeSpan]
  /// The span a transcript part covers (`NOTE stash part <start> <end>`), for files in `.parts/`.
  public var partSpan: WebVTTTimeSpan?
  /// What the parser found wrong, in file order. Not part of equality: two documents are equal
  /// when they say the same thing.
  public var diagnostics: [Diagnostic]
  /// The 1-based line of each cue's timing line in the file it was parsed from (empty for
  /// documents built in code). Not part of equality.
  public var cueLines: [Int]

  /// Builds the time lookup on first use; replaced whenever `cues` changes.
  var lookup = WebVTTCueLookup()

  /// A document; everything but the cues is optional.
  public init(
    headerText: String = "", regions: [WebVTTRegion] = [], styles: [String] = [],
    cues: [WebVTTCue] = [], notes: [WebVTTNote] = [], missingSpeech: [WebVTTTimeSpan] = [],
    partSpan: WebVTTTimeSpan? = nil, diagnostics: [Diagnostic] = [], cueLines: [Int] = []
  ) {
    self.headerText = headerText
    self.regions = regions
    self.styles = styles
    self.cues = cues
    self.notes = notes
    self.missingSpeech = missingSpeech
    self.partSpan = partSpan
    self.diagnostics = diagnostics
    self.cueLines = cueLines
  }

  /// The region a cue refers to: the last region with that identifier, as the spec resolves it.
  public func region(of cue: WebVTTCue) -> WebVTTRegion? {
    guard let id = cue.region else { return nil }
    return regions.last { $0.id == id }
  }

  /// The cue being spoken at `time` (seconds), in O(log n): among the cues that have started and
  /// not yet ended (start ≤ time < end), the one that started last, the later in the file on a tie.
  /// Nil between cues.
  public func cueIndex(at time: Double) -> Int? {
    lookup.timeline(for: cues).cueIndex(at: time)
  }

  /// The cue and the word within it (an index into that cue's `words`) being spoken at `time`.
  public func wordPosition(at time: Double) -> (cue: Int, word: Int)? {
    guard let cue = cueIndex(at: time) else { return nil }
    let words = cues[cue].words
    guard let word = WebVTTWord.index(in: words, at: time) else { return nil }
    return (cue, word)
  }
}

extension WebVTTDocument: Equatable {
  /// Equal when header, regions, styles, cues, notes and Stash notes are; diagnostics and source
  /// lines are where the text came from, not what it says.
  public static func == (lhs: WebVTTDocument, rhs: WebVTTDocument) -> Bool {
    lhs.headerText == rhs.headerText && lhs.regions == rhs.regions && lhs.styles == rhs.styles
      && lhs.cues == rhs.cues && lhs.notes == rhs.notes && lhs.missingSpeech == rhs.missingSpeech
      && lhs.partSpan == rhs.partSpan
  }
}
