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
  /// The lint code of the state when it is not ok (`mp4-torn-tail`, `mp4-no-index`, …): the one
  /// code the listing, `show`, the browser and lint give the problem. Nil when ok.
  public var code: FormatError.Code?

  /// Every code `code` can be: what lint finds again, precisely, from the full index.
  public static let codes: Set<FormatError.Code> = [
    .mp4NoIndex, .mp4NoAudioTrack, .mp4NotAAC, .mp4Encrypted, .mp4BadAudioConfig,
    .mp4NoAudio, .mp4AudioOutsideFile, .mp4IndexCutOff, .mp4TornTail, .mp4MissingSamples,
    .mp4LengthUnreadable, .lintFileUnreadable,
  ]

  public init(
    state: State, durationSeconds: Double?, creationTime: Double?, fragmented: Bool,
    code: FormatError.Code? = nil
  ) {
    self.state = state
    self.durationSeconds = durationSeconds
    self.creationTime = creationTime
    self.fragmented = fragmented
    self.code = code
  }

  /// Reads the summary of the audio file at `path`; problems become a state, never a throw.
  /// Cheap: a finished file's length comes from its tables without visiting each sample, and a
  /// fragmented file's from its last fragments, found from the end; media data is never read.
  /// `listedAsRegularFile`: the folder listing called it a regular file (see `ReadOnlyFile`).
  public static func read(path: String, listedAsRegularFile: Bool = false) -> AudioSummary {
    read(FileLocation(path: path), listedAsRegularFile: listedAsRegularFile)
  }

  /// The summary of the audio file at `location` (see `read(path:listedAsRegularFile:)`).
  package static func read(_ location: FileLocation, listedAsRegularFile: Bool = false) -> AudioSummary {
    do {
      return AudioSummary(try MP4Reader(location, depth: .summary, listedAsRegularFile: listedAsRegularFile))
    } catch {
      return AudioSummary(unreadable: error)
    }
  }

  /// The summary of a file that cannot be read at all.
  init(unreadable error: FormatError) {
    self.init(
      state: .damaged(reason: "the file cannot be read: \(error.message)"), durationSeconds: nil,
      creationTime: nil, fragmented: false, code: .lintFileUnreadable)
  }

  /// The summary of what `reader` read (at summary depth, or `both` without `summaryDiffers`).
  init(_ reader: MP4Reader) {
    let length = MP4Length(reader, explained: false)
    let state: State
    var code: FormatError.Code?
    if let problem = reader.problem {
      (state, code) = (.damaged(reason: problem.message), problem.code)
    } else if let reason = length.unreadableReason {
      (state, code) = (.lengthUnreadable(reason: reason), .mp4LengthUnreadable)
    } else if reader.cutShort {
      state = .cutShort(tailBytes: reader.tailByteCount)
      code = reader.tornBox ? .mp4TornTail : .mp4MissingSamples
    } else {
      state = .ok
    }
    self.init(
      state: state, durationSeconds: length.seconds,
      creationTime: MP4Length.unixTime(reader.movie?.creationTime ?? 0), fragmented: reader.fragmented,
      code: code)
  }
}
