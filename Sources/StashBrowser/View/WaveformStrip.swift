#if canImport(Glibc)
  import Glibc
#endif

/// The open memo's loudness drawn over the scrubber, one cell a column, on the row above the
/// transport line: the same columns as the scrubber, so a column is the same stretch of the memo
/// in both (`ScrubberScale`).
///
/// A column is one of eight block heights, linear in dB between the measure's floor (-70 dBFS) and
/// 0 dBFS: about 9 dB a step, so a quiet voice in a quiet room (-40) stands three steps above the
/// room (-60 and below) and a loud one (-6) reaches the top without flattening the rest, as a
/// linear amplitude scale would. Silence is the lowest block, never blank, so the played and
/// to-come styles show on it too. A column not yet measured, or whose audio did not decode, is `·`:
/// never drawn as silence. The played part (up to the head) is in the scrubber's played style
/// (bold), the head reversed, the rest dim, as the scrubber beneath it: readable with `NO_COLOR`.
/// Markers (loop ends, cue starts, search hits) go on the scrubber beneath, never over a level.
package enum WaveformStrip {
  /// The block for each step up from the floor.
  static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
  /// A column whose level is not known.
  package static let unknown: Character = "·"

  /// What one column shows.
  package enum Column: Equatable, Sendable {
    /// Not measured yet, or measured and undecodable.
    case unknown
    /// A level in dBFS.
    case level(Double)
  }

  /// The block for a level between `floor` and 0 dBFS.
  package static func block(_ level: Double, floor: Double) -> Character {
    guard floor < 0 else { return blocks[0] }
    let step = Int(((level - floor) / -floor * Double(blocks.count)).rounded(.down))
    return blocks[min(blocks.count - 1, max(0, step))]
  }

  /// The strip's columns for a scrubber of `scale`: each column gathers the strip's cells whose
  /// middle the scrubber draws in that column (a column no cell's middle falls in takes the cell
  /// under its own time). A column is a level when all its cells are measured and one decoded (the
  /// mean power of those that did), else unknown.
  package static func columns(_ strip: LoudnessStrip, scale: ScrubberScale) -> [Column] {
    let count = strip.levels.count
    var power = [Double](repeating: 0, count: scale.cells)
    var decoded = [Int](repeating: 0, count: scale.cells)
    var pending = [Bool](repeating: false, count: scale.cells)
    var gathered = [Bool](repeating: false, count: scale.cells)
    func add(_ cell: Int, to column: Int) {
      gathered[column] = true
      guard strip.measured[cell] else {
        pending[column] = true
        return
      }
      if let level = strip.levels[cell] {
        power[column] += exp(level / 10 * log(10))
        decoded[column] += 1
      }
    }
    guard count > 0, scale.duration > 0 else { return Array(repeating: .unknown, count: scale.cells) }
    for cell in 0..<count {
      let middle = (Double(cell) + 0.5) / Double(count) * scale.duration
      add(cell, to: scale.cell(at: middle))
    }
    for column in 0..<scale.cells where !gathered[column] {
      let time = scale.time(atCell: column)
      add(min(count - 1, Int(time / scale.duration * Double(count))), to: column)
    }
    return (0..<scale.cells).map { column in
      guard !pending[column], decoded[column] > 0 else { return .unknown }
      return .level(max(strip.floor, 10 * log10(power[column] / Double(decoded[column]))))
    }
  }

  /// The strip for `columns` with the head at `head` (the scrubber's played cell).
  package static func line(_ columns: [Column], head: Int, floor: Double) -> StyledLine {
    var line = StyledLine()
    var run = ""
    var runStyle = Style.scrubberDone
    for (i, column) in columns.enumerated() {
      let style: Style = i == head ? .selected : i < head ? .scrubberDone : .dim
      if style != runStyle {
        line.append(run, runStyle)
        run = ""
        runStyle = style
      }
      switch column {
      case .unknown: run.append(unknown)
      case .level(let level): run.append(block(level, floor: floor))
      }
    }
    line.append(run, runStyle)
    return line
  }

  /// The strip of `strip` over the scrubber of `scale` with the player at `position`; all unknown
  /// while nothing is measured.
  package static func make(_ strip: LoudnessStrip?, scale: ScrubberScale, position: Double) -> StyledLine {
    let shown: [Column] =
      strip.map { columns($0, scale: scale) } ?? Array(repeating: .unknown, count: scale.cells)
    // Without a strip every column is unknown, so no floor is used.
    return line(shown, head: scale.cell(at: position), floor: strip?.floor ?? 0)
  }
}
