import Foundation
import StashPlayback
import StashTestSupport

/// A memo for skip silence: tone bursts (0.4 s of 440 Hz at 0.4 of full scale, 5 ms ramps) after
/// known pauses (some 0.1-0.2 s, some 1-5 s, one before the first burst), over an optional bed:
/// pink noise or a 60 Hz hum (mains; its period is not a whole number of the detector's 10 ms windows, so a cut changes its phase) at a given RMS level under everything. Made in memory, and as an
/// ADTS AAC track with ffmpeg's decode of it.
struct SkipSilenceAudio {
  /// What lies under the bursts and in the pauses.
  enum Bed: Sendable, CustomStringConvertible {
    case none
    case noise(dbfs: Double)
    case hum(dbfs: Double)
    var description: String {
      switch self {
      case .none: "none"
      case .noise(let level): "noise\(Int(-level))"
      case .hum(let level): "hum\(Int(-level))"
      }
    }
  }

  /// The pause before each burst, seconds (not whole tenths, as no real pause is); after the last
  /// burst, `endPause`.
  static let pauses = [1.03, 0.1, 2.07, 0.2, 5.01, 0.1, 1.52, 3.04, 0.1]
  static let burstSeconds = 0.4
  static let endPause = 0.25
  static let amplitude: Float = 0.4
  /// Where a burst is taken to be: a sample above half its amplitude.
  static let burstLevel: Float = 0.2

  let rate: Int
  let channels: Int
  /// Interleaved samples.
  let samples: [Float]
  /// Each burst's frames.
  let bursts: [Range<Int>]

  /// The memo, its pauses (`pauses`, the usual ones unless given) and bursts `repeats` times over.
  init(rate: Int, channels: Int = 1, bed: Bed = .none, repeats: Int = 1, pauses: [Double] = Self.pauses) {
    self.rate = rate
    self.channels = channels
    var mono: [Float] = []
    var bursts: [Range<Int>] = []
    let burst = Int(Self.burstSeconds * Double(rate))
    let ramp = rate / 200
    for pause in Array(repeating: pauses, count: max(1, repeats)).joined() {
      mono += [Float](repeating: 0, count: Int(pause * Double(rate)))
      let start = mono.count
      for i in 0..<burst {
        var gain: Float = 1
        let edge = min(i, burst - 1 - i)
        if edge < ramp { gain = 0.5 - 0.5 * cosf(Float.pi * Float(edge) / Float(ramp)) }
        mono.append(Self.amplitude * gain * sinf(2 * Float.pi * 440 * Float(i) / Float(rate)))
      }
      bursts.append(start..<mono.count)
    }
    mono += [Float](repeating: 0, count: Int(Self.endPause * Double(rate)))
    self.bursts = bursts
    var bed = Self.bed(bed, frames: mono.count, rate: rate)
    if bed.isEmpty { bed = [Float](repeating: 0, count: mono.count) }
    var samples = [Float](repeating: 0, count: mono.count * channels)
    for frame in 0..<mono.count {
      for channel in 0..<channels {
        // A second channel a little quieter, so that a swap shows.
        samples[frame * channels + channel] = (mono[frame] + bed[frame]) * (channel == 0 ? 1 : 0.8)
      }
    }
    self.samples = samples
  }

  /// Pink noise (Paul Kellet's filter over a fixed pseudo-random sequence) or a hum, at `dbfs`
  /// RMS.
  static func bed(_ bed: Bed, frames: Int, rate: Int) -> [Float] {
    switch bed {
    case .none:
      return []
    case .hum(let level):
      let amplitude = Float(pow(10, level / 20) * 2.0.squareRoot())
      return (0..<frames).map { amplitude * sinf(2 * Float.pi * 60 * Float($0) / Float(rate)) }
    case .noise(let level):
      // The filter is tuned for 44.1-48 kHz (at 8 kHz its poles would put the energy below
      // 2 Hz, a rumble rather than a hiss): it runs at 48 kHz and every (48,000 / rate)th
      // sample is kept.
      let step = max(1, 48_000 / rate)
      var state: UInt64 = 0x2545_F491_4F6C_DD1D
      var b = [Float](repeating: 0, count: 7)
      var noise = [Float](repeating: 0, count: frames)
      for i in 0..<(frames * step) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let white = Float(Double(state >> 11) / Double(1 << 53) * 2 - 1)
        b[0] = 0.99886 * b[0] + white * 0.0555179
        b[1] = 0.99332 * b[1] + white * 0.0750759
        b[2] = 0.96900 * b[2] + white * 0.1538520
        b[3] = 0.86650 * b[3] + white * 0.3104856
        b[4] = 0.55000 * b[4] + white * 0.5329522
        b[5] = -0.7616 * b[5] - white * 0.0168980
        if i % step == 0 { noise[i / step] = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + white * 0.5362 }
        b[6] = white * 0.115926
      }
      let rms = (noise.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(frames)).squareRoot()
      let scale = Float(pow(10, level / 20) / rms)
      return noise.map { $0 * scale }
    }
  }

  /// The memo as ADTS AAC (128 kb/s a channel, no noise substitution) and ffmpeg's decode of it,
  /// priming dropped: heard frame i is reference[i].
  func track(_ name: String) throws -> (track: AudioTrack, reference: [Float]) {
    let folder = try TestAudio.folder()
    let raw = folder.appendingPathComponent("\(name).f32").path
    let path = folder.appendingPathComponent("\(name).aac").path
    let bytes = samples.withUnsafeBytes { Data($0) }
    try bytes.write(to: URL(fileURLWithPath: raw))
    let result = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "f32le", "-ar", "\(rate)", "-ac", "\(channels)",
        "-i",
        raw, "-c:a", "aac", "-b:a", "\(128 * channels)k", "-aac_pns", "0", path,
      ])
    guard result.status == 0 else { throw TestFailure("ffmpeg failed: \(result.standardError)") }
    let decoded = try TestAudio.ffmpegDecode(path, channels: channels, rate: rate)
    return (try ADTSTrack.read(path), Array(decoded.dropFirst(1024 * channels)))
  }

  /// The memo as a memo's audio file (AAC in MP4, as a recorder writes it) in a folder of its own,
  /// for `stash-tui --play`.
  func memoFile(_ name: String) throws -> String {
    let folder = try Fixtures.scratchFolder("stash-\(name)")
    let raw = folder.appendingPathComponent("memo.f32").path
    let path = folder.appendingPathComponent("2026-06-01T10-00-00_audio.m4a").path
    try samples.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: raw))
    let result = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "f32le", "-ar", "\(rate)", "-ac", "\(channels)",
        "-i", raw, "-c:a", "aac", "-b:a", "\(128 * channels)k", "-aac_pns", "0", path,
      ])
    guard result.status == 0 else { throw TestFailure("ffmpeg failed: \(result.standardError)") }
    return path
  }

  /// The bursts found in `samples` (interleaved, `channels`; the first channel): runs of samples
  /// above `burstLevel`, joined across gaps shorter than `joining` seconds (5 ms: a tone's zero
  /// crossings).
  static func bursts(in samples: [Float], channels: Int, rate: Int, joining: Double = 0.005) -> [Range<Int>] {
    var found: [Range<Int>] = []
    let join = Int(joining * Double(rate))
    var frame = 0
    let frames = samples.count / channels
    while frame < frames {
      if abs(samples[frame * channels]) > burstLevel {
        if let last = found.last, frame - last.upperBound < join {
          found[found.count - 1] = last.lowerBound..<(frame + 1)
        } else {
          found.append(frame..<(frame + 1))
        }
      }
      frame += 1
    }
    return found
  }

  /// The pauses between the bursts found (frames), the first from the start.
  static func gaps(_ bursts: [Range<Int>]) -> [Int] {
    var previous = 0
    return bursts.map { burst in
      defer { previous = burst.upperBound }
      return burst.lowerBound - previous
    }
  }
}
