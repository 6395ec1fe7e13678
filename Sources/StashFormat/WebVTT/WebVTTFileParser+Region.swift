/// "Collect WebVTT region settings", and Stash's NOTE blocks.
extension WebVTTFileParser {
  mutating func regionSettings(_ buffer: Range<Int>?) -> WebVTTRegion {
    var region = WebVTTRegion()
    guard let buffer else {
      report(.vttBadRegionID, at: anchorStart, "a REGION block without an id cannot be used by any cue")
      return region
    }
    var seen: Set<String> = []
    var position = buffer.lowerBound
    while let token = nextToken(&position, in: buffer) {
      func bad(_ message: @autoclosure () -> String) {
        report(.vttBadRegionSetting, at: token.lowerBound, message() + "; it is ignored")
      }
      guard let (nameRange, valueRange) = nameAndValue(token) else {
        bad("region setting \"\(string(token))\" is not name:value")
        continue
      }
      let name = string(nameRange)
      let value = string(valueRange)
      if !seen.insert(name).inserted {
        report(
          .vttDuplicateRegionSetting, at: token.lowerBound,
          "region setting \(name) is given more than once; the last valid one counts")
      }
      switch name {
      case "id":
        region.id = value
      case "width":
        if let width = Self.percentage(value) {
          region.width = width
        } else {
          bad("width takes a percentage from 0% to 100%, not \"\(value)\"")
        }
      case "lines":
        guard value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
          bad("lines takes a whole number, not \"\(value)\"")
          continue
        }
        // Saturates rather than overflows, keeping the digits of a count too big for 64 bits.
        var number = 0
        for digit in value.utf8 {
          let (times, o1) = number.multipliedReportingOverflow(by: 10)
          let (sum, o2) = times.addingReportingOverflow(Int(digit - 0x30))
          number = o1 || o2 ? Int.max : sum
        }
        region.lines = number
        region.linesBeyondInt = number == Int.max ? String(value.drop { $0 == "0" }) : nil
      case "regionanchor", "viewportanchor":
        guard let comma = value.firstIndex(of: ","),
          let x = Self.percentage(String(value[..<comma])),
          let y = Self.percentage(String(value[value.index(after: comma)...]))
        else {
          bad("\(name) takes two percentages, as in 0%,100%, not \"\(value)\"")
          continue
        }
        if name == "regionanchor" {
          (region.regionAnchorX, region.regionAnchorY) = (x, y)
        } else {
          (region.viewportAnchorX, region.viewportAnchorY) = (x, y)
        }
      case "scroll":
        if value == "up" { region.scroll = .up } else { bad("scroll takes only up, not \"\(value)\"") }
      default:
        bad("unknown region setting \"\(name)\"")
      }
    }
    if region.id.isEmpty {
      report(.vttBadRegionID, at: buffer.lowerBound, "a REGION block without an id cannot be used by any cue")
    } else if document.regions.contains(where: { $0.id == region.id }) {
      report(
        .vttBadRegionID, at: buffer.lowerBound,
        "region id \"\(region.id)\" is used twice; cues get the last one"
      )
    }
    return region
  }

  /// A NOTE block: Stash's `NOTE stash missing-speech|part <start> <end>`, or a comment kept as is.
  mutating func note(_ text: String, at offset: Int, line: Int) {
    // Only a short note can be Stash's; do not split a long comment into words to find out.
    let utf8 = text.utf8
    guard utf8.count < 200, utf8.starts(with: "stash".utf8),
      utf8.count == 5 || [0x20, 0x09, 0x0A].contains(utf8.dropFirst(5).first!)
    else {
      document.notes.append(WebVTTNote(text: text, cuesBefore: cues.count))
      return
    }
    // The words, found in the bytes without making a string of each (every transcript part has
    // such a note, and a sweep reads tens of thousands): the first is `stash`, as checked above.
    var bytes = text
    let (kind, wordCount, start, end) = bytes.withUTF8 { bytes -> (String, Int, Double?, Double?) in
      var words: [Range<Int>] = []
      var index = 0
      // Five are enough to tell a note of four words from a longer one.
      while index < bytes.count && words.count < 5 {
        while index < bytes.count && [0x20, 0x09, 0x0A].contains(bytes[index]) { index += 1 }
        let first = index
        while index < bytes.count && ![0x20, 0x09, 0x0A].contains(bytes[index]) { index += 1 }
        if index > first { words.append(first..<index) }
      }
      func word(_ n: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[words[n]]) }
      let kind = words.count > 1 ? String(decoding: word(1), as: UTF8.self) : ""
      guard words.count == 4 else { return (kind, words.count, nil, nil) }
      return (kind, 4, WebVTTTimestamp.parse(word(2)), WebVTTTimestamp.parse(word(3)))
    }
    guard kind == "missing-speech" || kind == "part" else {
      report(
        .vttBadStashNote, at: offset,
        "NOTE stash \(kind) is not a note Stash knows (missing-speech, part); it is kept as a comment")
      document.notes.append(WebVTTNote(text: text, cuesBefore: cues.count))
      return
    }
    guard wordCount == 4, let start, let end, start <= end
    else {
      report(
        .vttBadStashNote, at: offset,
        "NOTE stash \(kind) needs a start and an end timestamp, start first, as in NOTE stash \(kind) 00:01:00.000 00:02:00.000; it is kept as a comment"
      )
      document.notes.append(WebVTTNote(text: text, cuesBefore: cues.count))
      return
    }
    let span = WebVTTTimeSpan(start: start, end: end)
    if kind == "part" {
      if document.partSpan != nil {
        report(
          .vttBadStashNote, at: offset,
          "a second NOTE stash part; only the first counts, this one is kept as a comment")
        document.notes.append(WebVTTNote(text: text, cuesBefore: cues.count))
        return
      }
      document.partSpan = span
    } else {
      document.missingSpeech.append(span)
    }
    if !cues.isEmpty {
      report(
        .vttStashNoteAfterCue, at: offset,
        "NOTE stash \(kind) belongs before the first cue (it is still read)")
    }
  }
}
