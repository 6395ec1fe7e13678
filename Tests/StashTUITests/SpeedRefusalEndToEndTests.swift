import Foundation
import StashTestSupport
import Testing

/// A speed other than 1× needs libavfilter, which the player opens only then. Here the real
/// binary finds, first on its library path, a `libavfilter.so.N` the test built that cannot serve:
/// one without any of the calls (it opens, then a look-up fails), or one that needs a library that
/// is not there (it does not open). The speed must stay 1×, playing must go on, and the user must
/// be told which library and why: on the browser's status line, and on stderr for `--play`.
///
/// Only `libavfilter.so.N` stands in the folder, and the folder is on the library path of the
/// process under test alone: every other library (libavcodec among them) is the installed one.
@Suite struct SpeedRefusalEndToEndTests {
  /// A stand-in that cannot serve as libavfilter, and the words of the loader's reason for it.
  enum StandIn: String, CaseIterable, CustomTestStringConvertible {
    /// A shared object with the right soname and none of libavfilter's calls.
    case withoutTheCalls
    /// A shared object that needs a library that is on no path.
    case needingAMissingLibrary

    var testDescription: String { rawValue }

    /// What the player says failed with `soname` standing in: it did not open, or a call is missing.
    func failure(_ soname: String) -> String {
      switch self {
      case .withoutTheCalls: "\(soname) lacks avfilter_get_by_name ("
      case .needingAMissingLibrary: "\(soname) could not be loaded ("
      }
    }

    /// What the loader says (dlerror) about it.
    var reason: String {
      switch self {
      case .withoutTheCalls: "undefined symbol: avfilter_get_by_name"
      case .needingAMissingLibrary:
        "\(SpeedRefusalEndToEndTests.missing): cannot open shared object file"
      }
    }
  }

  /// The library `needingAMissingLibrary` needs; it is built beside the path, never on it.
  static let missing = "libstash-test-absent.so.1"

  /// The soname of the installed libavfilter (`libavfilter.so.8` for FFmpeg 5.1), from the
  /// loader's cache: the name the player asks the loader for.
  static func soname() throws -> String {
    let cache = try runProcess("/sbin/ldconfig", ["-p"])
    let names = Set(
      cache.standardOutput.split(separator: "\n").compactMap { line -> String? in
        let name = line.trimmingCharacters(in: .whitespaces).prefix { $0 != " " }
        return name.hasPrefix("libavfilter.so.") ? String(name) : nil
      })
    try #require(names.count == 1, "libavfilter sonames in the loader's cache: \(names)")
    return names.first!
  }

  /// Builds `standIn` as `<folder>/lib/<soname>` with cc; returns the folder to put on the path
  /// and the soname.
  static func build(_ standIn: StandIn, in folder: ScratchFolder) throws -> (lib: URL, soname: String) {
    let lib = folder.appendingPathComponent("lib")
    let aside = folder.appendingPathComponent("aside")
    for made in [lib, aside] {
      try FileManager.default.createDirectory(at: made, withIntermediateDirectories: false)
    }
    let source = folder.appendingPathComponent("stand-in.c")
    try Data("int stash_test_stand_in(void) { return 1; }\n".utf8).write(to: source)
    // cc, else the toolchain's clang (as the benchmarks compile their C helpers).
    let compiler = (try? runProcess("cc", ["--version"]))?.status == 0 ? "cc" : "clang"
    func cc(_ output: URL, soname: String, _ extra: [String] = []) throws {
      let r = try runProcess(
        compiler, ["-shared", "-fPIC", "-o", output.path, "-Wl,-soname,\(soname)", source.path] + extra)
      try #require(r.status == 0, "\(compiler): \(r.standardError)")
    }
    let name = try soname()
    switch standIn {
    case .withoutTheCalls:
      try cc(lib.appendingPathComponent(name), soname: name)
    case .needingAMissingLibrary:
      // Linked against a library in `aside`, which is on no path when the browser runs.
      try cc(aside.appendingPathComponent(missing), soname: missing)
      try cc(
        lib.appendingPathComponent(name), soname: name,
        ["-Wl,--no-as-needed", "-L\(aside.path)", "-l:\(missing)"])
    }
    return (lib, name)
  }

  /// The browser in tmux over the test memo folder with `standIn` first on its library path,
  /// playing the first memo (its sound to a file in `scratch`); and the stand-in's soname.
  static func playing(with standIn: StandIn, in scratch: ScratchFolder) throws -> (TmuxSession, String) {
    let (lib, soname) = try build(standIn, in: scratch)
    var environment = EndToEndActionTests.soundToFile(scratch.appendingPathComponent("sound.raw"))
    environment["LD_LIBRARY_PATH"] = lib.path
    // Wide enough for the whole message, which quotes the stand-in's path.
    let tmux = try TmuxSession(folder: try TUIHarness.memoFolder(), width: 240, environment: environment)
    #expect(tmux.waitUntilRead(for: "3 memos") != nil, "\(tmux.capture())")
    tmux.send("Space")
    #expect(tmux.wait { ListeningEndToEndTests.clock($0) != nil } != nil, "\(tmux.capture())")
    return (tmux, soname)
  }

  /// A memo in `scratch` and the environment to play it with `--play` on ALSA's null device, with
  /// `standIn` first on the library path; and the stand-in's soname.
  static func toPlay(with standIn: StandIn, in scratch: ScratchFolder) throws -> (
    memo: URL, environment: [String: String], soname: String
  ) {
    let (lib, soname) = try build(standIn, in: scratch)
    let memo = scratch.appendingPathComponent("2026-03-14T09-30-00Z_audio.m4a")
    try FileManager.default.copyItem(at: TUIHarness.toneAudio, to: memo)
    var environment = ProcessInfo.processInfo.environment
    environment["LD_LIBRARY_PATH"] = lib.path
    environment["STASH_ALSA_DEVICE"] = "null"
    return (memo, environment, soname)
  }

  /// `--play memo --control` on a paced device, given `play`, `command`, `status` and `quit`:
  /// expects exit 0 and standard error to hold `expected` and `standIn`'s reason; the three
  /// answers (`quit` is not answered).
  static func control(
    _ memo: URL, _ command: String, environment: [String: String], saying expected: String, _ standIn: StandIn
  ) throws -> [[String: Any]] {
    var paced = environment
    paced["STASH_ALSA_PACE"] = "1"
    let controlled = try runProcess(
      TUIHarness.binary, ["--play", memo.path, "--control"], environment: paced,
      input: Data("play\n\(command)\nstatus\nquit\n".utf8))
    #expect(controlled.status == 0, "\(controlled.standardError)")
    #expect(controlled.standardError.contains(expected), "\(controlled.standardError)")
    #expect(controlled.standardError.contains(standIn.reason), "\(controlled.standardError)")
    let answers = controlled.standardOutput.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    try #require(answers.count == 3, "\(controlled.standardOutput)")
    return answers
  }

  /// Sends `key` and expects the status line to refuse it: `opening` first, `standIn`'s failure
  /// and the loader's reason, `closing` last.
  static func expectRefusal(
    after key: String, in tmux: TmuxSession, saying opening: String, then closing: String, _ standIn: StandIn,
    _ soname: String
  ) {
    tmux.send(key)
    let refused = tmux.wait { statusLine($0).hasPrefix(opening) }
    let status = statusLine(refused ?? tmux.capture())
    #expect(refused != nil, "the status line says: \(status)")
    #expect(status.contains(standIn.failure(soname)), "\(status)")
    #expect(status.contains(standIn.reason), "\(status)")
    #expect(status.hasSuffix(closing), "\(status)")
  }

  /// The status line: the one above the transport line.
  static func statusLine(_ screen: String) -> String {
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
    guard let transport = lines.lastIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
      transport > 0
    else { return "" }
    // While a memo plays, the waveform strip (block glyphs and `·` only) sits between the two.
    let above = lines[transport - 1].trimmingCharacters(in: .whitespaces)
    let strip = !above.isEmpty && above.allSatisfy { "▁▂▃▄▅▆▇█·".contains($0) }
    guard strip, transport > 1 else { return above }
    return lines[transport - 2].trimmingCharacters(in: .whitespaces)
  }

  @Test(arguments: StandIn.allCases)
  func theBrowserSaysWhyTheSpeedStaysAtOneAndPlaysOn(_ standIn: StandIn) throws {
    let scratch = try ScratchFolder("stash-speed-refused")
    defer { scratch.remove() }
    let (tmux, soname) = try Self.playing(with: standIn, in: scratch)
    defer { tmux.close() }

    Self.expectRefusal(
      after: "}", in: tmux, saying: "cannot play at another speed", then: "playing on at 1×", standIn, soname)

    // Playing goes on, at 1×: the transport shows no speed and no real time beside the memo's,
    // and the clock keeps pace with the wall.
    let before = try #require(ListeningEndToEndTests.clock(tmux.capture()), "\(tmux.capture())")
    let start = Date()
    let later = tmux.wait(timeout: 10) { (ListeningEndToEndTests.clock($0) ?? 0) >= before + 3 }
    let wall = Date().timeIntervalSince(start)
    let transport = TUIHarness.transport(later ?? tmux.capture())
    #expect(later != nil, "the clock stopped: \(transport)")
    #expect(wall > 2, "3 memo seconds in \(wall) s of the wall: faster than 1×")
    #expect(transport.hasPrefix("▶"), "\(transport)")
    #expect(!transport.contains("×") && !transport.contains("real)"), "\(transport)")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil, "\(tmux.capture())")
  }

  @Test(arguments: StandIn.allCases)
  func playAndControlSayWhyOnStandardError(_ standIn: StandIn) throws {
    let scratch = try ScratchFolder("stash-speed-refused-cli")
    defer { scratch.remove() }
    let (memo, environment, soname) = try Self.toPlay(with: standIn, in: scratch)
    let expected = "stash-tui: cannot play at another speed: \(standIn.failure(soname))"

    // `--play --speed 2`: said once, and the memo still plays to its end (exit 0).
    let played = try runProcess(
      TUIHarness.binary, ["--play", memo.path, "--speed", "2", "--to", "1"], environment: environment)
    #expect(played.status == 0, "\(played.standardError)")
    #expect(played.standardError.contains(expected), "\(played.standardError)")
    #expect(played.standardError.contains(standIn.reason), "\(played.standardError)")

    // `--control`'s `speed 2`: said, and the player answers playing at 1×.
    let answers = try Self.control(memo, "speed 2", environment: environment, saying: expected, standIn)
    #expect(answers[1]["speed"] as? Double == 1, "\(answers[1])")
    #expect(answers[2]["state"] as? String == "playing", "\(answers[2])")
  }
}

/// The voice boost and the noise reduction need the same libavfilter, opened only when turned on:
/// with a stand-in that cannot serve, each is refused with the loader's reason and the memo plays
/// on without it, in `--play` (on stderr, to the end, exit 0) and in the browser (on the status
/// line, the clock going on).
@Suite struct ListeningRefusalEndToEndTests {
  /// A listening setting and its refusal's opening words.
  enum Setting: String, CaseIterable, CustomTestStringConvertible {
    case boost = "--voice-boost"
    case enhance = "--enhance"

    var testDescription: String { rawValue }

    var refusal: String {
      switch self {
      case .boost: "cannot boost the voice: "
      case .enhance: "cannot reduce the noise: "
      }
    }

    /// Its word in `--control`, and its field in the status answer.
    var control: (word: String, field: String) {
      switch self {
      case .boost: ("boost", "voiceBoost")
      case .enhance: ("enhance", "enhance")
      }
    }
  }

  @Test(arguments: Setting.allCases)
  func playSaysWhyAndPlaysToTheEnd(_ setting: Setting) throws {
    let scratch = try ScratchFolder("stash-listening-refused")
    defer { scratch.remove() }
    let standIn = SpeedRefusalEndToEndTests.StandIn.needingAMissingLibrary
    let (memo, environment, soname) = try SpeedRefusalEndToEndTests.toPlay(with: standIn, in: scratch)
    let played = try runProcess(
      TUIHarness.binary, ["--play", memo.path, setting.rawValue, "--to", "1"], environment: environment)
    #expect(played.status == 0, "\(played.standardError)")
    let expected = "stash-tui: " + setting.refusal + standIn.failure(soname)
    #expect(played.standardError.contains(expected), "\(played.standardError)")
    #expect(played.standardError.contains(standIn.reason), "\(played.standardError)")
    #expect(played.standardError.contains("playing on without it"), "\(played.standardError)")

    // `--control`'s `boost on` or `enhance on`: said, and the player answers playing without it.
    let answers = try SpeedRefusalEndToEndTests.control(
      memo, "\(setting.control.word) on", environment: environment, saying: expected, standIn)
    #expect(answers[2][setting.control.field] as? Bool == false, "\(answers[2])")
    #expect(answers[2]["state"] as? String == "playing", "\(answers[2])")
  }

  @Test func theBrowserSaysWhyTheBoostIsOffAndPlaysOn() throws {
    let scratch = try ScratchFolder("stash-boost-refused")
    defer { scratch.remove() }
    let standIn = SpeedRefusalEndToEndTests.StandIn.withoutTheCalls
    let (tmux, soname) = try SpeedRefusalEndToEndTests.playing(with: standIn, in: scratch)
    defer { tmux.close() }

    SpeedRefusalEndToEndTests.expectRefusal(
      after: "v", in: tmux, saying: Setting.boost.refusal, then: "playing on without it", standIn, soname)

    // Playing goes on: the clock keeps going.
    let before = try #require(ListeningEndToEndTests.clock(tmux.capture()), "\(tmux.capture())")
    let later = tmux.wait(timeout: 10) { (ListeningEndToEndTests.clock($0) ?? 0) >= before + 2 }
    #expect(later != nil, "the clock stopped: \(TUIHarness.transport(tmux.capture()))")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil, "\(tmux.capture())")
  }
}
