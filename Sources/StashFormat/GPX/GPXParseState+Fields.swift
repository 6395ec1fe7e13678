/// What the text of a closed field element becomes, and the diagnostics for text that is not
/// what GPX says it must be.
extension GPXParseState {
  /// Turns the captured text into the value its element names, noting what cannot be read.
  mutating func finishField() {
    let field = capture
    capture = .none
    if textCut {
      note(.gpxTextTooLong, .warning, "a text longer than \(Self.maximumText) bytes was cut there")
    }
    switch field {
    case .none: break
    case .metadataName: document.metadata.name = string()
    case .metadataDescription: document.metadata.description = string()
    case .metadataTime:
      if let parsed = time() {
        document.metadata.time = parsed.seconds
        document.metadata.timeHadZone = parsed.hadZone
      }
    case .trackName: track.name = string()
    case .trackDescription: track.description = string()
    case .trackType: track.type = string()
    case .routeName: route.name = string()
    case .routeDescription: route.description = string()
    case .pointName: point.name = string()
    case .pointDescription: point.description = string()
    case .elevation: point.elevation = number("ele")
    case .time:
      if let parsed = time() {
        point.time = parsed.seconds
        point.timeHadZone = parsed.hadZone
      }
    case .speed:
      if let value = number("speed") {
        if value < 0 {
          note(
            .gpxInvalidSpeed, .info,
            "speed \(DecimalText.format(value)) is negative, which phones write when they have no speed: read as absent"
          )
        } else {
          point.speed = value
        }
      }
    case .course:
      if let value = number("course") {
        if value < 0 || value > 360 {
          note(
            .gpxInvalidCourse, .info,
            "course \(DecimalText.format(value)) is outside 0...360 (phones write -1 when they have none): read as absent"
          )
        } else {
          point.course = value
        }
      }
    case .accuracy:
      if let value = number("horizontalAccuracy") {
        if value < 0 {
          note(
            .gpxInvalidAccuracy, .info,
            "horizontalAccuracy \(DecimalText.format(value)) is negative, which means the fix is invalid: read as absent"
          )
        } else {
          point.horizontalAccuracy = value
        }
      }
    case .hdop: point.hdop = number("hdop")
    }
  }

  private func string() -> String { String(decoding: capturedText, as: UTF8.self) }

  private func quotedText() -> String {
    let text = string()
    let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
    return "'\(shown)'"
  }

  /// The captured number. The element's name is a StaticString: it is only needed for the
  /// message, and a String argument costs a release per call on the hot path.
  private mutating func number(_ element: StaticString) -> Double? {
    if let value = DecimalText.parse(capturedText) { return value }
    note(.gpxBadNumber, .warning, "<\(element)> holds \(quotedText()), not a number: read as absent")
    return nil
  }

  private mutating func time() -> ISO8601Time.Parsed? {
    guard let parsed = ISO8601Time.parse(capturedText) else {
      note(
        .gpxBadTime, .warning,
        "<time> holds \(quotedText()), not an xsd:dateTime such as 2026-05-01T09:30:12.5Z: read as absent")
      return nil
    }
    if !parsed.hadZone {
      note(
        .gpxTimeWithoutZone, .warning,
        "<time> \(quotedText()) has no zone, so the instant is unknown: read as if UTC; GPX times should end in Z"
      )
    }
    return parsed
  }
}
