/// One terminal cell: a grapheme and its style. A wide grapheme fills its cell and the next, which
/// holds a continuation marker so the pair is always written, moved and cut together.
package struct Cell: Equatable, Sendable {
  /// The grapheme drawn here; empty in the right half of a wide grapheme.
  package var text: String
  /// 2 for a wide grapheme, 1 for a narrow one, 0 for the continuation of a wide one.
  package var width: UInt8
  /// How it is drawn.
  package var style: Style

  /// A blank cell.
  package static let blank = Cell(text: " ", width: 1, style: .normal)

  /// Whether this cell is the right half of a wide grapheme.
  package var isContinuation: Bool { width == 0 }
}
