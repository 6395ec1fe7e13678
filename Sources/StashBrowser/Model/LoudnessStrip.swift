/// What is known of a memo's loudness, as the background measure last reported it: a value copy of
/// `LoudnessProfile`'s cells (the model never holds the profile itself, which decodes on its own
/// thread). The cells cut the memo's heard length into equal stretches.
package struct LoudnessStrip: Equatable, Sendable {
  /// The memo measured.
  package var base: String
  /// Each cell's level in dBFS (at least `floor`), nil while unmeasured or when it did not decode.
  package var levels: [Double?]
  /// Whether each cell has been measured (measured with a nil level: unknown for good).
  package var measured: [Bool]
  /// The level every quieter cell reads, in dBFS (the strip's bottom).
  package var floor: Double

  /// A strip of the given cells.
  package init(base: String, levels: [Double?], measured: [Bool], floor: Double) {
    self.base = base
    self.levels = levels
    self.measured = measured
    self.floor = floor
  }

  /// Whether every cell has been measured.
  package var complete: Bool { !measured.contains(false) }
}
