/// A line of text in styled runs, before it is placed on the grid.
package struct StyledLine: Equatable, Sendable {
  /// One run of text in one style.
  package struct Span: Equatable, Sendable {
    package var text: String
    package var style: Style
  }

  /// The runs, left to right.
  package var spans: [Span]
  /// The first span of a field that runs to the end of the line (a name, a transcript's words):
  /// when it holds right-to-left letters the grid isolates it as one unit, so its words keep
  /// their order among themselves. Spans before it are isolated one by one.
  package var isolatedFrom: Int?

  /// A line of one style.
  package init(_ text: String = "", _ style: Style = .normal) {
    spans = text.isEmpty ? [] : [Span(text: text, style: style)]
  }

  /// A line of several runs.
  package init(spans: [Span]) { self.spans = spans }

  /// Marks the spans added from now on as one field (see `isolatedFrom`).
  package mutating func startIsolatedField() { isolatedFrom = spans.count }

  /// Adds a run.
  package mutating func append(_ text: String, _ style: Style = .normal) {
    if !text.isEmpty { spans.append(Span(text: text, style: style)) }
  }

  /// Cells the line takes.
  package var width: Int { spans.reduce(0) { $0 + CharacterWidth.of($1.text) } }

  /// The line as plain text.
  package var text: String { spans.map(\.text).joined() }
}
