/// What the player decodes: one memo's AAC samples as the MP4 index lists them, with the timing
/// that turns them into heard audio (priming dropped at the start, end trim at the end).
public struct AudioTrack: Sendable, Equatable {
  /// One whole AAC access unit in the file.
  public struct Sample: Sendable, Equatable {
    /// Byte offset in the file.
    public var offset: Int
    /// Size in bytes.
    public var size: Int
    /// Decode time, in `timescale` units, counted from the first sample (priming included).
    public var decodeTime: Int64
    /// Duration in `timescale` units.
    public var duration: Int64

    /// Makes a sample from its parts.
    public init(offset: Int, size: Int, decodeTime: Int64, duration: Int64) {
      self.offset = offset
      self.size = size
      self.decodeTime = decodeTime
      self.duration = duration
    }
  }

  /// The audio file the samples are in.
  public var path: String
  /// The AudioSpecificConfig, handed to the decoder as extradata.
  public var audioSpecificConfig: [UInt8]
  /// Sample rate the file declares (the AAC core rate).
  public var sampleRate: Int
  /// Channels the file declares.
  public var channels: Int
  /// Units per second of the sample times.
  public var timescale: Int
  /// The whole samples, in decode order.
  public var samples: [Sample]
  /// Encoder priming at the start, in `timescale` units: decoded but never heard.
  public var primingSamples: Int64
  /// Padding at the end, in `timescale` units: decoded but never heard.
  public var endTrimSamples: Int64
  /// Whether the length is known before playing reaches the end (the listing shows a length).
  public var lengthKnown: Bool

  /// Makes a track from its parts.
  public init(
    path: String, audioSpecificConfig: [UInt8], sampleRate: Int, channels: Int, timescale: Int,
    samples: [Sample], primingSamples: Int64, endTrimSamples: Int64, lengthKnown: Bool
  ) {
    self.path = path
    self.audioSpecificConfig = audioSpecificConfig
    self.sampleRate = sampleRate
    self.channels = channels
    self.timescale = timescale
    self.samples = samples
    self.primingSamples = primingSamples
    self.endTrimSamples = endTrimSamples
    self.lengthKnown = lengthKnown
  }
}
