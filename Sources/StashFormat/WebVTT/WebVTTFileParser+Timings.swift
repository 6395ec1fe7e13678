#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// "Collect WebVTT cue timings and settings" and "parse the WebVTT cue settings".
extension WebVTTFileParser {
  /// Reads the timing line at `range` into `cue`; false when the algorithm fails (cue dropped).
  /// `idIsNote` says whether the cue's identifier is a NOTE line (the caller has its bytes at hand).
  mutating func timingsAndSettings(
    _ range: Range<Int>, line number: Int, idIsNote: Bool, for cue: inout WebVTTCue
  ) -> Bool {
    let end = range.upperBound
    var position = range.lowerBound
    func fail(_ code: FormatError.Code, at offset: Int, _ message: String) -> Bool {
      report(
        code, at: offset, lineNumber: number, lineStart: range.lowerBound, message + "; the cue is dropped")
      return false
    }
    skipWhitespace(&position, end)
    var shortHours = false
    switch WebVTTTimestamp.collect(bytes, &position, end: end, shortHours: &shortHours) {
    case .failure(let failure):
      return fail(.vttBadTimestamp, at: failure.offset, "bad start time: " + failure.message)
    case .success(let time): cue.startTime = time
    }
    let afterStart = position
    skipWhitespace(&position, end)
    let arrowAt = position
    for expected in [UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: ">")] {
      guard position < end, bytes[position] == expected else {
        return fail(.vttBadArrow, at: position, "expected --> after the start time")
      }
      position += 1
    }
    let afterArrow = position
    skipWhitespace(&position, end)
    let endAt = position
    switch WebVTTTimestamp.collect(bytes, &position, end: end, shortHours: &shortHours) {
    case .failure(let failure):
      return fail(.vttBadTimestamp, at: failure.offset, "bad end time: " + failure.message)
    case .success(let time): cue.endTime = time
    }
    if afterStart == arrowAt || afterArrow == endAt {
      report(
        .vttArrowSpacing, at: afterStart == arrowAt ? arrowAt : afterArrow, lineNumber: number,
        lineStart: range.lowerBound,
        "put a space on each side of -->")
    }
    if shortHours {
      report(
        .vttTimestampForm, at: range.lowerBound, lineNumber: number, lineStart: range.lowerBound,
        "hours take at least two digits (01:02:03.000)")
    }
    if position < end && !WebVTTCueTextParser.isWhitespace(bytes[position]) {
      report(
        .vttBadTimestamp, at: position, lineNumber: number, lineStart: range.lowerBound,
        "text right after the end time; separate settings from it with a space")
    }
    // Most timing lines end here: no settings to read.
    var settingsStart = position
    skipWhitespace(&settingsStart, end)
    if settingsStart < end {
      settings(position..<end, line: number, lineStart: range.lowerBound, for: &cue)
    }
    if !(cue.endTime > cue.startTime) {
      report(
        .vttEndNotAfterStart, at: range.lowerBound, lineNumber: number, lineStart: range.lowerBound,
        "the cue ends (\(WebVTTTimestamp.formatShort(cue.endTime))) at or before its start (\(WebVTTTimestamp.formatShort(cue.startTime)))"
      )
    }
    if let previous = previousCueStart, cue.startTime < previous {
      report(
        .vttCueOutOfOrder, at: range.lowerBound, lineNumber: number, lineStart: range.lowerBound,
        "the cue starts (\(WebVTTTimestamp.formatShort(cue.startTime))) before the cue before it (\(WebVTTTimestamp.formatShort(previous)))"
      )
    }
    previousCueStart = max(previousCueStart ?? cue.startTime, cue.startTime)
    if idIsNote {
      report(
        .vttNoteWithArrow, at: range.lowerBound, lineNumber: number, lineStart: range.lowerBound,
        "a NOTE followed by a line with --> is read as a cue with the id \"NOTE…\"; a NOTE must not contain -->"
      )
    }
    return true
  }

  /// Skips ASCII whitespace (within a line: space, tab, form feed).
  func skipWhitespace(_ position: inout Int, _ end: Int) {
    while position < end && WebVTTCueTextParser.isWhitespace(bytes[position]) { position += 1 }
  }

  /// The next whitespace-separated token at or after `position` in `range`, moving past it.
  func nextToken(_ position: inout Int, in range: Range<Int>) -> Range<Int>? {
    skipWhitespace(&position, range.upperBound)
    let start = position
    while position < range.upperBound && !WebVTTCueTextParser.isWhitespace(bytes[position]) { position += 1 }
    return position > start ? start..<position : nil
  }

  /// Splits a `name:value` token; nil when it has no colon or the first is at either end.
  func nameAndValue(_ token: Range<Int>) -> (name: Range<Int>, value: Range<Int>)? {
    var colon = token.lowerBound
    while colon < token.upperBound && bytes[colon] != UInt8(ascii: ":") { colon += 1 }
    guard colon < token.upperBound, colon != token.lowerBound, colon != token.upperBound - 1 else {
      return nil
    }
    return (token.lowerBound..<colon, colon + 1..<token.upperBound)
  }

  /// Whether the bytes of `range` are exactly `text` (ASCII).
  func equals(_ range: Range<Int>, _ text: StaticString) -> Bool {
    guard range.count == text.utf8CodeUnitCount else { return false }
    let t = text.utf8Start
    for i in 0..<range.count where bytes[range.lowerBound + i] != t[i] { return false }
    return true
  }

  /// The cue setting names, in the order of the bits that record which were seen.
  private static let settingNames: [StaticString] = [
    "region", "vertical", "line", "position", "size", "align",
  ]

  mutating func settings(_ range: Range<Int>, line number: Int, lineStart: Int, for cue: inout WebVTTCue) {
    var seen = 0
    var regionSet = false
    var leavesRegion = false
    var position = range.lowerBound
    while let token = nextToken(&position, in: range) {
      func bad(_ message: @autoclosure () -> String) {
        report(
          .vttBadSetting, at: token.lowerBound, lineNumber: number, lineStart: lineStart,
          message() + "; it is ignored")
      }
      guard let (nameRange, valueRange) = nameAndValue(token) else {
        bad("cue setting \"\(string(token))\" is not name:value")
        continue
      }
      var which = 0
      while which < Self.settingNames.count && !equals(nameRange, Self.settingNames[which]) { which += 1 }
      guard which < Self.settingNames.count else {
        bad("unknown cue setting \"\(string(nameRange))\"")
        continue
      }
      if seen & (1 << which) != 0 {
        report(
          .vttDuplicateSetting, at: token.lowerBound, lineNumber: number, lineStart: lineStart,
          "cue setting \(Self.settingNames[which]) is given more than once; the last valid one counts")
      }
      seen |= 1 << which
      let value = string(valueRange)
      switch which {
      case 0:  // region
        if let region = document.regions.last(where: { $0.id == value }) {
          cue.region = region.id
          regionSet = true
        } else {
          cue.region = nil
          report(
            .vttUnknownRegion, at: token.lowerBound, lineNumber: number, lineStart: lineStart,
            "no REGION block defines the region \"\(value)\"")
        }
      case 1:  // vertical
        if value == "rl" {
          cue.vertical = .rl
        } else if value == "lr" {
          cue.vertical = .lr
        } else {
          bad("vertical takes rl or lr, not \"\(value)\"")
        }
        if cue.vertical != .horizontal {
          cue.region = nil
          leavesRegion = true
        }
      case 2:  // line
        lineSetting(value, &cue, bad)
        if cue.line != nil {
          cue.region = nil
          leavesRegion = true
        }
      case 3:  // position
        var position = value
        var alignment: String? = nil
        if let comma = value.firstIndex(of: ",") {
          position = String(value[..<comma])
          alignment = String(value[value.index(after: comma)...])
        }
        guard let number = Self.percentage(position) else {
          bad("position takes a percentage from 0% to 100%, not \"\(position)\"")
          continue
        }
        switch alignment {
        case "line-left": cue.positionAlign = .lineLeft
        case "center": cue.positionAlign = .center
        case "line-right": cue.positionAlign = .lineRight
        case nil: break
        default:
          bad("position alignment takes line-left, center or line-right, not \"\(alignment!)\"")
          continue
        }
        cue.position = number
      case 4:  // size
        guard let number = Self.percentage(value) else {
          bad("size takes a percentage from 0% to 100%, not \"\(value)\"")
          continue
        }
        cue.size = number
        if number != 100 {
          cue.region = nil
          leavesRegion = true
        }
      default:  // align
        if let align = WebVTTCue.Align(rawValue: value) {
          cue.align = align
        } else {
          bad("align takes start, center, end, left or right, not \"\(value)\"")
        }
      }
    }
    if regionSet && leavesRegion {
      report(
        .vttRegionConflict, at: range.lowerBound, lineNumber: number, lineStart: lineStart,
        "a cue in a region cannot also have vertical, line or size (other than 100%); depending on the order, the region or the setting is lost"
      )
    }
  }

  /// The `line` setting, step for step.
  func lineSetting(_ value: String, _ cue: inout WebVTTCue, _ bad: (@autoclosure () -> String) -> Void) {
    var linePosition = Substring(value)
    var alignment: Substring? = nil
    if let comma = value.firstIndex(of: ",") {
      linePosition = value[..<comma]
      alignment = value[value.index(after: comma)...]
    }
    let utf8 = linePosition.utf8
    guard utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) else {
      bad("line takes a number or a percentage, not \"\(linePosition)\"")
      return
    }
    let number: Double
    let isPercentage = utf8.last == UInt8(ascii: "%")
    if isPercentage {
      guard let percentage = Self.percentage(String(linePosition)) else {
        bad("line percentage must be from 0% to 100%, not \"\(linePosition)\"")
        return
      }
      number = percentage
    } else {
      let characters = Array(utf8)
      let allowed = characters.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x2E }
      let innerMinus = characters.dropFirst().contains(0x2D)
      let dots = characters.filter { $0 == 0x2E }.count
      var dotOK = true
      if let dot = characters.firstIndex(of: 0x2E) {
        dotOK =
          dot > 0 && dot < characters.count - 1
          && (characters[dot - 1] >= 0x30 && characters[dot - 1] <= 0x39)
          && (characters[dot + 1] >= 0x30 && characters[dot + 1] <= 0x39)
      }
      // HTML's rules for floating-point numbers: a value too large for a double is an error, and
      // -0 reads as 0.
      guard allowed, !innerMinus, dots <= 1, dotOK, let parsed = Double(String(linePosition)), parsed.isFinite
      else {
        bad("line takes a number such as -1 or 2.5, or a percentage, not \"\(linePosition)\"")
        return
      }
      number = parsed == 0 ? 0 : parsed
    }
    switch alignment {
    case "start": cue.lineAlign = .start
    case "center": cue.lineAlign = .center
    case "end": cue.lineAlign = .end
    case nil: break
    default:
      bad("line alignment takes start, center or end, not \"\(alignment!)\"")
      return
    }
    cue.line = number
    cue.snapToLines = !isPercentage
  }

  /// "Parse a percentage string": digits, optionally `.` and digits, then `%`, from 0 to 100.
  static func percentage(_ text: String) -> Double? {
    let utf8 = Array(text.utf8)
    guard utf8.count >= 2, utf8.last == UInt8(ascii: "%") else { return nil }
    let number = utf8.dropLast()
    var sawDot = false
    var digitsBefore = 0
    var digitsAfter = 0
    for b in number {
      if b == UInt8(ascii: ".") {
        guard !sawDot else { return nil }
        sawDot = true
      } else if b >= 0x30 && b <= 0x39 {
        if sawDot { digitsAfter += 1 } else { digitsBefore += 1 }
      } else {
        return nil
      }
    }
    guard digitsBefore > 0, !sawDot || digitsAfter > 0 else { return nil }
    guard let value = Double(String(decoding: number, as: UTF8.self)), value >= 0, value <= 100 else {
      return nil
    }
    return value
  }

  /// Checks a cue's text for the linter (tags, timestamps, references) without building nodes.
  mutating func checkCueText(_ range: Range<Int>, start: Double, end: Double) {
    // Plain text, and the tags and timestamps Stash writes, need no tokenizing.
    if WebVTTCueTextParser.isCertainlyClean(bytes, range, cueStart: start, cueEnd: end) { return }
    checker.check(range, cueStart: start, cueEnd: end)
    dropped += checker.droppedIssues
    if checker.issues.isEmpty { return }
    // In file order, so finding their lines and columns only moves forward.
    var issues = checker.issues
    if zip(issues, issues.dropFirst()).contains(where: { $0.offset > $1.offset }) {
      issues.sort { $0.offset < $1.offset }
    }
    for issue in issues { report(issue) }
  }
}
