/// A NOTE (comment) block. Players ignore it; it is kept so that writing a file back loses nothing.
public struct WebVTTNote: Sendable, Equatable {
  /// The comment text after `NOTE` and the space, tab or line break that follows it.
  public var text: String
  /// How many cues come before the note in the file, so the writer puts it back in its place.
  public var cuesBefore: Int

  /// A note placed after `cuesBefore` cues.
  public init(text: String, cuesBefore: Int) {
    self.text = text
    self.cuesBefore = cuesBefore
  }
}
