import StashFormat

/// A seeded generator of WebVTT documents for property tests: the same seed gives the same
/// documents on every machine, so a failure can be replayed.
struct WebVTTRandom {
  private var state: UInt64

  init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

  /// A number in 0..<n (SplitMix64).
  mutating func next(_ n: Int) -> Int {
    state = state &+ 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(n))
  }

  mutating func chance(_ percent: Int) -> Bool { next(100) < percent }

  mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }

  /// Seconds that are a whole number of milliseconds, computed the way the parser computes them.
  mutating func time(upTo seconds: Int) -> Double { Self.seconds(milliseconds: next(seconds * 1000)) }

  static func seconds(milliseconds: Int) -> Double {
    Double(milliseconds / 1000) + Double(milliseconds % 1000) / 1000
  }

  /// Text with everything WebVTT must escape or cannot hold as is: no blank lines, no edge LF.
  mutating func text() -> String {
    let words = [
      "so", "the", "path", "&", "<", ">", "-->", "a<b", "&amp;", "ümlaut", "漢字", "😀", "x\ny", "\"q\"", "--",
      "->",
    ]
    var out = pick(words).replacingOccurrences("\n", "")
    for _ in 0..<next(4) {
      out += pick([" ", "  ", "\t", "\n"]) + pick(words).replacingOccurrences("\n", "")
    }
    return out
  }

  /// A node tree the parser would build back from its own cue text: no adjacent or empty text
  /// nodes, `<rt>` only right inside `<ruby>`, languages inherited from `<lang>`.
  mutating func nodes(depth: Int = 0, language: String? = nil, inRuby: Bool = false) -> [WebVTTNode] {
    var nodes: [WebVTTNode] = []
    for _ in 0..<(1 + next(depth == 0 ? 5 : 3)) {
      let lastIsText: Bool
      if case .text = nodes.last { lastIsText = true } else { lastIsText = false }
      switch next(depth >= 3 ? 2 : 9) {
      case 0:
        if !lastIsText { nodes.append(.text(text())) }
      case 1:
        nodes.append(.timestamp(time(upTo: 40_000)))
      default:
        var kinds: [WebVTTNode.Kind] = [.class, .italic, .bold, .underline, .voice, .language, .ruby]
        if inRuby { kinds.append(.rubyText) }
        let kind = pick(kinds)
        var span = WebVTTNode.Span(kind: kind, language: language)
        if chance(40) {
          span.classes = (0..<(1 + next(3))).map { _ in pick(["unconfirmed", "loud", "a-b", "x_1", "ü"]) }
        }
        if kind == .voice { span.annotation = pick(["Ana", "Bo Li", "A & B", "x>y", ""]) }
        if kind == .language {
          span.annotation = pick(["en", "en-GB", "de", ""])
          span.language = span.annotation
        }
        span.children = self.nodes(depth: depth + 1, language: span.language, inRuby: kind == .ruby)
        nodes.append(.span(span))
      }
    }
    return nodes
  }

  mutating func document() -> WebVTTDocument {
    var document = WebVTTDocument()
    if chance(50) { document.headerText = pick(["", "title", "a - b", " leading space"]) }
    let regionIDs = ["fred", "bill", "r-1"].filter { _ in chance(40) }
    for id in regionIDs {
      var region = WebVTTRegion(id: id)
      if chance(50) { region.width = Double(next(1001)) / 10 }
      if chance(50) { region.lines = next(20) }
      if chance(50) {
        (region.regionAnchorX, region.regionAnchorY) = (Double(next(101)), Double(next(1001)) / 10)
      }
      if chance(50) { (region.viewportAnchorX, region.viewportAnchorY) = (Double(next(101)), 0) }
      if chance(50) { region.scroll = .up }
      document.regions.append(region)
    }
    if chance(30) { document.styles = ["::cue { color: \(pick(["red", "lime"])) }"] }
    if chance(40) {
      document.missingSpeech = [WebVTTTimeSpan(start: 60, end: 61.5), WebVTTTimeSpan(start: 120, end: 120)]
    }
    if chance(20) { document.partSpan = WebVTTTimeSpan(start: 0, end: 60) }
    var start = 0
    for index in 0..<next(30) {
      start += next(5000)
      var cue = WebVTTCue(
        id: chance(50) ? pick(["", "\(index)", "id with spaces", "ü-1"]) : "",
        startTime: Self.seconds(milliseconds: start),
        endTime: Self.seconds(milliseconds: start + 1 + next(8000)),
        nodes: nodes())
      if chance(20) { cue.vertical = pick([.rl, .lr]) }
      if chance(30) {
        cue.snapToLines = chance(50)
        cue.line = cue.snapToLines ? Double(next(21) - 10) + pick([0, 0.5]) : Double(next(1001)) / 10
        cue.lineAlign = pick(WebVTTCue.LineAlign.allCases)
      }
      if chance(30) {
        cue.position = Double(next(101))
        cue.positionAlign = pick(WebVTTCue.PositionAlign.allCases)
      }
      if chance(20) { cue.size = Double(next(1001)) / 10 }
      if chance(30) { cue.align = pick(WebVTTCue.Align.allCases) }
      if !regionIDs.isEmpty && chance(40) { cue.region = pick(regionIDs) }
      document.cues.append(cue)
    }
    for _ in 0..<next(4) {
      document.notes.append(
        WebVTTNote(
          text: pick(["a comment", "two\nlines", "", "stash but not ours"]),
          cuesBefore: next(document.cues.count + 1)))
    }
    document.notes.sort { $0.cuesBefore < $1.cuesBefore }
    return document
  }
}

extension String {
  fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
    replacing(target, with: replacement)
  }
}
