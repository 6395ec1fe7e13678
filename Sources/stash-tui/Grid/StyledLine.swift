/// A line of text in styled runs, before it is placed on the grid.
struct StyledLine: Equatable, Sendable {
  /// One run of text in one style.
  struct Span: Equatable, Sendable {
    var text: String
    var style: Style
  }

  /// The runs, left to right.
  var spans: [Span]
  /// The first span of a field that runs to the end of the line (a name, a transcript's words):
  /// when it holds right-to-left letters the grid isolates it as one unit, so its words keep
  /// their order among themselves. Spans before it are isolated one by one.
  var isolatedFrom: Int?

  /// A line of one style.
  init(_ text: String = "", _ style: Style = .normal) {
    spans = text.isEmpty ? [] : [Span(text: text, style: style)]
  }

  /// A line of several runs.
  init(spans: [Span]) { self.spans = spans }

  /// Marks the spans added from now on as one field (see `isolatedFrom`).
  mutating func startIsolatedField() { isolatedFrom = spans.count }

  /// Adds a run.
  mutating func append(_ text: String, _ style: Style = .normal) {
    if !text.isEmpty { spans.append(Span(text: text, style: style)) }
  }

  /// Cells the line takes.
  var width: Int { spans.reduce(0) { $0 + CharacterWidth.of($1.text) } }

  /// The line as plain text.
  var text: String { spans.map(\.text).joined() }
}
