import Foundation

/// Real AAC audio for tests, made by ffmpeg from a sine tone: AAC-LC, mono, 48 kHz.
public enum TestTone {
  /// The bytes of a `seconds`-long tone at `frequency` Hz in MP4; fragmented as the phone writes it
  /// (moov first, a fragment every `fragmentSeconds`) unless `fragmented` is false.
  public static func mp4(
    seconds: Double, frequency: Int = 440, fragmented: Bool = true, fragmentSeconds: Double = 1
  ) throws -> Data {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stash-tone-\(getpid())-\(UUID().uuidString).m4a")
    defer { try? FileManager.default.removeItem(at: out) }
    var arguments = [
      "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
      "sine=frequency=\(frequency):duration=\(seconds)", "-ac", "1", "-ar", "48000", "-c:a", "aac", "-b:a",
      "32k",
    ]
    if fragmented {
      arguments += [
        "-movflags", "+frag_keyframe+empty_moov+default_base_moof", "-frag_duration",
        String(Int(fragmentSeconds * 1_000_000)),
      ]
    }
    let made = try runProcess("ffmpeg", arguments + [out.path])
    guard made.status == 0 else { throw TestToneError(message: "ffmpeg failed: \(made.standardError)") }
    return try Data(contentsOf: out)
  }
}

/// ffmpeg could not make the test audio.
public struct TestToneError: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}
