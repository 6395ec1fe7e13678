import Foundation
import StashTestSupport
import Testing

/// The browser's marks through the findings cache (FORMAT.md §10): `--no-cache`, a cold cache and
/// the cache it filled draw the same screen, marks and problems included.
@Suite struct BrowserCacheTests {
  /// The first screen over `folder` with the cache in `cache` (the newest memo selected).
  static func screen(_ folder: URL, cache: URL, _ extra: [String] = []) throws -> String {
    var env = TUIHarness.environment
    env["XDG_STATE_HOME"] = try Fixtures.scratchFolder("stash-state").path
    env["XDG_CACHE_HOME"] = cache.path
    let result = try runProcess(
      TUIHarness.binary, ["--render-once", "120x30", "--keys", ""] + extra + [folder.path], environment: env
    )
    #expect(result.status == 0, "stash-tui failed: \(result.standardError)")
    #expect(result.standardError.isEmpty, "\(result.standardError)")
    return result.standardOutput
  }

  @Test func warmColdAndUncachedDrawTheSameMarks() throws {
    let folder = try TUIHarness.memoFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A memo with a finding on two files: a cue past its audio's end.
    let base = "2026-07-21T09-00-00Z"
    try FileManager.default.copyItem(
      at: TUIHarness.toneAudio, to: folder.appendingPathComponent(base + "_audio.m4a"))
    try Data("WEBVTT\n\n00:00.000 --> 00:01.000\nhello\n\n09:00.000 --> 09:01.000\nlate\n".utf8)
      .write(to: folder.appendingPathComponent(base + "_transcription.vtt"))
    // What changed in the second before a run is not kept (FindingsCache.key).
    usleep(2_100_000)
    let scratch = try ScratchFolder("stash-tui-cache")
    defer { scratch.remove() }
    let cache = scratch.appendingPathComponent("cache")
    let uncached = try Self.screen(folder, cache: cache, ["--no-cache"])
    #expect(!FileManager.default.fileExists(atPath: cache.path))
    // The newest memo is selected, and the detail pane says its problem, from the file.
    #expect(uncached.contains("the audio ends at"), "\(uncached)")
    let cold = try Self.screen(folder, cache: cache)
    let files = try FileManager.default.contentsOfDirectory(atPath: cache.path + "/stash/findings")
    #expect(files.count == 1, "\(files)")
    let warm = try Self.screen(folder, cache: cache)
    #expect(cold == uncached)
    #expect(warm == uncached)
  }
}
