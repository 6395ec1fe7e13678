import StashRecover

/// A stand-in for the WebVTT and GPX assemblers, so the sweep's rules are tested apart from the
/// formats: a part is lines of text; a part whose first line is `TORN` is damaged (its other lines
/// still count); the finished file is the lines in order with `GAP a b` where parts are missing.
struct LineAssembler: PartsAssembler {
  func assemble(_ kind: PartsKind, parts: [Part]) -> Assembly {
    var lines: [String] = []
    var gaps: [Gap] = []
    var damage: [(number: Int, reason: String)] = []
    var expected = 1
    for part in parts {
      if part.number > expected {
        let missing = Array(expected..<part.number)
        gaps.append(Gap(start: Double(expected - 1) * 60, end: Double(part.number - 1) * 60, parts: missing))
        lines.append("GAP \(missing.map(String.init).joined(separator: ","))")
      }
      var partLines = String(decoding: part.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
      if partLines.first == "TORN" {
        damage.append((part.number, "torn"))
        partLines.removeFirst()
      }
      lines += partLines
      expected = part.number + 1
    }
    let text = lines.joined(separator: "\n") + "\n"
    return Assembly(
      bytes: Array(text.utf8), unbroken: gaps.isEmpty && damage.isEmpty, gaps: gaps,
      items: lines.filter { !$0.hasPrefix("GAP") }.count, damage: damage)
  }

  func finished(_ kind: PartsKind, _ finished: [UInt8], holdsAllOf parts: [Part]) -> Bool {
    let lines = Set(String(decoding: finished, as: UTF8.self).split(separator: "\n").map(String.init))
    guard !lines.contains(where: { $0.hasPrefix("GAP") }) else { return false }
    return parts.allSatisfy { part in
      let partLines = String(decoding: part.bytes, as: UTF8.self).split(separator: "\n")
      return partLines.first != "TORN" && partLines.allSatisfy { lines.contains(String($0)) }
    }
  }
}
