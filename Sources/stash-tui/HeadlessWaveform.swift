import StashFormat
import StashPlayback

#if canImport(Glibc)
  import Glibc
#endif

/// `stash-tui --waveform FILE [--points N]`: prints a memo's loudness over its length as one JSON
/// object, for scripts: `{"file", "durationSeconds", "points", "dbfs", "floor"}`, where `dbfs` holds
/// N numbers (the short-term RMS level of each equal stretch, `LoudnessProfile`) or null for a
/// stretch that did not decode. FILE is what `--play` takes. Exits 0, 1 when the memo cannot be
/// read (the reason on stderr), 2 for a usage mistake. It is stash-tui's, not `stash`'s, because it
/// decodes the audio, and only stash-tui links libavcodec.
enum HeadlessWaveform {
  static let usage = "usage: stash-tui --waveform FILE [--points N]"
  /// Points when `--points` is not given: a screen's width, about.
  static let defaultPoints = 100
  /// The most points: a strip wider than any screen, and a bound on the work a typo can ask for.
  static let maximumPoints = 100_000

  /// Whether the command line asks for the waveform.
  static func wanted(_ arguments: [String]) -> Bool { arguments.contains("--waveform") }

  /// Runs the mode and returns the exit status.
  static func run(_ arguments: [String]) -> Int32 {
    var file = ""
    var points = defaultPoints
    var index = 0
    while index < arguments.count {
      let flag = arguments[index]
      guard flag == "--waveform" || flag == "--points" else {
        return usageError("unknown argument '\(flag)' with --waveform")
      }
      index += 1
      guard index < arguments.count else { return usageError("\(flag) needs a value") }
      if flag == "--waveform" {
        file = arguments[index]
      } else {
        guard let n = Int(arguments[index]), n >= 1, n <= maximumPoints else {
          return usageError("--points takes a count from 1 to \(maximumPoints), not '\(arguments[index])'")
        }
        points = n
      }
      index += 1
    }
    let profile: LoudnessProfile
    do {
      profile = try LoudnessProfile(path: try AudioTrack.audioPath(forMemo: file), cells: points)
    } catch {
      HeadlessPlayback.say("stash-tui: \(error)")
      return 1
    }
    profile.fill(0..<points)
    var json = JSONWriter()
    json.beginObject()
    json.key("file")
    json.string(profile.path)
    json.key("durationSeconds")
    json.double((profile.duration * 1000).rounded() / 1000)
    json.key("points")
    json.int(points)
    json.key("dbfs")
    json.beginArray()
    // Hundredths of a dB: finer than any strip shows, and short to read.
    for level in profile.levels { json.double(level.map { ($0 * 100).rounded() / 100 }) }
    json.endArray()
    json.key("floor")
    json.double(LoudnessProfile.floor)
    json.endObject()
    json.bytes.append(UInt8(ascii: "\n"))
    return SystemCall.writeAll(1, json.bytes) == 0 ? 0 : 1
  }

  private static func usageError(_ text: String) -> Int32 {
    HeadlessPlayback.say("stash-tui: \(text)\n\(usage)")
    return 2
  }
}
