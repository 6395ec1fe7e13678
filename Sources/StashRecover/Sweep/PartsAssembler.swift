import StashFormat

/// One part as read from disk: its number and its bytes.
public struct Part: Sendable, Equatable {
  /// The part's number (1 for `0001`).
  public var number: Int
  /// The file's bytes.
  public var bytes: [UInt8]

  /// A part numbered `number` holding `bytes`.
  public init(number: Int, bytes: [UInt8]) {
    self.number = number
    self.bytes = bytes
  }
}

/// A stretch of the recording that a finished file is missing: for a transcript in seconds from
/// the start of the recording; for a route in UTC seconds since 1970, from the last point before
/// the gap to the first after it (0 where a side has no time).
public struct Gap: Sendable, Equatable {
  /// Start, in seconds from the start of the recording.
  public var start: Double
  /// End, in seconds; equal to `start` when nothing tells how long the gap is.
  public var end: Double
  /// The parts missing or unreadable there, by number.
  public var parts: [Int]

  /// A gap from `start` to `end` seconds where `parts` are missing.
  public init(start: Double, end: Double, parts: [Int]) {
    self.start = start
    self.end = end
    self.parts = parts
  }
}

/// What assembling one kind of parts produced: the finished file's bytes and what a person should
/// know about it.
public struct Assembly: Sendable, Equatable {
  /// The finished file.
  public var bytes: [UInt8]
  /// True when the numbering ran from 1 without a hole and every part read cleanly: only then may
  /// the parts go once the file is published.
  public var unbroken: Bool
  /// Where the finished file is missing data (a transcript's `missing-speech` notes; a route's
  /// segment breaks).
  public var gaps: [Gap]
  /// Cues (transcript) or points (route) in the finished file.
  public var items: Int
  /// Track segments (route) or 1 (transcript).
  public var segments: Int
  /// Parts that were torn or could not be read, by number, with why, in plain words.
  public var damage: [(number: Int, reason: String)]
  /// Whether some words in the transcript were never confirmed by the speech engine.
  public var unconfirmedWords: Bool

  /// Makes an assembly.
  public init(
    bytes: [UInt8], unbroken: Bool, gaps: [Gap] = [], items: Int, segments: Int = 1,
    damage: [(number: Int, reason: String)] = [], unconfirmedWords: Bool = false
  ) {
    self.bytes = bytes
    self.unbroken = unbroken
    self.gaps = gaps
    self.items = items
    self.segments = segments
    self.damage = damage
    self.unconfirmedWords = unconfirmedWords
  }

  /// Equal when they say the same (damage compared by part number).
  public static func == (lhs: Assembly, rhs: Assembly) -> Bool {
    lhs.bytes == rhs.bytes && lhs.unbroken == rhs.unbroken && lhs.gaps == rhs.gaps && lhs.items == rhs.items
      && lhs.segments == rhs.segments && lhs.unconfirmedWords == rhs.unconfirmedWords
      && lhs.damage.map(\.number) == rhs.damage.map(\.number)
  }
}

/// The sweep's only contact with the WebVTT and GPX formats: turning parts into a finished file,
/// and telling whether a finished file already holds everything some parts hold.
public protocol PartsAssembler {
  /// Assembles `parts` (ascending by number, possibly with holes) of `kind`; never fails: what
  /// cannot be read is a gap.
  func assemble(_ kind: PartsKind, parts: [Part]) -> Assembly
  /// True when `finished` reads cleanly and marks no gap (a transcript's missing-speech notes; a
  /// route has no mark of its own, since a part may start a segment), every one of `parts` reads
  /// cleanly (none torn or unreadable), and `finished` holds every cue or point of them: the
  /// parts are then copies of what is already published (an earlier removal was cut short) and
  /// may go. The caller checks that they run from 0001.
  func finished(_ kind: PartsKind, _ finished: [UInt8], holdsAllOf parts: [Part]) -> Bool
  /// True when `finished` reads cleanly and holds every cue or point that assembling `parts` gives
  /// (torn and unreadable parts included, for what can be read of them): what `--accept-loss` asks
  /// before the parts go.
  func finished(_ kind: PartsKind, _ finished: [UInt8], holdsAllReadableOf parts: [Part]) -> Bool
  /// What `parts` lost, in the words the report, `show`, the browser and lint all give; `unread`
  /// names parts that could not be read as files at all (too large, not a file), with why.
  func loss(_ kind: PartsKind, parts: [Part], unread: [Int: String]) -> PartsLoss
}

extension PartsAssembler {
  /// An assembler that cannot tell never lets a loss be accepted.
  public func finished(_ kind: PartsKind, _ finished: [UInt8], holdsAllReadableOf parts: [Part]) -> Bool {
    false
  }

  /// The loss as the assembly's gaps and damage give it, for an assembler that does not read the
  /// formats' bytes itself: a damaged part outside every gap is taken to be a torn end.
  public func loss(_ kind: PartsKind, parts: [Part], unread: [Int: String]) -> PartsLoss {
    let assembly = assemble(kind, parts: parts)
    let present = Set(parts.map(\.number))
    var stretches = assembly.gaps.map { gap in
      let unreadable = gap.parts.filter { present.contains($0) || unread[$0] != nil }
      return PartsLoss.Stretch(
        cause: .gap(
          absent: gap.parts.filter { !unreadable.contains($0) }, unreadable: unreadable, tornBefore: nil),
        start: gap.start, end: gap.end)
    }
    for damage in assembly.damage where !assembly.gaps.contains(where: { $0.parts.contains(damage.number) }) {
      stretches.append(PartsLoss.Stretch(cause: .tornEnd(part: damage.number, insideItem: false), start: nil))
    }
    var reasons = unread
    for damage in assembly.damage where reasons[damage.number] == nil {
      reasons[damage.number] = damage.reason
    }
    return PartsLoss(kind: kind.finishedFile, stretches: stretches, reasons: reasons)
  }
}
