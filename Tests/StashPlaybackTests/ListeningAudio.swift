import Foundation
import StashPlayback
import StashTestSupport

/// Audio and measurements for the speed, volume and loop tests.
enum ListeningAudio {
  /// A `seconds`-long 440 Hz tone (ffmpeg's sine source, AAC in a fragmented MP4 as the phone
  /// writes it) in this run's folder, read as a track.
  static func tone(seconds: Double, frequency: Int = 440) throws -> AudioTrack {
    let path = try TestAudio.folder().appendingPathComponent("tone-\(frequency)_audio.m4a").path
    try TestTone.mp4(seconds: seconds, frequency: frequency).write(to: URL(fileURLWithPath: path))
    return try AudioTrack.read(path: path)
  }

  /// TestAudio's sweep as an ADTS track, with ffmpeg's decode of it (priming dropped: heard frame i
  /// is reference[i]).
  static func sweep(seconds: Double) throws -> (track: AudioTrack, reference: [Float]) {
    let path = try TestAudio.folder().appendingPathComponent("sweep.aac").path
    try TestAudio.sweep(path, seconds: seconds)
    return (try ADTSTrack.read(path), Array(try TestAudio.ffmpegDecode(path).dropFirst(1024)))
  }

  /// A loud tone (0.9 of full scale) as an ADTS track, with ffmpeg's decode of it (priming dropped).
  static func loudTone(seconds: Double) throws -> (track: AudioTrack, reference: [Float]) {
    let path = try TestAudio.folder().appendingPathComponent("loud.aac").path
    let result = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "aevalsrc=0.9*sin(2*PI*300*t):s=48000:d=\(seconds)", "-c:a", "aac", "-b:a", "96k", "-aac_pns", "0",
        path,
      ])
    guard result.status == 0 else { throw TestFailure("ffmpeg failed: \(result.standardError)") }
    return (try ADTSTrack.read(path), Array(try TestAudio.ffmpegDecode(path).dropFirst(1024)))
  }

  /// The frequency of a steady tone in `samples` (at `rate`), from its rising zero crossings
  /// (interpolated between samples) over the middle of the signal, away from its edges.
  static func frequency(_ samples: [Float], rate: Int = 48_000) -> Double? {
    let from = samples.count / 10
    let to = samples.count - samples.count / 10
    var crossings: [Double] = []
    var i = max(1, from)
    while i < to {
      let a = samples[i - 1]
      let b = samples[i]
      if a < 0 && b >= 0 { crossings.append(Double(i - 1) + Double(-a / (b - a))) }
      i += 1
    }
    guard let first = crossings.first, let last = crossings.last, crossings.count > 2 else { return nil }
    return Double(crossings.count - 1) / ((last - first) / Double(rate))
  }

  /// Root mean square.
  static func rms(_ samples: ArraySlice<Float>) -> Double {
    guard !samples.isEmpty else { return 0 }
    return (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
  }

  /// The largest step from one sample to the next.
  static func largestStep(_ samples: ArraySlice<Float>) -> Float {
    zip(samples, samples.dropFirst()).reduce(0) { max($0, abs($1.1 - $1.0)) }
  }
}
