import Foundation
import StashTestSupport
import Testing

/// `stash-tui --play FILE --skip-silence[=LEVEL]`, run as a user would, into ALSA's `file` PCM:
/// a memo of two half-second tones around a 3 s pause.
@Suite struct SkipSilenceCommandLineTests {
  /// The memo, as the phone names it, in `scratch`.
  static func memo(in scratch: ScratchFolder) throws -> URL {
    let memo = scratch.appendingPathComponent("2026-03-14T09-30-00Z_audio.m4a")
    let made = try runProcess(
      "ffmpeg",
      [
        "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
        "aevalsrc=if(lt(t\\,0.5)+gte(t\\,3.5)\\,0.4*sin(2*PI*440*t)\\,0):s=48000:d=4", "-c:a", "aac",
        "-b:a", "96k", memo.path,
      ])
    try #require(made.status == 0, "ffmpeg: \(made.standardError)")
    return memo
  }

  /// Seconds of audio `--play` with `arguments` handed the device.
  static func played(_ memo: URL, _ arguments: [String], in scratch: ScratchFolder) throws -> (
    seconds: Double, status: Int32, error: String
  ) {
    let raw = scratch.appendingPathComponent("out.raw")
    try? FileManager.default.removeItem(at: raw)
    let run = try runProcess(
      TUIHarness.binary, ["--play", memo.path, "--device", "file:FILE=\(raw.path),FORMAT=raw"] + arguments,
      environment: TUIHarness.environment)
    let bytes = (try? Data(contentsOf: raw).count) ?? 0
    return (Double(bytes / 4) / 48_000, run.status, run.standardError)
  }

  /// Strong keeps 0.15 s of the 3 s pause, `--skip-silence` alone 0.3 s (medium), and without
  /// it all 4 s play; `--from` is a memo time: from 3.2 s the rest of the pause (0.3 s) is cut to
  /// 0.15 s before the last tone. An unknown level is a usage mistake.
  @Test func thePauseIsShortenedToTheLevelsLength() throws {
    let scratch = try ScratchFolder("stash-skip-silence")
    defer { scratch.remove() }
    let memo = try Self.memo(in: scratch)
    let plain = try Self.played(memo, [], in: scratch)
    #expect(plain.status == 0, "\(plain.error)")
    #expect(abs(plain.seconds - 4) < 0.05, "played \(plain.seconds) s")
    let strong = try Self.played(memo, ["--skip-silence=strong"], in: scratch)
    #expect(strong.status == 0, "\(strong.error)")
    #expect(abs(strong.seconds - 1.15) < 0.05, "played \(strong.seconds) s at strong")
    let medium = try Self.played(memo, ["--skip-silence"], in: scratch)
    #expect(abs(medium.seconds - 1.3) < 0.05, "played \(medium.seconds) s at medium")
    let from = try Self.played(memo, ["--skip-silence=strong", "--from", "3.2"], in: scratch)
    #expect(abs(from.seconds - 0.65) < 0.05, "played \(from.seconds) s from 3.2 at strong")
    // The voice settings keep every frame: with `--voice-boost --enhance` all 4 s play.
    let voiced = try Self.played(memo, ["--voice-boost", "--enhance"], in: scratch)
    #expect(voiced.status == 0, "\(voiced.error)")
    #expect(abs(voiced.seconds - 4) < 0.05, "played \(voiced.seconds) s with the boost and enhance")
    let enhanced = try Self.played(memo, ["--enhance", "--skip-silence=strong"], in: scratch)
    #expect(abs(enhanced.seconds - 1.15) < 0.05, "played \(enhanced.seconds) s at strong with enhance")
    let wrong = try Self.played(memo, ["--skip-silence=loud"], in: scratch)
    #expect(wrong.status == 2)
    #expect(wrong.error.contains("--skip-silence takes mild, medium or strong, not 'loud'"), "\(wrong.error)")
  }
}
