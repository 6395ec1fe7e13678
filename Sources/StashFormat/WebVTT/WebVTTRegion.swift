/// A WebVTT region definition, with the names and defaults of the W3C `VTTRegion` interface.
public struct WebVTTRegion: Sendable, Equatable {
  /// `VTTRegion.scroll`: "" for none, or "up".
  public enum Scroll: String, Sendable, CaseIterable {
    case none = ""
    case up
  }

  /// `VTTRegion.id`; empty when the block gave none (such a region cannot be referred to).
  public var id: String = ""
  /// `VTTRegion.width`, a percentage of the viewport width.
  public var width: Double = 100
  /// `VTTRegion.lines`, the height in lines.
  public var lines: Int = 3
  /// The digits of a `lines` value past `Int.max`, which `lines` holds as `Int.max`: the spec sets
  /// no upper bound, so `inspect` and the writer keep the number as written. Nil otherwise.
  public var linesBeyondInt: String? = nil
  /// `VTTRegion.regionAnchorX`, a percentage of the region's width.
  public var regionAnchorX: Double = 0
  /// `VTTRegion.regionAnchorY`, a percentage of the region's height.
  public var regionAnchorY: Double = 100
  /// `VTTRegion.viewportAnchorX`, a percentage of the viewport's width.
  public var viewportAnchorX: Double = 0
  /// `VTTRegion.viewportAnchorY`, a percentage of the viewport's height.
  public var viewportAnchorY: Double = 100
  /// `VTTRegion.scroll`.
  public var scroll: Scroll = .none

  /// A region with the spec's defaults.
  public init(id: String = "") { self.id = id }
}
