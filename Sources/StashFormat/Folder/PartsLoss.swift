#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What a killed recording's parts of one kind lost, read from their bytes (FORMAT.md §6.6): the
/// one description of it that recovery's report, `show`, the browser's detail pane and lint all
/// give, so that they cannot disagree. A gap is only where a part did not land (its number is
/// missing) or cannot be read, or after a torn part that is not the last; a last part that ends
/// torn loses what came after its tear, which nothing bounds.
public struct PartsLoss: Sendable, Equatable {
  /// Why a stretch is lost.
  public enum Cause: Sendable, Equatable {
    /// Between two readable parts: parts that never landed (`absent`) or cannot be read
    /// (`unreadable`), and a torn part before them (`tornBefore`), by number.
    case gap(absent: [Int], unreadable: [Int], tornBefore: Int?)
    /// The last readable part ends torn; `insideItem` when the tear is inside a cue or a point.
    case tornEnd(part: Int, insideItem: Bool)
    /// Parts after the last readable one that cannot be read, by number.
    case unreadableEnd([Int])
  }

  /// One stretch lost: for a transcript in seconds from the start of the recording, for a route in
  /// UTC seconds since 1970.
  public struct Stretch: Sendable, Equatable {
    /// Why.
    public var cause: Cause
    /// Where the loss starts; nil when nothing tells.
    public var start: Double?
    /// Where it ends; nil at the end of the parts, where nothing bounds it.
    public var end: Double?

    /// A stretch lost for `cause`, from `start` to `end`.
    public init(cause: Cause, start: Double?, end: Double? = nil) {
      self.cause = cause
      self.start = start
      self.end = end
    }
  }

  /// Transcript (`.transcript`) or route (`.route`).
  public var kind: MemoFileKind
  /// The stretches lost, in recording order.
  public var stretches: [Stretch]
  /// Why each part that cannot be read cannot, by number, in plain words.
  public var reasons: [Int: String] = [:]

  /// A loss of `kind` made of `stretches`, with why parts cannot be read.
  public init(kind: MemoFileKind, stretches: [Stretch], reasons: [Int: String] = [:]) {
    self.kind = kind
    self.stretches = stretches
    self.reasons = reasons
  }

  /// The gaps between readable parts, bounded at both ends: what a transcript notes as missing
  /// speech when it is assembled (an end before its start is the start), with the parts of each.
  public var gaps: [(start: Double, end: Double, parts: [Int])] {
    stretches.compactMap { stretch in
      guard case .gap(let absent, let unreadable, let tornBefore) = stretch.cause else { return nil }
      let start = stretch.start ?? stretch.end ?? 0
      return (
        start, max(start, stretch.end ?? start),
        ((tornBefore.map { [$0] } ?? []) + absent + unreadable).sorted()
      )
    }
  }

  /// Whether nothing is lost: every part landed and reads whole.
  public var isEmpty: Bool { stretches.isEmpty }

  /// One part as the loss sees it.
  struct PartReading {
    var number: Int
    var unreadable: Bool
    var torn: Bool
    var insideItem: Bool
    var start: Double?
    var end: Double?
    /// Where a tear at the end of this part starts the loss.
    var tearAt: Double?
    /// Why it cannot be read, when it cannot.
    var why: String?
  }

  /// The loss of `parts` (ascending by number) of `kind` (`.transcript` or `.route`).
  /// `reasons` says why a part given as no bytes could not be read (too large, not a file), by number.
  public static func read(
    _ kind: MemoFileKind, parts: [(number: Int, bytes: [UInt8])], reasons given: [Int: String] = [:]
  ) -> PartsLoss {
    let readings = parts.map { kind == .route ? route($0.number, $0.bytes) : transcript($0.number, $0.bytes) }
    var reasons: [Int: String] = [:]
    for reading in readings where reading.unreadable {
      reasons[reading.number] = given[reading.number] ?? reading.why
    }
    var stretches: [Stretch] = []
    var expected = 1
    var absent: [Int] = []
    var unreadable: [Int] = []
    var previous: PartReading?
    // The end of what was read so far, for a part that tells nothing of its own end: a transcript
    // starts at 0; a route's clock is the UTC time of its points, and nothing precedes the first.
    var lastEnd: Double? = kind == .route ? nil : 0
    for reading in readings {
      absent += Array(expected..<max(expected, reading.number))
      expected = reading.number + 1
      if reading.unreadable {
        unreadable.append(reading.number)
        continue
      }
      let tornBefore = previous?.torn == true ? previous?.number : nil
      if !absent.isEmpty || !unreadable.isEmpty || tornBefore != nil {
        let start = (tornBefore != nil ? previous?.tearAt : previous?.end) ?? lastEnd
        stretches.append(
          Stretch(
            cause: .gap(absent: absent, unreadable: unreadable, tornBefore: tornBefore), start: start,
            end: reading.start))
      }
      absent = []
      unreadable = []
      previous = reading
      if let end = reading.end { lastEnd = max(lastEnd ?? end, end) }
    }
    if let previous, previous.torn {
      stretches.append(
        Stretch(
          cause: .tornEnd(part: previous.number, insideItem: previous.insideItem), start: previous.tearAt))
    }
    if !unreadable.isEmpty {
      stretches.append(Stretch(cause: .unreadableEnd(unreadable), start: previous?.end ?? lastEnd))
    }
    return PartsLoss(kind: kind, stretches: stretches, reasons: reasons)
  }

  /// A transcript part: unreadable when empty or without `WEBVTT`; torn when the parser reports an
  /// error or the file does not end with a line break (every complete write of a part does).
  static func transcript(_ number: Int, _ bytes: [UInt8]) -> PartReading {
    let document = WebVTTParser.parse(bytes)
    if bytes.isEmpty || document.diagnostics.contains(where: { $0.code == .vttNoSignature }) {
      return PartReading(
        number: number, unreadable: true, torn: false, insideItem: false,
        why: bytes.isEmpty ? "it is empty" : "not a WebVTT file")
    }
    let torn =
      document.diagnostics.contains { $0.severity == .error } || (bytes.last != 0x0A && bytes.last != 0x0D)
    var reading = PartReading(
      number: number, unreadable: false, torn: torn, insideItem: false,
      start: document.partSpan?.start ?? document.cues.first?.startTime)
    let lastCueEnd = document.cues.map(\.endTime).max()
    reading.end = torn ? (lastCueEnd ?? document.partSpan?.start) : (document.partSpan?.end ?? lastCueEnd)
    guard torn else { return reading }
    // The block the file ends in: a cue's when it has a timing line. When that cue was read, the
    // loss starts at it (its words after the tear are gone); otherwise after the last whole cue.
    let block = lastBlock(bytes)
    reading.insideItem = contains(block, Array("-->".utf8))
    let cut = reading.insideItem ? WebVTTParser.parse(Array("WEBVTT\n\n".utf8) + block).cues.first : nil
    reading.tearAt = cut?.startTime ?? lastCueEnd ?? document.partSpan?.start
    return reading
  }

  /// A route part: unreadable when no point can be read from it; torn when the reader found it
  /// damaged (cut off mid-element).
  static func route(_ number: Int, _ bytes: [UInt8]) -> PartReading {
    let document = GPXReader.read(bytes)
    let times = document.tracks.flatMap { $0.segments.flatMap(\.points) }.compactMap(\.time)
    let points = document.tracks.reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.points.count } }
    if points == 0 && document.isDamaged {
      let error = document.diagnostics.first { $0.severity == .error }
      return PartReading(
        number: number, unreadable: true, torn: false, insideItem: false,
        why: bytes.isEmpty ? "it is empty" : "no point can be read" + (error.map { ": " + $0.message } ?? ""))
    }
    var reading = PartReading(
      number: number, unreadable: false, torn: document.isDamaged, insideItem: false, start: times.first,
      end: times.last)
    if document.isDamaged {
      // Inside a point when a `<trkpt` opened after the last one that closed.
      let closed = lastIndex(of: Array("</trkpt>".utf8), in: bytes) ?? 0
      reading.insideItem = contains(Array(bytes[closed...]), Array("<trkpt".utf8))
      reading.tearAt = times.last
    }
    return reading
  }

  /// The bytes after the file's last blank line (its last block).
  static func lastBlock(_ bytes: [UInt8]) -> [UInt8] {
    var index = bytes.count - 1
    while index > 0 {
      if bytes[index] == 0x0A {
        var before = index - 1
        if before >= 0 && bytes[before] == 0x0D { before -= 1 }
        if before >= 0 && bytes[before] == 0x0A { return Array(bytes[(index + 1)...]) }
      }
      index -= 1
    }
    return bytes
  }

  static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
    guard bytes.count >= needle.count else { return false }
    return (0...(bytes.count - needle.count)).contains { start in
      needle.indices.allSatisfy { bytes[start + $0] == needle[$0] }
    }
  }

  static func lastIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    return (0...(bytes.count - needle.count)).reversed().first { start in
      needle.indices.allSatisfy { bytes[start + $0] == needle[$0] }
    }
  }

  // MARK: Words

  /// The loss in sentences a person can act on, one per stretch, each naming its parts and the
  /// time where the loss starts.
  public var sentences: [String] { stretches.map(sentence) }

  /// The sentences joined, or what is true when nothing is lost.
  public var summary: String {
    isEmpty ? "every \(kind.words) part landed and reads whole" : sentences.joined(separator: "; ")
  }

  /// What `stash recover --accept-loss` does with this loss, for a message that keeps the parts.
  public var acceptance: String {
    kind == .route
      ? "Once you have seen this, `stash recover --accept-loss` removes the parts: the route holds every point "
        + "they still give, and a gap in it is already a new segment"
      : "Once you have seen this, `stash recover --accept-loss` notes the loss in the transcript as missing "
        + "speech and removes the parts"
  }

  func name(_ number: Int) -> String {
    (kind == .route ? PartName.route(number) : PartName.transcript(number)).fileName
  }

  /// A time as the kind gives it: recording time for a transcript, UTC time of day for a route.
  public func time(_ seconds: Double?) -> String {
    guard let seconds else { return "an unknown time" }
    guard kind == .route else { return TimeText.clock(seconds) }
    return RecordingDate.utcClock(time_t(seconds)) + " UTC"
  }

  /// A stretch's two ends, to the millisecond when whole seconds would print them the same.
  func span(_ stretch: Stretch) -> (String, String) {
    let (start, end) = (time(stretch.start), time(stretch.end))
    guard start == end, kind == .transcript, let from = stretch.start, let to = stretch.end else {
      return (start, end)
    }
    return (TimeText.preciseClock(from), TimeText.preciseClock(to))
  }

  func sentence(_ stretch: Stretch) -> String {
    let item = kind == .route ? "point" : "cue"
    // What is lost is the file's record of that time: there may have been silence, or no walking.
    let what = kind == .route ? "the route" : "the transcript"
    switch stretch.cause {
    case .gap(let absent, let unreadable, let tornBefore):
      var causes: [String] = []
      if let tornBefore { causes.append("\(name(tornBefore)) is torn") }
      if !absent.isEmpty { causes.append(list(absent) + " never landed") }
      if !unreadable.isEmpty { causes.append(unreadableList(unreadable)) }
      let split = kind == .route ? " (the route starts a new segment there)" : ""
      guard stretch.start != nil else {
        return causes.joined(separator: " and ") + ": \(what) before \(time(stretch.end)) is lost"
      }
      return causes.joined(separator: " and ")
        + ": a gap, \(what) from \(span(stretch).0) to \(span(stretch).1) is lost\(split)"
    case .tornEnd(let part, let insideItem):
      let after = "\(what) after that is lost"
      return insideItem
        ? "the last \(kind.words) part (\(name(part))) ends mid-\(item) at \(time(stretch.start)): \(after)"
        : "the last \(kind.words) part (\(name(part))) is torn after its last whole \(item), at "
          + "\(time(stretch.start)): \(after)"
    case .unreadableEnd(let numbers):
      return unreadableList(numbers) + ": \(what) after \(time(stretch.start)) is lost"
    }
  }

  func unreadableList(_ numbers: [Int]) -> String {
    numbers.map { name($0) + " cannot be read" + (reasons[$0].map { " (\($0))" } ?? "") }.joined(
      separator: ", ")
  }

  func list(_ numbers: [Int]) -> String {
    numbers.map(name).joined(separator: ", ")
  }
}

extension PartsLoss {
  /// The largest part read; a bigger one counts as unreadable (parts are about a minute each).
  static let partLimit = 64 << 20

  /// The loss of the parts numbered `numbers` of `kind` in the parts folder at `folder`; a part
  /// that cannot be read counts as unreadable.
  public static func read(folder: String, _ kind: MemoFileKind, numbers: [Int]) -> PartsLoss {
    var reasons: [Int: String] = [:]
    let parts = numbers.map { number in
      let name = (kind == .route ? PartName.route(number) : PartName.transcript(number)).fileName
      do {
        return (
          number: number,
          bytes: try ReadOnlyFile.contents(of: MemoFolder.join(folder, name), limit: partLimit)
        )
      } catch {
        reasons[number] = (error as? FormatError)?.message ?? "\(error)"
        return (number: number, bytes: [UInt8]())
      }
    }
    return read(kind, parts: parts, reasons: reasons)
  }
}
