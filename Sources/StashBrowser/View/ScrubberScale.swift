/// The one mapping between memo time and the scrubber's cells, shared by the scrubber, the
/// waveform strip above it and a click on either: the first cell is the start, the last the end,
/// and a time is drawn in the nearest cell.
package struct ScrubberScale: Equatable, Sendable {
  /// The cells across.
  package var cells: Int
  /// The memo's length in seconds.
  package var duration: Double

  /// A scale of `cells` cells over `duration` seconds.
  package init(cells: Int, duration: Double) {
    self.cells = max(1, cells)
    self.duration = duration
  }

  /// The cell a memo time is drawn in.
  package func cell(at time: Double) -> Int {
    duration > 0 ? Int((Double(cells - 1) * min(1, max(0, time / duration))).rounded()) : 0
  }

  /// The memo time a cell stands for (where a click on it seeks); cells outside clamp to the ends.
  package func time(atCell cell: Int) -> Double {
    let fraction = Double(cell) / Double(max(1, cells - 1))
    return max(0, min(duration, fraction * duration))
  }
}
