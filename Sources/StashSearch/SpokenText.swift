import StashFormat

/// A transcript's spoken words as one text (FORMAT.md §8): each cue's text without its markup,
/// timestamps, settings or ruby annotations, references decoded, white space as spaces, the cues
/// joined by one space, so a phrase that runs from one cue into the next is found. Every scalar
/// knows its cue and, through the inline timestamps (§3.4), when its words start.
package struct SpokenText: Sendable {
  /// The text; every white-space scalar of a cue is a space here (one for one, so offsets hold).
  package var text: String
  /// The cues' times, in order.
  package var cues: [(start: Double, end: Double)]
  /// Where each cue's text starts and ends, in scalars of `text`.
  package var cueRanges: [Range<Int>]
  /// Runs of one start time: where each starts in `text` (scalars) and its time, in order; each
  /// has another time than the one before it.
  package var runs: [(offset: Int, time: Double)]

  /// The spoken text of `document`'s cues.
  package init(_ document: WebVTTDocument) {
    // Built as UTF-8 bytes: appending scalar by scalar to a String was most of a search's time.
    // The cues' nodes are walked as `WebVTTCue.runs` walks them, without making a string per run:
    // a run starts where the time changes (one of the same time as the run before it would give
    // the same answers).
    var bytes: [UInt8] = []
    var count = 0
    var runs: [(offset: Int, time: Double)] = []
    var time = 0.0
    func walk(_ nodes: [WebVTTNode]) {
      for node in nodes {
        switch node {
        case .text(let text):
          guard !text.isEmpty else { continue }
          if runs.last?.time != time { runs.append((count, time)) }
          // ASCII text is appended whole, its white space made spaces where it lands (a byte at a
          // time, each append checking the array, was most of this walk).
          let ascii =
            text.utf8.withContiguousStorageIfAvailable { stored -> Bool in
              guard stored.allSatisfy({ $0 < 0x80 }) else { return false }
              let from = bytes.count
              bytes.append(contentsOf: stored)
              bytes.withUnsafeMutableBufferPointer { out in
                for index in from..<out.count where out[index] &- 0x09 < 5 { out[index] = 0x20 }
              }
              count += stored.count
              return true
            } ?? false
          if ascii { continue }
          for scalar in text.unicodeScalars {
            if SpokenText.isWhiteSpace(scalar) {
              bytes.append(0x20)
            } else {
              UTF8.encode(scalar) { bytes.append($0) }
            }
            count += 1
          }
        case .timestamp(let at):
          time = at
        case .span(let span):
          guard span.kind != .rubyText else { continue }
          walk(span.children)
        }
      }
    }
    cues = []
    cueRanges = []
    for cue in document.cues {
      if !cueRanges.isEmpty {
        bytes.append(0x20)
        count += 1
      }
      let start = count
      time = cue.startTime
      walk(cue.nodes)
      cues.append((cue.startTime, cue.endTime))
      cueRanges.append(start..<count)
    }
    self.runs = runs
    text = String(decoding: bytes, as: UTF8.self)
  }

  /// Whether `scalar` is white space (Unicode's White_Space), without asking Unicode's tables
  /// for ASCII: most text is ASCII, and the property lookup was most of a search's time.
  @inline(__always)
  static func isWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x80 { return value == 0x20 || (value >= 0x09 && value <= 0x0D) }
    return scalar.properties.isWhitespace
  }

  /// The cue whose text holds the scalar at `offset` (or the next cue, for a joining space).
  package func cue(at offset: Int) -> Int {
    var low = 0
    var high = cueRanges.count - 1
    while low < high {
      let middle = (low + high) / 2
      if cueRanges[middle].upperBound <= offset { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// When the words at `offset` start: the time of the run holding it.
  package func time(at offset: Int) -> Double {
    var low = 0
    var high = runs.count - 1
    guard high >= 0 else { return 0 }
    while low < high {
      let middle = (low + high + 1) / 2
      if runs[middle].offset <= offset { low = middle } else { high = middle - 1 }
    }
    return runs[low].time
  }
}
