/// One AAC frame in the file: where its bytes are, and when it decodes, in the media timescale.
public struct AudioSample: Sendable, Equatable {
  /// File offset of the sample's first byte.
  public var offset: Int
  /// Bytes in the sample.
  public var size: Int
  /// How long it lasts, in media timescale units.
  public var duration: UInt32
  /// When it decodes, in media timescale units from the start of the track.
  public var decodeTime: Int64

  /// A sample at `offset` of `size` bytes lasting `duration` from `decodeTime`.
  public init(offset: Int, size: Int, duration: UInt32, decodeTime: Int64) {
    self.offset = offset
    self.size = size
    self.duration = duration
    self.decodeTime = decodeTime
  }
}
