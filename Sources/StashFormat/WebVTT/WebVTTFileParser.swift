#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One run of the parser algorithm over normalized text (UTF-8, LF only, no NUL).
struct WebVTTFileParser {
  let bytes: UnsafeBufferPointer<UInt8>
  let count: Int
  /// Added to an offset to get the offset in the file; nil when the text was rewritten.
  let offsetBase: Int?
  let wasNotUTF8: Bool
  /// Whether cues get their identifier and text; without, only their times, settings and lines
  /// are kept (a check of the file reports the same problems, with no string per cue made).
  let keepsText: Bool
  var position = 0
  /// The 1-based line `position` is on.
  var line = 1
  /// Offset of the start of the line `position` is on.
  var lineStart = 0
  var seenCue = false
  /// Line and offset where the current block starts: where line counting for a diagnostic begins.
  var anchorLine = 1
  var anchorStart = 0
  var document = WebVTTDocument()
  /// The cues so far, kept apart from `document` until the end: the document rebuilds its lookup
  /// whenever its cue list changes.
  var cues: [WebVTTCue] = []
  var cueLines: [Int] = []
  var diagnostics: [Diagnostic] = []
  var dropped = 0
  var previousCueStart: Double? = nil
  /// Where `locate` last found a place: offset, line and column.
  var cursor = (offset: 0, line: 1, column: 1)
  /// Checks cue text; kept from cue to cue so its buffers are allocated once per file.
  var checker: WebVTTCueTextParser

  init(bytes: UnsafeBufferPointer<UInt8>, offsetBase: Int?, input: WebVTTInput, keepsText: Bool = true) {
    self.bytes = bytes
    self.count = bytes.count
    self.offsetBase = offsetBase
    self.wasNotUTF8 = input.wasNotUTF8
    self.keepsText = keepsText
    self.checker = WebVTTCueTextParser.checker(for: bytes)
    for issue in input.issues { report(issue) }
    // A cue takes at least two lines (timing, blank) and most take three; growing the list by
    // copying costs more than a guess. The guess is capped so that a file of blank lines reserves
    // little: past a million cues the list grows as usual.
    let expected = min(input.lineFeeds / 3, bytes.count / 24, 1 << 20) + 1
    cues.reserveCapacity(expected)
    cueLines.reserveCapacity(expected)
  }

  mutating func finish() -> WebVTTDocument {
    document.cues = cues
    document.cueLines = cueLines
    // File order; problems on one spot keep the order they were found in.
    document.diagnostics = diagnostics.enumerated().sorted { a, b in
      let (la, lb) = (a.element.location, b.element.location)
      if la.line != lb.line { return (la.line ?? 0) < (lb.line ?? 0) }
      if la.column != lb.column { return (la.column ?? 0) < (lb.column ?? 0) }
      return a.offset < b.offset
    }.map(\.element)
    if dropped > 0 {
      document.diagnostics.append(
        Diagnostic(
          code: .vttTooManyDiagnostics, severity: .info,
          message:
            "\(dropped) more problems are not listed (only the first \(WebVTTParser.diagnosticLimit) are)"))
    }
    return document
  }

  // MARK: The WebVTT parser algorithm

  mutating func run() {
    guard signature() else { return }
    // Collect the rest of the signature line: the header text.
    let signatureEnd = lineEnd(from: 0)
    if signatureEnd > 6 { document.headerText = string(7..<signatureEnd) }
    position = signatureEnd
    guard position < count else { return }
    advanceOverNewline()
    guard position < count else { return }
    // Header: a block (in header) unless the signature line is followed by a blank line.
    if bytes[position] != 0x0A {
      let headerStart = position
      var lines: [Substring] = []
      if case .other(let buffer, _, _) = collectBlock(inHeader: true), let buffer {
        let text = string(buffer)
        document.headerText += "\n" + text
        lines = text.split(separator: "\n")
      }
      if let writer = Self.headerWriter(lines) {
        report(
          .vttHeaderMetadata, at: headerStart, lineNumber: 2, lineStart: headerStart,
          "header lines \(writer) (\(Self.headerNames(lines))): ignored, as the WebVTT parser ignores header text"
        )
      } else {
        report(
          .vttHeaderNoBlankLine, at: headerStart, lineNumber: 2, lineStart: headerStart,
          "put a blank line after the WEBVTT line")
      }
    } else {
      advanceOverNewline()
    }
    skipNewlines()
    // Block loop.
    while position < count {
      let blockStart = position
      let blockLine = line
      switch collectBlock(inHeader: false) {
      case .cue:
        break
      case .style(let css):
        document.styles.append(css)
      case .region(let region):
        document.regions.append(region)
      case .other(let buffer, let startsBlock, let failedTiming):
        other(
          buffer, startsBlock: startsBlock, failedTiming: failedTiming, blockStart: blockStart,
          blockLine: blockLine)
      }
      skipNewlines()
    }
  }

  /// The writer whose header lines these are: YouTube (`Kind:` and `Language:`, then its style
  /// lines) or HLS (`X-TIMESTAMP-MAP=`, RFC 8216 §3.5); nil for anything else.
  static func headerWriter(_ lines: [Substring]) -> String? {
    guard let first = lines.first else { return nil }
    if lines.allSatisfy({ $0.hasPrefix("X-TIMESTAMP-MAP=") }) {
      return "that HLS requires in every segment (RFC 8216)"
    }
    if first.hasPrefix("Kind:") || first.hasPrefix("Language:") { return "of the kind YouTube writes" }
    return nil
  }

  /// The names of the header lines, for the message: `Kind:`, `Language:`, `X-TIMESTAMP-MAP`.
  static func headerNames(_ lines: [Substring]) -> String {
    let names = lines.compactMap { line -> String? in
      if line.hasPrefix("X-TIMESTAMP-MAP=") { return "X-TIMESTAMP-MAP" }
      guard let colon = line.firstIndex(of: ":"), colon > line.startIndex,
        line[..<colon].allSatisfy({ $0.isLetter || $0 == "-" })
      else { return nil }
      return String(line[...colon])
    }
    return names.joined(separator: ", ")
  }

  /// Steps 4 to 6: the signature; false (with a diagnostic quoting the first line) when absent.
  mutating func signature() -> Bool {
    let magic: [UInt8] = Array("WEBVTT".utf8)
    var matches = count >= 6
    if matches {
      for i in 0..<6 where bytes[i] != magic[i] {
        matches = false
        break
      }
    }
    if matches && (count == 6 || bytes[6] == 0x20 || bytes[6] == 0x09 || bytes[6] == 0x0A) { return true }
    let quoted = excerpt(0..<lineEnd(from: 0))
    let message: String
    if count == 0 {
      message = "not a WebVTT file: it is empty (a WebVTT file starts with the line WEBVTT)"
    } else if matches {
      message =
        "not a WebVTT file: its first line \"\(quoted)\" has something other than a space or tab after WEBVTT"
    } else if wasNotUTF8 {
      message =
        "not a WebVTT file: it is not UTF-8 text and does not start with WEBVTT (first line \"\(quoted)\")"
    } else {
      message = "not a WebVTT file: the first line is \"\(quoted)\", not WEBVTT"
    }
    report(.vttNoSignature, at: 0, message)
    return false
  }

  /// What "collect a WebVTT block" returns.
  enum Block {
    /// A cue, already appended to `cues` (building it in place there saves copying it).
    case cue
    case style(String)
    case region(WebVTTRegion)
    /// Nothing the algorithm keeps: the buffer, whether it starts at the block's first line, and
    /// the timing line that failed, if one did. The buffer does not hold that line: when it is the
    /// block's second line, the buffer is the first line, a LF and the lines after the failed one
    /// (the spec appends only lines without `-->`).
    case other(Range<Int>?, startsBlock: Bool, failedTiming: Range<Int>?)
  }

  mutating func collectBlock(inHeader: Bool) -> Block {
    anchorLine = line
    anchorStart = position
    var lineCount = 0
    var buffer: Range<Int>? = nil
    var bufferStartsBlock = false
    var seenArrow = false
    var failedTiming: Range<Int>? = nil
    var cue = WebVTTCue(startTime: 0, endTime: 0, text: "")
    var hasCue = false
    var cueLine = 0
    var isStyle = false
    var isRegion = false
    while true {
      let start = position
      let startLine = line
      let end = lineEnd(from: position)
      position = end
      lineCount += 1
      let seenEOF = position >= count
      if !seenEOF { advanceOverNewline() }
      if containsArrow(start..<end) {
        if !inHeader && (lineCount == 1 || (lineCount == 2 && !seenArrow)) {
          seenArrow = true
          // (No `buffer.map(string)`: a method reference copies the whole parser in a debug build.)
          var id = ""
          var idIsNote = false
          if let buffer {
            if keepsText { id = string(buffer) }
            idIsNote = startsWithNote(buffer)
          }
          cue = WebVTTCue(id: id, startTime: 0, endTime: 0, text: "")
          if timingsAndSettings(start..<end, line: startLine, idIsNote: idIsNote, for: &cue) {
            hasCue = true
            cueLine = startLine
            buffer = nil
            seenCue = true
          } else {
            hasCue = false
            // The line with its LF: what the buffer skips.
            failedTiming = start..<(seenEOF ? end : end + 1)
          }
        } else {
          if !inHeader {
            report(
              .vttMissingBlankLine, at: start, lineNumber: startLine, lineStart: start,
              "this line has --> so it starts a new cue; put a blank line before it (or write --&gt; if it is text)"
            )
          }
          // Rewind to the start of this line.
          position = start
          line = startLine
          lineStart = start
          break
        }
      } else if start == end {
        break
      } else {
        if !inHeader && lineCount == 2 && !seenCue, let current = buffer {
          if startsWithKeyword(current, "STYLE") {
            isStyle = true
            buffer = nil
          } else if startsWithKeyword(current, "REGION") {
            isRegion = true
            buffer = nil
          }
        }
        if let current = buffer {
          buffer = current.lowerBound..<end
        } else {
          buffer = start..<end
          bufferStartsBlock = lineCount == 1
        }
      }
      if seenEOF { break }
    }
    if hasCue {
      if let buffer {
        if keepsText { cue.text = string(buffer) }
        checkCueText(buffer, start: cue.startTime, end: cue.endTime)
      }
      cues.append(cue)
      cueLines.append(cueLine)
      return .cue
    }
    if isStyle {
      guard let buffer else { return .style("") }
      return .style(string(buffer))
    }
    if isRegion { return .region(regionSettings(buffer)) }
    return .other(buffer, startsBlock: bufferStartsBlock, failedTiming: failedTiming)
  }

  /// A block the algorithm drops: a NOTE (kept as a comment, or read as a Stash note), or a
  /// problem to report.
  mutating func other(
    _ buffer: Range<Int>?, startsBlock: Bool, failedTiming: Range<Int>?, blockStart: Int, blockLine: Int
  ) {
    guard let buffer else { return }
    if startsBlock && startsWithNote(buffer) {
      let textStart = buffer.count > 4 ? buffer.lowerBound + 5 : buffer.upperBound
      note(
        string(textStart..<buffer.upperBound, skipping: failedTiming), at: buffer.lowerBound, line: blockLine)
      return
    }
    if failedTiming != nil { return }  // Already reported with the timing line.
    // A STYLE or REGION header whose block was not taken: after the cues, or with nothing after it.
    let headers: [(keyword: StaticString, afterCue: FormatError.Code, late: String, empty: String)] = [
      (
        "STYLE", .vttStyleAfterCue, "a STYLE block after the first cue is ignored; move it before the cues",
        "a STYLE line with no style sheet after it is ignored"
      ),
      (
        "REGION", .vttRegionAfterCue,
        "a REGION block after the first cue is ignored; move it before the cues",
        "a REGION line with no settings after it is ignored"
      ),
    ]
    for header in headers
    where startsBlock
      && startsWithKeyword(buffer.lowerBound..<lineEnd(from: buffer.lowerBound), header.keyword)
    {
      let (code, message) = seenCue ? (header.afterCue, header.late) : (.vttStrayText, header.empty)
      report(code, at: buffer.lowerBound, lineNumber: blockLine, lineStart: blockStart, message)
      return
    }
    let shown = excerpt(buffer.lowerBound..<lineEnd(from: buffer.lowerBound))
    let hasSecondLine = lineEnd(from: buffer.lowerBound) < buffer.upperBound
    report(
      .vttStrayText, at: buffer.lowerBound, lineNumber: blockLine, lineStart: blockStart,
      hasSecondLine || startsBlock
        ? "text \"\(shown)\" is not part of any cue (a cue needs a timing line such as 00:00.000 --> 00:01.000); it is ignored"
        : "text \"\(shown)\" is ignored")
  }
}
