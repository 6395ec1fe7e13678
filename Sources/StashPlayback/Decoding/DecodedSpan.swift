/// A stretch of a memo's audio decoded to PCM, sample-accurate: what `stash export --clip --to
/// wav` writes (through `stash-tui --decode`, the program that links the decoder).
public struct DecodedSpan: Sendable, Equatable {
  /// Frames per second.
  public var rate: Int
  /// Channels of each frame.
  public var channels: Int
  /// The frames, interleaved, in -1...1.
  public var samples: [Float]

  /// The frames held.
  public var frames: Int { channels > 0 ? samples.count / channels : 0 }

  /// The span as a WAV file's bytes: 16-bit PCM, little-endian, rounded and clipped to the range.
  public var wav: [UInt8] {
    let dataBytes = samples.count * 2
    var out: [UInt8] = []
    out.reserveCapacity(44 + dataBytes)
    func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { out += $0 } }
    func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { out += $0 } }
    out += Array("RIFF".utf8)
    u32(36 + dataBytes)
    out += Array("WAVEfmt ".utf8)
    u32(16)
    u16(1)  // PCM
    u16(channels)
    u32(rate)
    u32(rate * channels * 2)
    u16(channels * 2)
    u16(16)
    out += Array("data".utf8)
    u32(dataBytes)
    for sample in samples {
      let scaled = (Double(sample) * 32767).rounded()
      let value = Int16(max(-32768, min(32767, scaled.isNaN ? 0 : scaled)))
      withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }
    return out
  }
}

extension AudioTrack {
  /// The heard audio from `from` to `to` seconds (memo time, the first sample at the frame nearest
  /// `from`), decoded: exactly `(to - from) × rate` frames, rounded, less what lies past the end.
  public func decode(from: Double, to: Double) throws(PlaybackError) -> DecodedSpan {
    let decoder = try TrackDecoder(track: self)
    let rate = decoder.rate
    let first = Int((max(0, from) * Double(rate)).rounded())
    let last = Int((max(from, to) * Double(rate)).rounded())
    decoder.start(atHeardFrame: first, until: last)
    var samples: [Float] = []
    samples.reserveCapacity(max(0, last - first) * decoder.channels)
    while let (_, run) = try decoder.next(samplesPerCall: 64) { samples += run }
    return DecodedSpan(rate: rate, channels: decoder.channels, samples: samples)
  }
}
