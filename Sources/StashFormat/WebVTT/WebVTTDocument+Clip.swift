extension WebVTTDocument {
  /// The transcript of the span `from`–`to` seconds, its times counted from `from`: what a clip
  /// of the memo's audio hears. A cue that straddles either end is kept, clipped to the span; an
  /// inline timestamp is moved with its cue and dropped when it falls outside the clipped cue.
  /// Notes, diagnostics and the parts' span are left out; missing speech is clipped as cues are.
  public func clipped(from: Double, to: Double) -> WebVTTDocument {
    var cues: [WebVTTCue] = []
    for var cue in self.cues where cue.startTime < to && cue.endTime > from {
      let start = max(cue.startTime, from) - from
      let end = min(cue.endTime, to) - from
      if cue.text.contains("<") {
        let nodes = cue.nodes
        if nodes.contains(where: Self.holdsTimestamp) {
          cue.nodes = Self.shifted(nodes, by: -from, within: start, end)
        }
      }
      cue.startTime = start
      cue.endTime = end
      cues.append(cue)
    }
    let missing = missingSpeech.filter { $0.start < to && $0.end > from }.map {
      WebVTTTimeSpan(start: max($0.start, from) - from, end: min($0.end, to) - from)
    }
    return WebVTTDocument(
      headerText: headerText, regions: regions, styles: styles, cues: cues, missingSpeech: missing)
  }

  private static func holdsTimestamp(_ node: WebVTTNode) -> Bool {
    switch node {
    case .timestamp: return true
    case .text: return false
    case .span(let span): return span.children.contains(where: holdsTimestamp)
    }
  }

  /// `nodes` with every inline timestamp moved by `offset`, and dropped unless strictly between
  /// `start` and `end` (as WebVTT asks of a cue's timestamps).
  private static func shifted(_ nodes: [WebVTTNode], by offset: Double, within start: Double, _ end: Double)
    -> [WebVTTNode]
  {
    nodes.compactMap { node in
      switch node {
      case .timestamp(let time):
        let moved = time + offset
        return moved > start && moved < end ? .timestamp(moved) : nil
      case .text: return node
      case .span(var span):
        span.children = shifted(span.children, by: offset, within: start, end)
        return .span(span)
      }
    }
  }
}
