import StashBrowser
import StashPlayback

/// The waveform strip's measure of the memo playing (`LoudnessProfile`), run off the interface
/// thread on its own file handle and decoder, so nothing it does touches the player's. It measures
/// a block of cells at a time (in a block the decoder runs on from cell to cell instead of
/// starting afresh), always the block not yet measured nearest the place being played (`center`,
/// which a seek moves), so the strip fills outward from where the listener is. It hands out value
/// copies of what is known: after the block under the place played, at most every
/// `reportInterval` otherwise, and at the end.
enum LoudnessWork {
  /// Cells a memo's length is cut into: more than any scrubber has columns (a 300-column terminal
  /// gives about 200), so every column gathers at least one cell.
  static let cells = 1000
  /// Cells measured in a row before the measure looks again for the place played.
  static let block = 16
  /// Seconds between two reports while the measure runs.
  static let reportInterval = 0.1

  /// Of the blocks still `remaining`, the one nearest `wanted` (after it before before it, as
  /// `LoudnessProfile.outwardOrder` goes); nil when none is left.
  static func nearest(_ remaining: [Bool], to wanted: Int) -> Int? {
    let center = min(max(0, wanted), remaining.count - 1)
    for distance in 0..<remaining.count {
      if center + distance < remaining.count, remaining[center + distance] { return center + distance }
      if distance > 0, center - distance >= 0, remaining[center - distance] { return center - distance }
    }
    return nil
  }

  /// Measures the memo at `path` (`base` in the reports) from the place played outward: `from`
  /// seconds at first, then wherever `center` says; `report` gets each copy. Stops without a word
  /// when `isCurrent` says false. A memo that cannot be measured at all (no index, no AAC) is
  /// reported as one unknown cell, measured.
  static func run(
    path: String, base: String, from: Double, center: () -> Double?, isCurrent: () -> Bool,
    report: (LoudnessStrip) -> Void
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
    let count = profile.cellCount
    // Blocks laid out so that the first is centred on the cell played at the start.
    let start = profile.cell(atSeconds: from)
    let offset = (start - block / 2) % block
    let first = offset > 0 ? offset - block : offset
    var remaining = Array(repeating: true, count: (count - first + block - 1) / block)
    let clock = ContinuousClock()
    var reported: ContinuousClock.Instant?
    while true {
      let played = profile.cell(atSeconds: center() ?? from)
      let wanted = (played - first) / block
      guard let next = nearest(remaining, to: wanted) else { break }
      remaining[next] = false
      let cells = max(0, first + next * block)..<min(count, first + (next + 1) * block)
      guard profile.fill(cells, shouldStop: { !isCurrent() }) else { return }
      let due = reported.map { clock.now - $0 >= .seconds(reportInterval) } ?? true
      if next == wanted || due {
        report(copy())
        reported = clock.now
      }
    }
    if isCurrent() { report(copy()) }
  }
}
