/// Writes a `WebVTTDocument` as valid WebVTT that reads back as the same document: identifiers,
/// settings, regions, styles, notes and Stash's notes kept, timestamps with milliseconds and hours
/// when needed. Text that WebVTT cannot carry (a blank line, or `-->` inside a block) is changed
/// as little as possible: blank lines are dropped and `-->` becomes `--&gt;`.
public enum WebVTTWriter {
  /// The file's text.
  public static func serialize(_ document: WebVTTDocument) -> String {
    String(decoding: bytes(document), as: UTF8.self)
  }

  /// The file's bytes (UTF-8): what `serialize` returns, built without going through `String`.
  public static func bytes(_ document: WebVTTDocument) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(64 + document.cues.reduce(0) { $0 + $1.id.utf8.count + $1.text.utf8.count + 32 })
    out += "WEBVTT".utf8
    let headerLines = document.headerText.split(separator: "\n", omittingEmptySubsequences: false)
    if let first = headerLines.first, !first.isEmpty {
      out.append(UInt8(ascii: " "))
      out += replacingNewlines(String(first)).utf8
    }
    for line in headerLines.dropFirst() where !line.isEmpty && !line.contains("-->") {
      out.append(newline)
      out += line.utf8
    }
    out += [newline, newline]
    if let part = document.partSpan { out += stashNote("part", part).utf8 }
    for gap in document.missingSpeech { out += stashNote("missing-speech", gap).utf8 }
    for region in document.regions { out += ("REGION\n" + settings(of: region) + "\n\n").utf8 }
    for style in document.styles { out += ("STYLE\n" + blockText(style) + "\n\n").utf8 }
    var notes = document.notes.sorted { $0.cuesBefore < $1.cuesBefore }[...]
    for (index, cue) in document.cues.enumerated() {
      while let note = notes.first, note.cuesBefore <= index {
        out += noteBlock(note).utf8
        notes = notes.dropFirst()
      }
      write(cue, to: &out)
    }
    for note in notes { out += noteBlock(note).utf8 }
    return out
  }

  private static let newline = UInt8(ascii: "\n")

  /// One cue block, with its blank line. The common cue (plain identifier and text, default
  /// settings) is copied byte for byte; anything that needs changing goes through the text rules.
  static func write(_ cue: WebVTTCue, to out: inout [UInt8]) {
    if !cue.id.isEmpty {
      if isPlain(cue.id, isPlainLine) {
        append(cue.id, to: &out)
      } else {
        out += replacingNewlines(cue.id).replacingArrows(with: "- ->").utf8
      }
      out.append(newline)
    }
    appendShortTimestamp(cue.startTime, to: &out)
    out += " --> ".utf8
    appendShortTimestamp(cue.endTime, to: &out)
    if !hasDefaultSettings(cue) {
      let settings = settings(of: cue)
      if !settings.isEmpty {
        out.append(UInt8(ascii: " "))
        out += settings.utf8
      }
    }
    out.append(newline)
    if isPlain(cue.text, isPlainBlock) {
      if !cue.text.isEmpty {
        append(cue.text, to: &out)
        out.append(newline)
      }
    } else {
      let text = blockText(cue.text)
      if !text.isEmpty {
        out += text.utf8
        out.append(newline)
      }
    }
    out.append(newline)
  }

  /// The text's UTF-8, copied in one piece.
  static func append(_ text: String, to out: inout [UInt8]) {
    if text.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil {
      out.append(contentsOf: text.utf8)
    }
  }

  /// `test` on the text's UTF-8, as one buffer when the string has one (native strings do).
  static func isPlain(_ text: String, _ test: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
    if let result = text.utf8.withContiguousStorageIfAvailable(test) { return result }
    return Array(text.utf8).withUnsafeBufferPointer(test)
  }

  /// Whether `settings(of:)` would be empty, checked without building it.
  static func hasDefaultSettings(_ cue: WebVTTCue) -> Bool {
    cue.vertical == .horizontal && cue.line == nil && cue.position == nil && cue.size == 100
      && cue.align == .center && (cue.region?.isEmpty ?? true)
  }

  /// Whether `text` is written unchanged on one line: no line break, NUL or `-->`.
  static func isPlainLine(_ text: some Collection<UInt8>) -> Bool {
    var dashes = 0
    for byte in text {
      switch byte {
      case 0x0A, 0x0D, 0: return false
      case UInt8(ascii: "-"): dashes += 1
      case UInt8(ascii: ">") where dashes >= 2: return false
      default: dashes = 0
      }
    }
    return true
  }

  /// Whether `blockText(text)` is `text` itself: no CR, NUL or `-->`, and no blank line (no line
  /// break at either end, none doubled).
  static func isPlainBlock(_ text: some BidirectionalCollection<UInt8>) -> Bool {
    guard text.first != newline, text.last != newline else { return false }
    var dashes = 0
    var previous: UInt8 = 0
    for byte in text {
      switch byte {
      case 0x0D, 0: return false
      case newline where previous == newline: return false
      case UInt8(ascii: "-"): dashes += 1
      case UInt8(ascii: ">") where dashes >= 2: return false
      default: dashes = 0
      }
      previous = byte
    }
    return true
  }

  /// `WebVTTTimestamp.formatShort(seconds)`, written straight into `out` with integer arithmetic.
  static func appendShortTimestamp(_ seconds: Double, to out: inout [UInt8]) {
    let total = seconds.isFinite && seconds > 0 ? (seconds * 1000).rounded() : 0
    // Beyond what an Int64 holds exactly, the general formatter's huge-number path applies.
    guard total < 1e15 else {
      out += WebVTTTimestamp.formatShort(seconds).utf8
      return
    }
    let milliseconds = Int64(total)
    let wholeSeconds = milliseconds / 1000
    let hours = wholeSeconds / 3600
    if hours > 0 {
      Text.appendZeroPadded(Int(hours), width: 2, to: &out)
      out.append(UInt8(ascii: ":"))
    }
    Text.appendZeroPadded(Int(wholeSeconds / 60 % 60), width: 2, to: &out)
    out.append(UInt8(ascii: ":"))
    Text.appendZeroPadded(Int(wholeSeconds % 60), width: 2, to: &out)
    out.append(UInt8(ascii: "."))
    Text.appendZeroPadded(Int(milliseconds % 1000), width: 3, to: &out)
  }

  /// The cue settings that differ from the defaults, region last so that no other setting can
  /// take the cue out of it on reading.
  public static func settings(of cue: WebVTTCue) -> String {
    var parts: [String] = []
    if cue.vertical != .horizontal { parts.append("vertical:" + cue.vertical.rawValue) }
    if let line = cue.line {
      var value = cue.snapToLines ? number(line) : number(clampPercentage(line)) + "%"
      if cue.lineAlign != .start { value += "," + cue.lineAlign.rawValue }
      parts.append("line:" + value)
    }
    if let position = cue.position {
      var value = number(clampPercentage(position)) + "%"
      if cue.positionAlign != .auto { value += "," + cue.positionAlign.rawValue }
      parts.append("position:" + value)
    }
    if cue.size != 100 { parts.append("size:" + number(clampPercentage(cue.size)) + "%") }
    if cue.align != .center { parts.append("align:" + cue.align.rawValue) }
    if let region = cue.region, !region.isEmpty { parts.append("region:" + token(region)) }
    return parts.joined(separator: " ")
  }

  /// A region's settings line (the id always, the rest when not the default). A region with
  /// nothing but defaults says its width: a REGION line alone is no region on reading.
  static func settings(of region: WebVTTRegion) -> String {
    var parts: [String] = []
    if !region.id.isEmpty { parts.append("id:" + token(region.id)) }
    if region.width != 100 { parts.append("width:" + number(clampPercentage(region.width)) + "%") }
    if region.lines != 3 { parts.append("lines:" + (region.linesBeyondInt ?? String(max(0, region.lines)))) }
    if region.regionAnchorX != 0 || region.regionAnchorY != 100 {
      parts.append(
        "regionanchor:" + number(clampPercentage(region.regionAnchorX)) + "%,"
          + number(clampPercentage(region.regionAnchorY)) + "%")
    }
    if region.viewportAnchorX != 0 || region.viewportAnchorY != 100 {
      parts.append(
        "viewportanchor:" + number(clampPercentage(region.viewportAnchorX)) + "%,"
          + number(clampPercentage(region.viewportAnchorY)) + "%")
    }
    if region.scroll == .up { parts.append("scroll:up") }
    return parts.isEmpty ? "width:100%" : parts.joined(separator: " ")
  }

  static func stashNote(_ kind: String, _ span: WebVTTTimeSpan) -> String {
    "NOTE stash \(kind) \(WebVTTTimestamp.format(span.start)) \(WebVTTTimestamp.format(span.end))\n\n"
  }

  static func noteBlock(_ note: WebVTTNote) -> String {
    let text = note.text.replacingArrows(with: "--&gt;")
    let lines = replacingCarriageReturns(text).split(separator: "\n", omittingEmptySubsequences: false)
    // Blank lines would end the block: they are dropped, but the first line is kept even when
    // empty, after "NOTE ": "NOTE \ntext" reads back as "\ntext", while "NOTE\ntext" would read
    // back as "text".
    let rest = lines.dropFirst().filter { !$0.isEmpty }
    var out = "NOTE"
    if !lines[0].isEmpty || !rest.isEmpty { out += " " + lines[0] }
    for line in rest { out += "\n" + line }
    return out + "\n\n"
  }

  /// Text for a block body: no CR or NUL, no blank lines, no `-->`.
  static func blockText(_ text: String) -> String {
    let clean = replacingCarriageReturns(text).replacingArrows(with: "--&gt;")
    guard clean.contains("\n\n") || clean.hasPrefix("\n") || clean.hasSuffix("\n") else { return clean }
    return clean.split(separator: "\n").joined(separator: "\n")
  }

  static func replacingCarriageReturns(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x0D || $0 == 0 }) else { return text }
    return String(
      String.UnicodeScalarView(
        text.replacingCRLF().unicodeScalars.map { $0 == "\r" ? "\n" : $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
  }

  static func replacingNewlines(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) else { return text }
    return String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
  }

  /// A value for a `name:value` setting: whitespace cannot be in one.
  static func token(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.filter { !($0.isASCII && WebVTTCueTextParser.isWhitespace(UInt8($0.value))) })
    )
    .replacingArrows(with: "- ->")
  }

  static func clampPercentage(_ value: Double) -> Double {
    value.isNaN ? 0 : min(max(value, 0), 100)
  }

  /// A number in plain decimal (no exponent), shortest that reads back as the same double.
  public static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    var text = "\(value)"
    if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      let exponent = Int(text[text.index(after: e)...])!
      var mantissa = String(text[..<e])
      let negative = mantissa.hasPrefix("-")
      if negative { mantissa.removeFirst() }
      let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
      let whole = String(parts[0])
      let fraction = parts.count > 1 ? String(parts[1]) : ""
      let digits = whole + fraction
      let point = whole.count + exponent
      if point <= 0 {
        text = "0." + String(repeating: "0", count: -point) + digits
      } else if point >= digits.count {
        text = digits + String(repeating: "0", count: point - digits.count)
      } else {
        text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
      }
      if negative { text = "-" + text }
    }
    if text.hasSuffix(".0") { text.removeLast(2) }
    if text.contains(".") {
      while text.hasSuffix("0") { text.removeLast() }
      if text.hasSuffix(".") { text.removeLast() }
    }
    return text
  }
}

extension String {
  fileprivate func replacingArrows(with replacement: String) -> String {
    contains("-->") ? replacing("-->", with: replacement) : self
  }

  fileprivate func replacingCRLF() -> String { replacing("\r\n", with: "\n") }
}
