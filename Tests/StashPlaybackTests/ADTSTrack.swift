import Foundation
import StashPlayback

/// Builds an `AudioTrack` from an ADTS file (what `ffmpeg -f adts` writes): the test's own tiny
/// demuxer, so decoding and output are tested apart from the MP4 reader. ADTS carries no edit
/// list, so the priming is the rule's 1024 samples, as for an MP4 without one.
enum ADTSTrack {
  static func read(_ path: String) throws -> AudioTrack {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var samples: [AudioTrack.Sample] = []
    var offset = 0
    var config: (objectType: Int, frequencyIndex: Int, channels: Int)? = nil
    while offset + 7 <= bytes.count {
      guard bytes[offset] == 0xFF, bytes[offset + 1] & 0xF0 == 0xF0 else {
        throw TestFailure("no ADTS sync word at byte \(offset)")
      }
      let protectionAbsent = bytes[offset + 1] & 1 == 1
      let objectType = Int(bytes[offset + 2] >> 6) + 1
      let frequencyIndex = Int(bytes[offset + 2] >> 2) & 0xF
      let channels = (Int(bytes[offset + 2] & 1) << 2) | Int(bytes[offset + 3] >> 6)
      let length =
        (Int(bytes[offset + 3] & 3) << 11) | (Int(bytes[offset + 4]) << 3) | Int(bytes[offset + 5] >> 5)
      let header = protectionAbsent ? 7 : 9
      guard length > header, offset + length <= bytes.count else { break }
      config = config ?? (objectType, frequencyIndex, channels)
      samples.append(
        .init(
          offset: offset + header, size: length - header, decodeTime: Int64(samples.count) * 1024,
          duration: 1024))
      offset += length
    }
    guard let config else { throw TestFailure("no ADTS frame in \(path)") }
    let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
    let asc: [UInt8] = [
      UInt8(config.objectType << 3 | config.frequencyIndex >> 1),
      UInt8((config.frequencyIndex & 1) << 7 | config.channels << 3),
    ]
    let rate = rates[config.frequencyIndex]
    return AudioTrack(
      path: path, audioSpecificConfig: asc, sampleRate: rate, channels: config.channels, timescale: rate,
      samples: samples, primingSamples: 1024, endTrimSamples: 0, lengthKnown: true)
  }
}
