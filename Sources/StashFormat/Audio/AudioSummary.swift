/// What a listing needs to know about a memo's audio, read cheaply from the MP4 boxes.
public struct AudioSummary: Sendable, Equatable {
  /// The condition of the audio file.
  public enum State: Sendable, Equatable {
    /// Complete and readable.
    case ok
    /// Cut short by a kill: plays up to its last whole sample; `tailBytes` follow it.
    case cutShort(tailBytes: Int)
    /// Nothing can be played; the reason is in plain words.
    case damaged(reason: String)
    /// Plays, but its length cannot be read from the index; the reason is in plain words.
    case lengthUnreadable(reason: String)
  }

  public var state: State
  /// Length in seconds after priming is removed, or nil when unknown.
  public var durationSeconds: Double?
  /// The creation time the file records (mvhd), seconds since 1970 UTC, or nil.
  public var creationTime: Double?
  /// Whether the file is laid out in fragments (moof + mdat).
  public var fragmented: Bool

  public init(state: State, durationSeconds: Double?, creationTime: Double?, fragmented: Bool) {
    self.state = state
    self.durationSeconds = durationSeconds
    self.creationTime = creationTime
    self.fragmented = fragmented
  }

  /// Reads the summary of the audio file at `path`; problems become a state, never a throw.
  public static func read(path: String) -> AudioSummary {
    // The MP4 reader replaces this: until it lands nothing about the audio is known.
    AudioSummary(
      state: .lengthUnreadable(reason: "this build has no MP4 reader yet"), durationSeconds: nil,
      creationTime: nil, fragmented: false)
  }
}
