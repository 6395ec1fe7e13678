import Foundation
import StashTestSupport

/// Audio files made by ffmpeg at test time (sine tones and espeak-ng speech), shared by the MP4
/// suites, plus the helpers that cut them and ask ffprobe about them.
struct MP4TestFiles: Sendable {
  let folder: URL

  /// ffmpeg's arguments for the phone's layout: a fragment every 2 seconds, empty moov first.
  static let fragmentFlags = [
    "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "2000000",
  ]

  /// Made once per test run; every suite reads the same files.
  static let shared: Result<MP4TestFiles, TestFileError> = Result { () throws(TestFileError) in
    try MP4TestFiles()
  }

  /// Why the files could not be made.
  struct TestFileError: Error, CustomStringConvertible {
    var description: String
  }

  private init() throws(TestFileError) {
    do {
      folder = try Fixtures.scratchFolder("stash-mp4")
    } catch {
      throw TestFileError(description: "no scratch folder: \(error)")
    }
    let sine = ["-f", "lavfi", "-i", "sine=frequency=440:duration=11"]
    let aac = ["-c:a", "aac", "-ar", "48000", "-ac", "1"]
    try ffmpeg(sine + aac + Self.fragmentFlags + [path("fragmented.m4a")])
    try ffmpeg(sine + aac + [path("finished.m4a")])
    try ffmpeg(sine + aac + ["-movflags", "+faststart", path("faststart.m4a")])
    let speech = path("speech.wav")
    try run(
      "espeak-ng",
      ["-v", "en", "-s", "150", "-w", speech, "A synthetic memo about nothing in particular, spoken twice."]
    )
    try ffmpeg(["-i", speech] + aac + Self.fragmentFlags + [path("speech-fragmented.m4a")])
    try ffmpeg(["-i", speech] + aac + [path("speech-finished.m4a")])
    // A video track beside the audio: the reader must pick the sound track, and each moof holds two trafs.
    let video = ["-f", "lavfi", "-i", "testsrc=size=64x48:rate=5:duration=6", "-c:v", "mpeg4"]
    try ffmpeg(
      video + ["-f", "lavfi", "-i", "sine=duration=6"] + aac + Self.fragmentFlags + [path("with-video.mp4")])
    try ffmpeg(video + ["-f", "lavfi", "-i", "sine=duration=6"] + aac + [path("with-video-finished.mp4")])
    try ffmpeg(video + ["-an", path("video-only.mp4")])
    try ffmpeg(["-f", "lavfi", "-i", "sine=duration=3", "-c:a", "alac", path("alac.m4a")])
  }

  /// The path of `name` in the folder.
  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// Writes `bytes` as `name` and returns its path.
  func write(_ bytes: [UInt8], as name: String) throws -> String {
    let target = path(name)
    try Data(bytes).write(to: URL(fileURLWithPath: target))
    return target
  }

  /// The bytes of `name`.
  func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(name))))
  }

  private func ffmpeg(_ arguments: [String]) throws(TestFileError) {
    try run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-bitexact"] + arguments)
  }

  private func run(_ tool: String, _ arguments: [String]) throws(TestFileError) {
    let result: ProcessResult
    do {
      result = try runProcess(tool, arguments)
    } catch {
      throw TestFileError(description: "\(tool) did not start: \(error)")
    }
    guard result.status == 0 else {
      throw TestFileError(
        description: "\(tool) \(arguments.joined(separator: " ")) failed: \(result.standardError)")
    }
  }
}

/// What ffprobe says about a file's audio stream.
struct FFprobeAudio {
  /// One packet: its file position, size and decode time stamp.
  struct Packet: Equatable {
    var position: Int
    var size: Int
    var decodeTime: Int64
  }

  var packets: [Packet]
  /// The stream's duration in its timescale, as ffprobe counts it.
  var durationUnits: Int64?
  /// The container's duration in seconds.
  var formatDuration: Double?

  /// Runs ffprobe on the first audio stream of `path`; nil when ffprobe cannot read the file.
  static func read(_ path: String) throws -> FFprobeAudio? {
    let result = try runProcess(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "a:0", "-show_packets", "-show_entries",
        "packet=pos,size,dts:stream=duration_ts:format=duration", "-of", "json", path,
      ])
    guard result.status == 0,
      let json = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
    else { return nil }
    let packets = (json["packets"] as? [[String: Any]] ?? []).compactMap { packet -> Packet? in
      guard let pos = (packet["pos"] as? String).flatMap(Int.init),
        let size = (packet["size"] as? String).flatMap(Int.init),
        let dts = packet["dts"] as? Int
      else { return nil }
      return Packet(position: pos, size: size, decodeTime: Int64(dts))
    }
    let stream = (json["streams"] as? [[String: Any]])?.first
    let format = json["format"] as? [String: Any]
    return FFprobeAudio(
      packets: packets, durationUnits: (stream?["duration_ts"] as? Int).map(Int64.init),
      formatDuration: (format?["duration"] as? String).flatMap(Double.init))
  }
}
