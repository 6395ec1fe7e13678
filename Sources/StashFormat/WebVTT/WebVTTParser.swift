#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads WebVTT by the W3C "WebVTT parser algorithm", step for step, and records what a validator
/// would report as diagnostics with line and column. It never throws and never gives up on a file
/// that has the signature: what the algorithm drops is dropped, and said.
public enum WebVTTParser {
  /// At most this many diagnostics are listed per file; the rest are counted in one more.
  public static let diagnosticLimit = 1000

  /// Parses a whole file.
  public static func parse(_ bytes: [UInt8]) -> WebVTTDocument {
    bytes.withUnsafeBufferPointer { parse($0) }
  }

  /// Parses a whole file from a buffer.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> WebVTTDocument {
    let input = WebVTTInput(bytes)
    if let rewritten = input.rewritten {
      return rewritten.withUnsafeBufferPointer { buffer in
        var parser = WebVTTFileParser(bytes: buffer, offsetBase: nil, input: input)
        parser.run()
        return parser.finish()
      }
    }
    let body = UnsafeBufferPointer(rebasing: bytes[input.skipped...])
    var parser = WebVTTFileParser(bytes: body, offsetBase: input.skipped, input: input)
    parser.run()
    return parser.finish()
  }

  /// Parses text already in memory.
  public static func parse(_ text: String) -> WebVTTDocument {
    parse(Array(text.utf8))
  }
}

/// One run of the parser algorithm over normalized text (UTF-8, LF only, no NUL).
struct WebVTTFileParser {
  let bytes: UnsafeBufferPointer<UInt8>
  let count: Int
  /// Added to an offset to get the offset in the file; nil when the text was rewritten.
  let offsetBase: Int?
  let wasNotUTF8: Bool
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
  /// Checks cue text; kept from cue to cue so its buffers are allocated once per file.
  var checker: WebVTTCueTextParser

  init(bytes: UnsafeBufferPointer<UInt8>, offsetBase: Int?, input: WebVTTInput) {
    self.bytes = bytes
    self.count = bytes.count
    self.offsetBase = offsetBase
    self.wasNotUTF8 = input.wasNotUTF8
    self.checker = WebVTTCueTextParser.checker(for: bytes)
    for issue in input.issues { report(issue) }
    // A cue takes at least two lines (timing, blank); most take three. Growing the list by copying
    // costs more than the guess.
    cues.reserveCapacity(input.lineFeeds / 3 + 1)
    cueLines.reserveCapacity(input.lineFeeds / 3 + 1)
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
          code: WebVTTDiagnosticCode.tooManyDiagnostics.rawValue, severity: .info,
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
      report(.headerNoBlankLine, at: position, "put a blank line after the WEBVTT line")
      if case .other(let buffer, _, _) = collectBlock(inHeader: true), let buffer {
        document.headerText += "\n" + string(buffer)
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
      case .cue(let cue, let timingLine):
        cues.append(cue)
        cueLines.append(timingLine)
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
    report(.noSignature, at: 0, message)
    return false
  }

  /// What "collect a WebVTT block" returns.
  enum Block {
    case cue(WebVTTCue, line: Int)
    case style(String)
    case region(WebVTTRegion)
    /// Nothing the algorithm keeps: the buffer, whether it starts at the block's first line, and
    /// whether a timing line failed.
    case other(Range<Int>?, startsBlock: Bool, failedTiming: Bool)
  }

  mutating func collectBlock(inHeader: Bool) -> Block {
    anchorLine = line
    anchorStart = position
    var lineCount = 0
    var buffer: Range<Int>? = nil
    var bufferStartsBlock = false
    var seenArrow = false
    var failedTiming = false
    var cue: WebVTTCue? = nil
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
          if let buffer { id = string(buffer) }
          var created = WebVTTCue(id: id, startTime: 0, endTime: 0, text: "")
          if timingsAndSettings(start..<end, line: startLine, for: &created) {
            cue = created
            cueLine = startLine
            buffer = nil
            seenCue = true
          } else {
            cue = nil
            failedTiming = true
          }
        } else {
          if !inHeader {
            report(
              .missingBlankLine, at: start, lineNumber: startLine, lineStart: start,
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
    if var cue {
      if let buffer {
        cue.text = string(buffer)
        checkCueText(buffer, start: cue.startTime, end: cue.endTime)
      }
      return .cue(cue, line: cueLine)
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
    _ buffer: Range<Int>?, startsBlock: Bool, failedTiming: Bool, blockStart: Int, blockLine: Int
  ) {
    guard let buffer else { return }
    if startsBlock && startsWithNote(buffer) {
      let textStart = buffer.count > 4 ? buffer.lowerBound + 5 : buffer.upperBound
      note(string(textStart..<buffer.upperBound), at: buffer.lowerBound, line: blockLine)
      return
    }
    if failedTiming { return }  // Already reported with the timing line.
    if startsBlock && startsWithKeyword(buffer.lowerBound..<lineEnd(from: buffer.lowerBound), "STYLE") {
      if seenCue {
        report(
          .styleAfterCue, at: buffer.lowerBound, lineNumber: blockLine, lineStart: blockStart,
          "a STYLE block after the first cue is ignored; move it before the cues")
      } else {
        report(
          .strayText, at: buffer.lowerBound, lineNumber: blockLine, lineStart: blockStart,
          "a STYLE line with no style sheet after it is ignored")
      }
      return
    }
    if startsBlock && startsWithKeyword(buffer.lowerBound..<lineEnd(from: buffer.lowerBound), "REGION") {
      if seenCue {
        report(
          .regionAfterCue, at: buffer.lowerBound, lineNumber: blockLine, lineStart: blockStart,
          "a REGION block after the first cue is ignored; move it before the cues")
      } else {
        report(
          .strayText, at: buffer.lowerBound, lineNumber: blockLine, lineStart: blockStart,
          "a REGION line with no settings after it is ignored")
      }
      return
    }
    let shown = excerpt(buffer.lowerBound..<lineEnd(from: buffer.lowerBound))
    let hasSecondLine = lineEnd(from: buffer.lowerBound) < buffer.upperBound
    report(
      .strayText, at: buffer.lowerBound, lineNumber: blockLine, lineStart: blockStart,
      hasSecondLine || startsBlock
        ? "text \"\(shown)\" is not part of any cue (a cue needs a timing line such as 00:00.000 --> 00:01.000); it is ignored"
        : "text \"\(shown)\" is ignored")
  }

  // MARK: Lines

  /// The end of the line starting at `from`: the next LF, or the end of the text.
  func lineEnd(from: Int) -> Int {
    guard from < count, let base = bytes.baseAddress else { return count }
    guard let found = memchr(base + from, 0x0A, count - from) else { return count }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }

  /// Moves past the LF at `position`.
  mutating func advanceOverNewline() {
    position += 1
    line += 1
    lineStart = position
  }

  mutating func skipNewlines() {
    while position < count && bytes[position] == 0x0A { advanceOverNewline() }
  }

  /// Whether `range` contains `-->`.
  func containsArrow(_ range: Range<Int>) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    var i = range.lowerBound
    let end = range.upperBound
    while i + 2 < end {
      guard let found = memchr(base + i, 0x2D, end - 2 - i) else { return false }
      i = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      if bytes[i + 1] == 0x2D && bytes[i + 2] == 0x3E { return true }
      i += 1
    }
    return false
  }

  /// Whether `range` is `keyword` followed only by ASCII whitespace.
  func startsWithKeyword(_ range: Range<Int>, _ keyword: StaticString) -> Bool {
    let length = keyword.utf8CodeUnitCount
    guard range.count >= length else { return false }
    let k = keyword.utf8Start
    for i in 0..<length where bytes[range.lowerBound + i] != k[i] { return false }
    for i in (range.lowerBound + length)..<range.upperBound where !WebVTTCueTextParser.isWhitespace(bytes[i])
    {
      return false
    }
    return true
  }

  /// Whether `range` is a NOTE block: `NOTE` then a space, tab, LF or nothing.
  func startsWithNote(_ range: Range<Int>) -> Bool {
    guard range.count >= 4, bytes[range.lowerBound] == 0x4E, bytes[range.lowerBound + 1] == 0x4F,
      bytes[range.lowerBound + 2] == 0x54, bytes[range.lowerBound + 3] == 0x45
    else { return false }
    if range.count == 4 { return true }
    let next = bytes[range.lowerBound + 4]
    return next == 0x20 || next == 0x09 || next == 0x0A
  }

  /// The first characters of `range` for a message: at most 60, control characters shown as
  /// U+FFFD, "…" when cut. Reads no more than it shows, however long the line.
  func excerpt(_ range: Range<Int>) -> String {
    var end = min(range.upperBound, range.lowerBound + 240)
    // Do not cut a UTF-8 sequence in two.
    while end < range.upperBound && end > range.lowerBound && bytes[end] & 0xC0 == 0x80 { end -= 1 }
    var out = ""
    var shown = 0
    for scalar in string(range.lowerBound..<end).unicodeScalars {
      if shown == 60 { return out + "…" }
      out.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? "\u{FFFD}" : scalar)
      shown += 1
    }
    return end < range.upperBound ? out + "…" : out
  }

  func string(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  // MARK: Diagnostics

  /// Reports a problem at `offset` on the current line.
  mutating func report(_ code: WebVTTDiagnosticCode, at offset: Int, _ message: @autoclosure () -> String) {
    report(code, at: offset, lineNumber: nil, lineStart: nil, message())
  }

  mutating func report(_ issue: WebVTTIssue) {
    report(issue.code, at: issue.offset, lineNumber: nil, lineStart: nil, issue.message)
  }

  /// Reports a problem at `offset`, which is on line `lineNumber` starting at `lineStart` when
  /// known, else found by counting lines (only ever done for a diagnostic).
  mutating func report(
    _ code: WebVTTDiagnosticCode, at offset: Int, lineNumber: Int?, lineStart: Int?,
    _ message: @autoclosure () -> String
  ) {
    guard diagnostics.count < WebVTTParser.diagnosticLimit else {
      dropped += 1
      return
    }
    var number = lineNumber ?? 0
    var start = lineStart ?? 0
    if lineNumber == nil {
      // Count from the nearest known line start before the offset.
      (number, start) = (1, 0)
      if offset >= anchorStart { (number, start) = (anchorLine, anchorStart) }
      if offset >= self.lineStart && self.lineStart > start { (number, start) = (line, self.lineStart) }
      var i = start
      while i < offset && i < count {
        if bytes[i] == 0x0A {
          number += 1
          start = i + 1
        }
        i += 1
      }
    }
    var column = 1
    var i = start
    while i < offset && i < count {
      if bytes[i] & 0xC0 != 0x80 { column += 1 }
      i += 1
    }
    let location = SourceLocation(line: number, column: column, offset: offsetBase.map { $0 + offset })
    diagnostics.append(
      Diagnostic(code: code.rawValue, severity: code.severity, message: message(), location: location))
  }
}
