/// Answers "which cue is spoken at t" in O(log n) for any cue list, overlapping or out of order:
/// cues sorted by start, and a max-tree of their end times to find the latest-started cue still
/// running.
struct WebVTTTimeline: Sendable {
  /// Cue indices in start order (nil when the file order already is).
  private let order: [Int32]?
  /// Start times in start order.
  private let starts: [Double]
  /// A max segment tree over end times in start order; leaves from `leafBase`.
  private let maxEnd: [Double]
  private let leafBase: Int

  init(cues: [WebVTTCue]) {
    var sorted = true
    for i in cues.indices.dropFirst() where cues[i].startTime < cues[i - 1].startTime {
      sorted = false
      break
    }
    let order: [Int32]? =
      sorted
      ? nil
      : cues.indices.sorted { a, b in
        cues[a].startTime != cues[b].startTime ? cues[a].startTime < cues[b].startTime : a < b
      }.map(Int32.init)
    self.order = order
    let n = cues.count
    starts = (0..<n).map { i in cues[order.map { Int($0[i]) } ?? i].startTime }
    var base = 1
    while base < max(n, 1) { base <<= 1 }
    leafBase = base
    var tree = [Double](repeating: -.infinity, count: 2 * base)
    for i in 0..<n {
      let cue = cues[order.map { Int($0[i]) } ?? i]
      // NaN ends never run.
      tree[base + i] = cue.endTime.isNaN ? -.infinity : cue.endTime
    }
    var node = base - 1
    while node >= 1 {
      tree[node] = max(tree[2 * node], tree[2 * node + 1])
      node -= 1
    }
    maxEnd = tree
  }

  /// The index (in the document's cue list) of the latest-started cue running at `time`.
  func cueIndex(at time: Double) -> Int? {
    guard !starts.isEmpty, !time.isNaN else { return nil }
    // Last position whose start ≤ time.
    var low = 0
    var high = starts.count
    while low < high {
      let mid = (low + high) / 2
      if starts[mid] <= time { low = mid + 1 } else { high = mid }
    }
    guard low > 0 else { return nil }
    guard let position = rightmost(endingAfter: time, upTo: low - 1) else { return nil }
    return order.map { Int($0[position]) } ?? position
  }

  /// The rightmost leaf position ≤ `last` whose end is > `time`, by descending the max-tree.
  private func rightmost(endingAfter time: Double, upTo last: Int) -> Int? {
    func search(_ node: Int, _ low: Int, _ high: Int) -> Int? {
      if low > last || maxEnd[node] <= time { return nil }
      if node >= leafBase { return low }
      let mid = (low + high) / 2
      return search(2 * node + 1, mid + 1, high) ?? search(2 * node, low, mid)
    }
    return search(1, 0, leafBase - 1)
  }
}
