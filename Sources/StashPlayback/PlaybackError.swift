import StashFormat

/// An error from StashPlayback: a stable code, a message in plain words, and what it concerns.
public struct PlaybackError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure this is; stable, for scripts and for the browser to choose a hint.
  public enum Code: String, Sendable, Equatable {
    /// The sound device could not be opened (missing, or no sound card at all).
    case noDevice = "no-device"
    /// The sound device is in use by another program.
    case deviceBusy = "device-busy"
    /// The sound device refused the format, or failed while playing (unplugged, gone).
    case deviceFailed = "device-failed"
    /// The audio file cannot be played: the reader's reason is in the message.
    case damagedAudio = "damaged-audio"
    /// The codec is not one stash plays, or the decoder refused the stream.
    case unsupported = "unsupported"
    /// The decoder failed on the audio at `time`.
    case decoder = "decoder"
    /// Reading the audio file failed.
    case io = "io"
    /// A request that makes no sense in the player's state (nothing loaded, bad time).
    case invalid = "invalid"
  }

  /// The kind of failure.
  public var code: Code
  /// What happened, and what the user can do, in plain words.
  public var message: String
  /// The file concerned, when there is one.
  public var path: String?
  /// Seconds into the memo where it happened, when that is known.
  public var time: Double?

  /// Makes an error from its parts.
  public init(code: Code, message: String, path: String? = nil, time: Double? = nil) {
    self.code = code
    self.message = message
    self.path = path
    self.time = time
  }

  /// An error from the MP4 reader, keeping its reason.
  public init(reading error: FormatError) {
    self.init(
      code: error.code == .io ? .io : .damagedAudio, message: error.description, path: nil)
  }

  /// `path: at 1:23: message`, leaving out what is unknown.
  public var description: String {
    var parts: [String] = []
    if let path { parts.append(PathText.escaped(path)) }
    if let time { parts.append("at \(TimeText.clock(time))") }
    parts.append(message)
    return parts.joined(separator: ": ")
  }
}
