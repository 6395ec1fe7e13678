/// One cue of a WebVTT file: its identifier, timing, settings and raw text. The settings use the
/// names and defaults of the W3C `VTTCue` interface.
public struct WebVTTCue: Sendable, Equatable {
  /// The writing direction (`VTTCue.vertical`): "" for horizontal, "rl" or "lr".
  public enum Vertical: String, Sendable, CaseIterable {
    case horizontal = ""
    case rl
    case lr
  }

  /// Where a cue's line box sits against its line position (`VTTCue.lineAlign`).
  public enum LineAlign: String, Sendable, CaseIterable {
    case start, center, end
  }

  /// Which side of the cue box its position refers to (`VTTCue.positionAlign`).
  public enum PositionAlign: String, Sendable, CaseIterable {
    case lineLeft = "line-left"
    case center
    case lineRight = "line-right"
    case auto
  }

  /// How the text is aligned in the cue box (`VTTCue.align`).
  public enum Align: String, Sendable, CaseIterable {
    case start, center, end, left, right
  }

  /// The cue identifier (empty when the cue has none).
  public var id: String
  /// When the cue starts, in seconds.
  public var startTime: Double
  /// When the cue ends, in seconds.
  public var endTime: Double
  /// The raw cue text, tags and character references as written, lines joined by LF.
  public var text: String
  /// `VTTCue.vertical`.
  public var vertical: Vertical = .horizontal
  /// `VTTCue.snapToLines`: false when `line` is a percentage.
  public var snapToLines: Bool = true
  /// `VTTCue.line`: nil is "auto"; a line number when `snapToLines`, else a percentage.
  public var line: Double? = nil
  /// `VTTCue.lineAlign`.
  public var lineAlign: LineAlign = .start
  /// `VTTCue.position`: nil is "auto", else a percentage.
  public var position: Double? = nil
  /// `VTTCue.positionAlign`.
  public var positionAlign: PositionAlign = .auto
  /// `VTTCue.size`, a percentage.
  public var size: Double = 100
  /// `VTTCue.align`.
  public var align: Align = .center
  /// The identifier of the cue's region (`VTTCue.region`), or nil.
  public var region: String? = nil

  /// A cue with default settings and `text` taken as raw cue text (tags and references as written).
  public init(id: String = "", startTime: Double, endTime: Double, text: String) {
    self.id = id
    self.startTime = startTime
    self.endTime = endTime
    self.text = text
  }

  /// A cue with default settings whose text is written from `nodes`, escaping what needs it.
  public init(id: String = "", startTime: Double, endTime: Double, nodes: [WebVTTNode]) {
    self.init(id: id, startTime: startTime, endTime: endTime, text: WebVTTNode.cueText(of: nodes))
  }

  /// The cue text parsed into its node tree, by the W3C cue text parsing rules. Setting it rewrites
  /// `text`.
  public var nodes: [WebVTTNode] {
    get { WebVTTCueTextParser.nodes(of: text) }
    set { text = WebVTTNode.cueText(of: newValue) }
  }
}
