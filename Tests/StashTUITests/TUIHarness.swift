import Foundation
import StashTestSupport
import Testing

/// Runs the real `stash-tui` binary: its `--render-once` test hook for golden screens, and builds
/// the scratch memo folders the tests browse.
enum TUIHarness {
  /// The binary under test.
  static var binary: String { Fixtures.product("stash-tui").path }

  /// The environment every run gets: UTF-8, UTC (so dates do not depend on the machine), no colour.
  static var environment: [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["LC_ALL"] = "C.UTF-8"
    env["TZ"] = "UTC"
    env["TERM"] = "xterm-256color"
    env["STASH_DIR"] = nil
    // Places memos were left off: a folder of this run's, never the home folder's.
    env["XDG_STATE_HOME"] = stateHome.path
    return env
  }

  /// Where runs of the binary keep the places memos were left off, rather than the home folder
  /// (`render` gives each run a folder of its own).
  static let stateHome: URL = FileManager.default.temporaryDirectory
    .appendingPathComponent("stash-tui-state-\(ProcessInfo.processInfo.processIdentifier)")
  /// The screen after `keys` on a `size` screen over `folder`.
  static func render(_ folder: URL, size: String = "100x30", keys: String = "", styles: Bool = false)
    throws -> String
  {
    var args = ["--render-once", size, "--keys", keys]
    if styles { args.append("--show-styles") }
    args.append(folder.path)
    var env = environment
    // Places of its own: a screen never continues from a place another run left (the test
    // memos share one tone, so they share one key).
    env["XDG_STATE_HOME"] = try Fixtures.scratchFolder("stash-state").path
    let result = try runProcess(binary, args, environment: env)
    #expect(result.status == 0, "stash-tui failed: \(result.standardError)")
    // The scratch folder's name changes every run: the header shows it as DIR.
    return result.standardOutput.replacingOccurrences(
      of: #" +/\S*stash-tui-\S*\n"#, with: " DIR\n", options: .regularExpression)
  }

  /// A 20-second AAC-LC mono 48 kHz tone made once per run by ffmpeg, copied into each folder.
  static let toneAudio: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("stash-tui-tone-\(ProcessInfo.processInfo.processIdentifier).m4a")
    if !FileManager.default.fileExists(atPath: url.path) {
      let r = try? runProcess(
        "ffmpeg",
        [
          "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=20", "-c:a", "aac", "-ac", "1",
          "-ar", "48000", url.path,
        ])
      precondition(r?.status == 0, "ffmpeg could not make the test tone")
    }
    return url
  }()

  /// A 20-second AAC-LC mono 48 kHz memo of known loudness steps, made once per run by ffmpeg: 2 s of
  /// silence, then 4 s of tone at -40, -20 and -6 dBFS, each followed by 2 s of silence.
  static let steppedAudio: URL = {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("stash-tui-steps-\(ProcessInfo.processInfo.processIdentifier).m4a")
    if !FileManager.default.fileExists(atPath: url.path) {
      let steps = "if(between(t,2,6),0.01,if(between(t,8,12),0.1,if(between(t,14,18),0.5,0)))"
      let r = try? runProcess(
        "ffmpeg",
        [
          "-loglevel", "error", "-y", "-f", "lavfi", "-i", "aevalsrc='\(steps)*sin(2*PI*440*t)':s=48000:d=20",
          "-c:a", "aac", "-ac", "1", "-ar", "48000", url.path,
        ])
      precondition(r?.status == 0, "ffmpeg could not make the stepped memo")
    }
    return url
  }()

  /// A scratch folder of one memo: the stepped audio above with the main memo's transcript.
  static func steppedFolder() throws -> URL {
    let folder = try Fixtures.scratchFolder("stash-tui")
    let base = "2026-03-14T09-30-00Z"
    try FileManager.default.copyItem(at: steppedAudio, to: folder.appendingPathComponent(base + "_audio.m4a"))
    try transcript.write(
      to: folder.appendingPathComponent(base + "_transcription.vtt"), atomically: false, encoding: .utf8)
    return folder
  }

  /// The transcript of the main test memo: word times, a missing-speech gap, unconfirmed words.
  static let transcript = """
    WEBVTT

    NOTE stash missing-speech 00:00:08.000 00:00:12.000

    00:00:00.500 --> 00:00:03.000
    <00:00:00.500>Hello <00:00:01.000>there, <00:00:01.600>this is a test memo.

    00:00:03.000 --> 00:00:07.500
    The second cue talks about the weather and the walk along the river bank.

    00:00:12.000 --> 00:00:15.000
    After the gap <c.unconfirmed>these words were never</c> confirmed.

    00:00:15.000 --> 00:00:19.000
    The last cue ends here.

    """

  /// A scratch folder of three memos: an untitled one with the transcript above; one titled in
  /// Japanese with an emoji; one titled right to left. Dates come from the bases (and, for
  /// readers that use them, the files' modification times).
  static func memoFolder() throws -> URL {
    let folder = try Fixtures.scratchFolder("stash-tui")
    let memos: [(base: String, title: String?, vtt: Bool, date: String)] = [
      ("2026-03-14T09-30-00Z", nil, true, "2026-03-14 09:30:00"),
      ("2026-05-01T18-05-00Z", "会議のメモ 🎉", false, "2026-05-01 18:05:00"),
      ("2026-07-20T07-45-10Z", "שלום עולם", false, "2026-07-20 07:45:10"),
    ]
    for memo in memos {
      let audio = folder.appendingPathComponent(memo.base + "_audio.m4a")
      try FileManager.default.copyItem(at: toneAudio, to: audio)
      if let title = memo.title {
        try (title + "\n").write(
          to: folder.appendingPathComponent(memo.base + "_title.txt"), atomically: false, encoding: .utf8)
      }
      if memo.vtt {
        try transcript.write(
          to: folder.appendingPathComponent(memo.base + "_transcription.vtt"), atomically: false,
          encoding: .utf8)
      }
      let r = try runProcess("touch", ["-d", memo.date + " UTC", audio.path])
      #expect(r.status == 0)
    }
    return folder
  }
}

/// Compares a screen with its golden copy in `Golden/<name>.golden.swift`; with
/// STASH_UPDATE_GOLDEN=1 it rewrites that file instead (review the diff before committing).
enum Golden {
  static func check(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Golden").appendingPathComponent("\(name).golden.swift")
    if ProcessInfo.processInfo.environment["STASH_UPDATE_GOLDEN"] == "1" {
      // Laid out as swift format lays out a raw multi-line literal, so formatting changes nothing.
      var source =
        "// Golden screen written by the test that checks it; rewrite with STASH_UPDATE_GOLDEN=1.\n"
        + "extension GoldenScreens {\n  static let \(name) = #\"\"\"\n"
      for line in actual.split(separator: "\n", omittingEmptySubsequences: false) {
        source += line.isEmpty ? "\n" : "    " + line + "\n"
      }
      source += "    \"\"\"#\n}\n"
      try? source.write(to: file, atomically: true, encoding: .utf8)
      return
    }
    guard let expected = GoldenScreens.all[name] else {
      Issue.record("no golden screen \(name); run with STASH_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
      return
    }
    if expected != actual {
      Issue.record(
        "screen \(name) differs from its golden copy.\n--- expected\n\(expected)--- actual\n\(actual)",
        sourceLocation: sourceLocation)
    }
  }
}
