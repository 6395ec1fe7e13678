import Foundation
import StashPlayback
import StashTestSupport

/// Test audio made at test time by the ffmpeg command line, and ffmpeg's own decode of it, the
/// independent reference what the player hands the device is compared with.
enum TestAudio {
  /// A folder for this run's files.
  static func folder() throws -> URL { try Fixtures.scratchFolder("stash-playback") }

  /// A linear sine sweep from 100 Hz up (every frame differs from its neighbours, so any
  /// misalignment shows), `seconds` long, mono at `rate`, written by `ffmpeg` to `path` as ADTS or
  /// MP4. Noise substitution (PNS) is off: its noise is random by design and the decoder's
  /// generator state depends on everything decoded before, so after a seek no decoder repeats it
  /// bit for bit; everything else in AAC is deterministic.
  static func sweep(
    _ path: String, seconds: Double, rate: Int = 48_000, channels: Int = 1, extra: [String] = []
  ) throws {
    // A second channel sweeps down, so that swapped or mixed channels show.
    var expression = "0.5*sin(2*PI*t*(100+1500*t/\(seconds)))"
    if channels == 2 { expression += "|0.4*sin(2*PI*t*(3000-1500*t/\(seconds)))" }
    try evaluated(path, expression, seconds: seconds, rate: rate, channels: channels, extra: extra)
  }

  /// ffmpeg's `aevalsrc` of `expression` (one per channel, `|` between), `seconds` long at `rate`,
  /// written to `path` as the sweep is.
  static func evaluated(
    _ path: String, _ expression: String, seconds: Double, rate: Int = 48_000, channels: Int = 1,
    extra: [String] = []
  ) throws {
    let result = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "aevalsrc=\(expression):s=\(rate):d=\(seconds)", "-ac", "\(channels)", "-c:a", "aac", "-b:a", "96k",
        "-aac_pns",
        "0",
      ]
        + extra + [path])
    guard result.status == 0 else { throw TestFailure("ffmpeg failed: \(result.standardError)") }
  }

  /// ffmpeg's decode of `path` as interleaved float (`ffmpeg -i x -f f32le -ac 1 -ar 48000 -` by
  /// default).
  static func ffmpegDecode(_ path: String, channels: Int = 1, rate: Int = 48_000) throws -> [Float] {
    let out = path + ".ffmpeg.f32"
    let result = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-i", path, "-f", "f32le", "-ac", "\(channels)", "-ar",
        "\(rate)",
        out,
      ])
    guard result.status == 0 else { throw TestFailure("ffmpeg decode failed: \(result.standardError)") }
    return try floats(out)
  }

  /// The float32 little-endian samples in a raw file.
  static func floats(_ path: String) throws -> [Float] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.withUnsafeBytes { raw in
      (0..<raw.count / 4).map {
        Float(bitPattern: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))
      }
    }
  }

  /// The largest difference between `a` and `b`, which must be the same length (nil otherwise).
  static func maxDifference(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Float? {
    guard a.count == b.count else { return nil }
    return zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
  }
}

/// A failure in setting a test up.
struct TestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
