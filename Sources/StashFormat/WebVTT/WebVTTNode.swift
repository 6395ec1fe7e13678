/// A node of parsed cue text: the W3C "WebVTT Node Objects" (text, timestamps and the internal
/// objects for `<c>`, `<i>`, `<b>`, `<u>`, `<ruby>`, `<rt>`, `<v>` and `<lang>`).
public enum WebVTTNode: Sendable, Equatable {
  /// What an internal node stands for; the raw value is its tag name.
  public enum Kind: String, Sendable, CaseIterable {
    case `class` = "c"
    case italic = "i"
    case bold = "b"
    case underline = "u"
    case ruby = "ruby"
    case rubyText = "rt"
    case voice = "v"
    case language = "lang"
  }

  /// An internal node: a span of cue text with its tag, classes and children.
  public struct Span: Sendable, Equatable {
    /// Which tag made the span.
    public var kind: Kind
    /// The span's classes (`<c.one.two>`), empty ones left out as the spec says.
    public var classes: [String]
    /// The tag's annotation: the voice name of `<v>`, the language tag of `<lang>`; nil for others.
    public var annotation: String?
    /// The applicable language: the innermost enclosing `<lang>`'s tag (for `<lang>`, its own), or nil.
    public var language: String?
    /// The nodes inside the span.
    public var children: [WebVTTNode]

    /// A span of `kind` holding `children`.
    public init(
      kind: Kind, classes: [String] = [], annotation: String? = nil, language: String? = nil,
      children: [WebVTTNode] = []
    ) {
      self.kind = kind
      self.classes = classes
      self.annotation = annotation
      self.language = language
      self.children = children
    }
  }

  /// Text, with character references already decoded.
  case text(String)
  /// An inline timestamp (`<00:01:02.500>`), in seconds: when the words after it are spoken.
  case timestamp(Double)
  /// A span with children.
  indirect case span(Span)
}
