import StashBrowser
import StashPlayback

/// The waveform strip's measure of the memo playing (`LoudnessProfile`), run off the interface
/// thread on its own file handle and decoder, so nothing it does touches the player's. It measures
/// the cells around the playing position first, then outward a block at a time (in a block the
/// decoder runs on from cell to cell instead of starting afresh), and hands out value copies of
/// what is known: once the block around the position is done, then at most every
/// `reportInterval`, then at the end.
enum LoudnessWork {
  /// Cells a memo's length is cut into: more than any scrubber has columns (a 300-column terminal
  /// gives about 200), so every column gathers at least one cell.
  static let cells = 1000
  /// Cells measured in a row before the measure turns to the other side of the position.
  static let block = 16
  /// Seconds between two reports while the measure runs.
  static let reportInterval = 0.1

  /// The order the cells are measured in: the block around `start`, then the blocks after and
  /// before it alternately (`LoudnessProfile.outwardOrder` over blocks), each block in order.
  static func order(from start: Int, count: Int, block: Int = block) -> [Int] {
    guard count > 0 else { return [] }
    let size = max(1, block)
    let center = min(max(0, start), count - 1)
    // Blocks laid out so that the first is centred on `start`.
    let offset = (center - size / 2) % size
    let first = offset > 0 ? offset - size : offset
    let blocks = (count - first + size - 1) / size
    let home = (center - first) / size
    var order: [Int] = []
    order.reserveCapacity(count)
    for b in LoudnessProfile.outwardOrder(from: home, count: blocks) {
      let from = first + b * size
      order += (max(0, from)..<min(count, from + size))
    }
    return order
  }

  /// Measures the memo at `path` (`base` in the reports) outward from `from` seconds; `report`
  /// gets each copy. Stops without a word when `isCurrent` says false. A memo that cannot be
  /// measured at all (no index, no AAC) is reported as one unknown cell, measured.
  static func run(
    path: String, base: String, from: Double, isCurrent: () -> Bool, report: (LoudnessStrip) -> Void
  ) {
    let profile: LoudnessProfile
    do {
      profile = try LoudnessProfile(path: path, cells: cells)
    } catch {
      // What the player itself says of the file is on the transport line; the strip only knows
      // nothing.
      if isCurrent() {
        report(LoudnessStrip(base: base, levels: [nil], measured: [true], floor: LoudnessProfile.floor))
      }
      return
    }
    func copy() -> LoudnessStrip {
      LoudnessStrip(
        base: base, levels: profile.levels, measured: profile.measured, floor: LoudnessProfile.floor)
    }
    let clock = ContinuousClock()
    let order = order(from: profile.cell(atSeconds: from), count: profile.cellCount)
    let around = Set(order.prefix(block))
    var aroundLeft = around.count
    var reported: ContinuousClock.Instant?
    let finished = profile.fill(order, shouldStop: { !isCurrent() }) { cell, _ in
      if around.contains(cell) { aroundLeft -= 1 }
      let due = reported.map { clock.now - $0 >= .seconds(reportInterval) } ?? (aroundLeft == 0)
      if due {
        report(copy())
        reported = clock.now
      }
    }
    if finished && isCurrent() { report(copy()) }
  }
}
