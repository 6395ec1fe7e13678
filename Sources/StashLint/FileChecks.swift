import StashFormat

#if canImport(Glibc)
  import Glibc
#endif

/// The checks of one file: its reader's diagnostics plus the linter's own rules about what it holds.
/// The linter's own rules list at most `limit` findings of a code per file, then one that counts the rest.
package struct FileChecks {
  /// How many findings of one of the linter's codes are listed per file.
  package static let limit = 20
  /// How far (seconds) a cue may run past the audio before it is reported: AAC priming and a
  /// recogniser's rounding make a few hundred milliseconds ordinary.
  package static let cueSlack = 0.5
  /// How far (seconds) outside the recording a route point may be timed: a first fix arrives late
  /// and the last part is flushed after the audio stops.
  package static let routeSlack = 60.0

  /// The file's name in its folder, as given.
  private let given: String
  /// Whether `given` is escaped already (`PathText.escaped`).
  private let givenEscaped: Bool
  /// The linted folder's path as given.
  private let folder: String
  /// The escaped name and the path as printed (`LintFinding.join`), made with the first finding
  /// and shared by the rest: most files have none, and then neither is made.
  private var place: (name: String, path: String)?
  /// What was found, unsorted.
  package private(set) var findings: [LintFinding] = []
  private var counts: [RuleCode: Int] = [:]

  /// The checks of the file `name` (escaped already) in `folder`.
  package init(name: String, folder: String) {
    (given, givenEscaped, self.folder) = (name, true, folder)
  }

  /// The checks of the file `name` (as the folder lists it, not escaped) in `folder`.
  package init(unescaped name: String, folder: String) {
    (given, givenEscaped, self.folder) = (name, false, folder)
  }

  /// The escaped name and printed path, made the first time.
  private mutating func placed() -> (name: String, path: String) {
    if let place { return place }
    let name = givenEscaped ? given : PathText.escaped(given)
    let made = (name: name, path: LintFinding.join(folder, name))
    place = made
    return made
  }

  /// Adds a reader's diagnostics of the file (all of them, at once) under the same limit as the
  /// linter's own: at most `limit` of a code listed, then one that counts the rest (a reader's own
  /// count of those it did not list, past its larger limit, is part of that rest). A file once
  /// listed a thousand of one code.
  package mutating func add(_ diagnostics: [Diagnostic]) {
    guard !diagnostics.isEmpty else { return }
    let (name, path) = placed()
    var seen: [FormatError.Code: (count: Int, severity: Severity)] = [:]
    for diagnostic in diagnostics {
      let count = (seen[diagnostic.code]?.count ?? 0) + max(1, diagnostic.unlisted)
      seen[diagnostic.code] = (count, seen[diagnostic.code]?.severity ?? diagnostic.severity)
      guard diagnostic.unlisted == 0, count <= Self.limit else { continue }
      findings.append(
        LintFinding(
          code: .reader(diagnostic.code), severity: diagnostic.severity, name: name, path: path,
          location: diagnostic.location, message: diagnostic.message))
    }
    for (code, found) in seen.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where found.count > Self.limit
    {
      let rest = found.count - Self.limit
      findings.append(
        LintFinding(
          code: .reader(code), severity: found.severity, name: name, path: path,
          message: Diagnostic.unlistedMessage(rest), unlisted: rest))
    }
  }

  /// Adds one of the linter's own findings, counting those past the limit. The message is made
  /// only for a finding that is listed: a route from another memo has every point outside the
  /// recording, and formatting times for findings never shown was most of lint's time there.
  package mutating func own(
    _ code: LintCode, _ message: @autoclosure () -> String, at location: SourceLocation = .init()
  ) {
    own(.linter(code), message(), at: location)
  }

  /// A reader's code the linter reports itself (`lint-file-unreadable`), counted the same way.
  package mutating func own(
    _ code: FormatError.Code, _ message: @autoclosure () -> String, at location: SourceLocation = .init()
  ) {
    own(.reader(code), message(), at: location)
  }

  private mutating func own(
    _ code: RuleCode, _ message: @autoclosure () -> String, at location: SourceLocation
  ) {
    let count = counts[code, default: 0] + 1
    counts[code] = count
    guard count <= Self.limit, let rule = LintCatalogue.rule(code) else { return }
    let (name, path) = placed()
    findings.append(
      LintFinding(
        code: code, severity: rule.severity, name: name, path: path, location: location,
        message: message())
    )
  }

  /// Adds the summaries of codes that went past the limit; call once, at the end.
  package mutating func finish() {
    for (code, count) in counts.sorted(by: { $0.key < $1.key }) where count > Self.limit {
      let (name, path) = placed()
      findings.append(
        LintFinding(
          code: code, severity: LintCatalogue.rule(code)!.severity, name: name, path: path,
          message: Diagnostic.unlistedMessage(count - Self.limit), unlisted: count - Self.limit))
    }
    counts = [:]
  }

  /// A file that could not be read at all.
  package mutating func unreadable(_ error: FormatError) {
    own(.lintFileUnreadable, "the file cannot be read (\(error.message)); nothing in it was checked")
  }

  /// The full audio index's diagnostics (`MP4Audio.diagnostics`): all but the ones that only
  /// state facts.
  package mutating func audio(_ diagnostics: [Diagnostic]) {
    add(diagnostics.filter { !LintEngine.quietAudioCodes.contains($0.code) })
  }

  /// A transcript: the parser's diagnostics, cues past the audio (one finding that counts them,
  /// at the first, saying whether the audio's bytes show it was cut short), overlapping cues.
  package mutating func transcript(
    _ document: WebVTTDocument, audioSeconds: Double?, audioCutShort: Bool = false
  ) {
    add(document.diagnostics)
    var previousEnd: Double?
    var past: (first: Int, count: Int, starting: Int)?
    // Only the times are read, in place: a copy of each cue would retain and release its strings.
    let cues = document.cues
    for index in cues.indices {
      let (startTime, endTime) = (cues[index].startTime, cues[index].endTime)
      if let seconds = audioSeconds, endTime > seconds + Self.cueSlack {
        let starts = startTime > seconds ? 1 : 0
        past = past.map { ($0.first, $0.count + 1, $0.starting + starts) } ?? (index, 1, starts)
      }
      if let end = previousEnd, startTime < end {
        own(
          .cueOverlap,
          "the cue starts at \(TimeText.preciseClock(startTime)), before the previous cue ends at \(TimeText.preciseClock(end))",
          at: location(document, index))
      }
      previousEnd = endTime
    }
    if let past, let seconds = audioSeconds {
      own(
        .cuePastAudio,
        Self.pastAudio(
          audio: seconds, firstEnd: cues[past.first].endTime, count: past.count, starting: past.starting,
          cutShort: audioCutShort),
        at: location(document, past.first))
    }
    finish()
  }

  /// Where cue `index` of `document` starts, when its line is known.
  private func location(_ document: WebVTTDocument, _ index: Int) -> SourceLocation {
    let line = index < document.cueLines.count ? document.cueLines[index] : nil
    return SourceLocation(line: line, column: line == nil ? nil : 1)
  }

  /// What the bytes show when `count` cues (the first ending at `firstEnd`; `starting` of them
  /// starting after the audio ends) run past audio that lasts `audio` seconds.
  package static func pastAudio(audio: Double, firstEnd: Double, count: Int, starting: Int, cutShort: Bool)
    -> String
  {
    var text = "the audio ends at \(TimeText.preciseClock(audio)); "
    if count == 1 {
      text +=
        "this cue ends at \(TimeText.preciseClock(firstEnd))\(starting == 1 ? " and starts after it" : "")"
    } else {
      text += "\(count) cues run past it, from this one (ending at \(TimeText.preciseClock(firstEnd)))"
      if starting > 0 {
        text += starting == count ? ", all starting after it" : ", \(starting) starting after it"
      }
    }
    text +=
      cutShort
      ? "; the audio file was cut short (see its own finding), so the words past its end have no sound"
      : "; the audio may have been cut short, or the transcript may be another recording's"
    return text
  }

  /// A route: the reader's diagnostics, then times (missing, not UTC, backwards, outside `span`) and hdop.
  package mutating func route(_ bytes: [UInt8], span: ClosedRange<Double>?) {
    let document = GPXReader.read(bytes)
    add(document.diagnostics)
    let badTimeLines = Set(
      document.diagnostics.filter { $0.code == .gpxBadTime }.compactMap(\.location.line))
    // The recording's span as printed, made once per route and only when a point falls outside it.
    var spanText: String?
    func recording(_ span: ClosedRange<Double>) -> String {
      if let spanText { return spanText }
      let text = "(\(ISO8601Time.format(span.lowerBound)) to \(ISO8601Time.format(span.upperBound)))"
      spanText = text
      return text
    }
    for track in document.tracks {
      for segment in track.segments {
        var previous: Double?
        for (index, point) in segment.points.enumerated() {
          let location = point.location ?? SourceLocation()
          guard let time = point.time else {
            // A time that did not parse already has gpx-bad-time, between this point and the next.
            let start = location.line ?? 0
            let next = index + 1 < segment.points.count ? segment.points[index + 1].location?.line : nil
            let reported = badTimeLines.contains { $0 >= start && $0 < (next ?? Int.max) }
            if !reported {
              own(
                .gpxTimeMissing, "the point has no <time>: add one or remove the point", at: location)
            }
            continue
          }
          if let previous, time < previous {
            own(
              .gpxTimeBackwards,
              "the point's time \(ISO8601Time.format(time)) is earlier than the point before it "
                + "(\(ISO8601Time.format(previous))): sort the points or split the segment here", at: location
            )
          }
          previous = time
          if let span, time < span.lowerBound - Self.routeSlack || time > span.upperBound + Self.routeSlack {
            own(
              .gpxPointOutsideRecording,
              "the point is timed \(ISO8601Time.format(time)), outside the recording \(recording(span)): "
                + "check the route belongs to this memo", at: location)
          }
          if point.hdop != nil && point.horizontalAccuracy == nil {
            own(
              .gpxHdopAsAccuracy,
              "the point gives <hdop> but no <stash:horizontalAccuracy>: hdop is a unitless factor, not metres; "
                + "write the accuracy as <stash:horizontalAccuracy>", at: location)
          }
        }
      }
    }
    for (line, column, text) in Self.offsetTimes(in: bytes) {
      own(
        .gpxTimeNotUTC,
        "the time \(text) has a UTC offset: write times in UTC with Z",
        at: SourceLocation(line: line, column: column))
    }
    finish()
  }

  /// Every `<time>` (any prefix) whose text ends in a `±hh:mm`, `±hhmm` or `±hh` offset rather than
  /// `Z`: the reader turns them into instants and keeps no sign of how they were written. This scan
  /// covers every byte of every route, so it jumps between `m`s with memchr (rare in GPX outside
  /// `time`), counts lines only up to a time it reports, and makes a String only for those.
  package static func offsetTimes(in bytes: [UInt8]) -> [(Int, Int, String)] {
    bytes.withUnsafeBufferPointer { offsetTimes(in: $0) }
  }

  package static func offsetTimes(in bytes: UnsafeBufferPointer<UInt8>) -> [(Int, Int, String)] {
    var out: [(Int, Int, String)] = []
    guard let base = bytes.baseAddress else { return out }
    let count = bytes.count
    let (lt, gt, slash, colon) = (UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: ":"))
    var (line, lineStart, counted) = (1, 0, 0)
    var from = 0
    while from < count, let found = memchr(base + from, Int32(UInt8(ascii: "m")), count - from) {
      let m = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
      from = m + 1
      guard m >= 2, m + 1 < count, bytes[m - 2] == UInt8(ascii: "t"), bytes[m - 1] == UInt8(ascii: "i"),
        bytes[m + 1] == UInt8(ascii: "e")
      else { continue }
      // An opening tag whose name, after any prefix, is exactly `time`: `time` (then any colons and
      // `>`) right after `<` or a `:`, that `<` not `</`, on one line, the tag at most 64 bytes.
      let name = m - 2
      var end = m + 2
      while end < count, bytes[end] == colon { end += 1 }
      guard end < count, bytes[end] == gt, name > 0, bytes[name - 1] == colon || bytes[name - 1] == lt else {
        continue
      }
      var open = name - 1
      while open > 0, bytes[open] != lt, bytes[open] != gt, bytes[open] != 0x0A, end - open <= 64 {
        open -= 1
      }
      guard bytes[open] == lt, end - open <= 64, bytes[open + 1] != slash else { continue }
      // The text runs to the next `<`, looked at for at most 79 bytes.
      let limit = min(count, end + 80)
      var close = limit
      if end + 1 < limit, let found = memchr(base + end + 1, Int32(lt), limit - end - 1) {
        close = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) - base
      }
      let text = trimmedBlanks(bytes, from: end + 1, to: close)
      guard hasOffset(UnsafeBufferPointer(rebasing: bytes[text])) else { continue }
      while counted < open {
        if bytes[counted] == 0x0A { (line, lineStart) = (line + 1, counted + 1) }
        counted += 1
      }
      out.append((line, open - lineStart + 1, String(decoding: bytes[text], as: UTF8.self)))
    }
    return out
  }

  /// The range `start..<end` of `bytes` without spaces, tabs, CRs and LFs at either end.
  package static func trimmedBlanks(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
    -> Range<Int>
  {
    func blank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    var (low, high) = (start, end)
    while low < high, blank(bytes[low]) { low += 1 }
    while high > low, blank(bytes[high - 1]) { high -= 1 }
    return low..<high
  }

  /// Whether a date-time text (UTF-8) ends in a numeric offset.
  package static func hasOffset(_ chars: UnsafeBufferPointer<UInt8>) -> Bool {
    // An offset ends in a digit; most times end in Z and are done with here.
    guard let last = chars.last, last &- 48 < 10 else { return false }
    guard let t = chars.firstIndex(of: UInt8(ascii: "T")) else { return false }
    guard
      let sign = chars[(t + 1)...].lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") })
    else {
      return false
    }
    var digits = 0
    for byte in chars[(sign + 1)...] where byte != UInt8(ascii: ":") {
      guard byte >= 0x30 && byte <= 0x39 else { return false }
      digits += 1
    }
    return digits == 2 || digits == 4
  }
}
