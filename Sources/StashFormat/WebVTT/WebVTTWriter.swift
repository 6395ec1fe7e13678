/// Writes a `WebVTTDocument` as valid WebVTT that reads back as the same document: identifiers,
/// settings, regions, styles, notes and Stash's notes kept, timestamps with milliseconds and hours
/// when needed. Text that WebVTT cannot carry (a blank line, or `-->` inside a block) is changed
/// as little as possible: blank lines are dropped and `-->` becomes `--&gt;`.
public enum WebVTTWriter {
  /// The file's text.
  public static func serialize(_ document: WebVTTDocument) -> String {
    var out = "WEBVTT"
    out.reserveCapacity(64 + document.cues.count * 80)
    let headerLines = document.headerText.split(separator: "\n", omittingEmptySubsequences: false)
    if let first = headerLines.first, !first.isEmpty { out += " " + replacingNewlines(String(first)) }
    for line in headerLines.dropFirst() where !line.isEmpty && !line.contains("-->") { out += "\n" + line }
    out += "\n\n"
    if let part = document.partSpan { out += stashNote("part", part) }
    for gap in document.missingSpeech { out += stashNote("missing-speech", gap) }
    for region in document.regions { out += "REGION\n" + settings(of: region) + "\n\n" }
    for style in document.styles { out += "STYLE\n" + blockText(style) + "\n\n" }
    var notes = document.notes.sorted { $0.cuesBefore < $1.cuesBefore }[...]
    for (index, cue) in document.cues.enumerated() {
      while let note = notes.first, note.cuesBefore <= index {
        out += noteBlock(note)
        notes = notes.dropFirst()
      }
      write(cue, to: &out)
    }
    for note in notes { out += noteBlock(note) }
    return out
  }

  /// One cue block, with its blank line.
  static func write(_ cue: WebVTTCue, to out: inout String) {
    let id = replacingNewlines(cue.id).replacingArrows(with: "- ->")
    if !id.isEmpty { out += id + "\n" }
    out += WebVTTTimestamp.formatShort(cue.startTime) + " --> " + WebVTTTimestamp.formatShort(cue.endTime)
    let settings = settings(of: cue)
    if !settings.isEmpty { out += " " + settings }
    out += "\n"
    let text = blockText(cue.text)
    if !text.isEmpty { out += text + "\n" }
    out += "\n"
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

  /// A region's settings line (the id always, the rest when not the default).
  static func settings(of region: WebVTTRegion) -> String {
    var parts: [String] = []
    if !region.id.isEmpty { parts.append("id:" + token(region.id)) }
    if region.width != 100 { parts.append("width:" + number(clampPercentage(region.width)) + "%") }
    if region.lines != 3 { parts.append("lines:" + String(max(0, region.lines))) }
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
    return parts.joined(separator: " ")
  }

  static func stashNote(_ kind: String, _ span: WebVTTTimeSpan) -> String {
    "NOTE stash \(kind) \(WebVTTTimestamp.format(span.start)) \(WebVTTTimestamp.format(span.end))\n\n"
  }

  static func noteBlock(_ note: WebVTTNote) -> String {
    let text = note.text.replacingArrows(with: "--&gt;")
    // Keep the note's own first line even when empty ("NOTE\ntext"), but no blank lines after it.
    let lines = replacingCarriageReturns(text).split(separator: "\n", omittingEmptySubsequences: false)
    var out = "NOTE"
    if let first = lines.first, !first.isEmpty || lines.count == 1 {
      if !first.isEmpty { out += " " + first }
    }
    for line in lines.dropFirst() where !line.isEmpty { out += "\n" + line }
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
