import Foundation
import StashTestSupport
import Testing

/// The browser's update step and view (`--render-once`) on a scratch copy of the demo fixtures and
/// on the test folder: transport keys, typed times, clicks, damaged audio, unknown lengths. Which
/// memo shows what is read from the demo MANIFEST.
@Suite struct DemoScreenTests {
  struct Manifest: Decodable {
    struct Memo: Decodable {
      struct Audio: Decodable { var state: String }
      var base: String
      var audio: Audio
    }
    var memos: [Memo]
  }

  /// A scratch copy of the demo folder and the position (in the newest-first list) of the first
  /// memo whose audio is in `state`.
  static func demo(withAudio state: String) throws -> (URL, Int) {
    let source = Fixtures.folder("demo")
    let manifest = try JSONDecoder().decode(
      Manifest.self, from: Data(contentsOf: source.appendingPathComponent("MANIFEST.json")))
    let copy = try Fixtures.scratchFolder("stash-tui-demo")
    for name in try FileManager.default.contentsOfDirectory(atPath: source.path) where name != "MANIFEST.json"
    {
      try FileManager.default.copyItem(
        at: source.appendingPathComponent(name), to: copy.appendingPathComponent(name))
    }
    let base = try #require(manifest.memos.first { $0.audio.state == state }?.base)
    let list = try runProcess(
      Fixtures.product("stash").path, ["ls", "--json", copy.path], environment: TUIHarness.environment)
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [[String: Any]])
    let index = try #require(rows.firstIndex { $0["base"] as? String == base })
    return (copy, index)
  }

  @Test func theDemosHebrewTitleIsIsolatedWhereverItShows() throws {
    let hebrew = "רעיון לשיר חדש"
    let all = try TUIHarness.render(Fixtures.folder("demo"), size: "120x30")
    let rows = all.split(separator: "\n").map(String.init)
    // ⁅ ⁆ mark FSI and PDI in a rendered screen: the whole title is one isolate, never a word.
    let row = try #require(rows.first { $0.contains(hebrew) }, "\(all)")
    #expect(row.contains("⁅\(hebrew)⁆"), "\(row)")
    // Selected and played: the detail heading and the transport line isolate it too.
    let index = try #require(rows.dropFirst().firstIndex { $0.contains(hebrew) }) - 1
    let played = try TUIHarness.render(
      Fixtures.folder("demo"), size: "120x30", keys: String(repeating: "j", count: index) + "<space>")
    #expect(
      played.components(separatedBy: "⁅\(hebrew)⁆").count >= 3, "list, heading and transport: \(played)")
    #expect(!played.contains("⁅רעיון⁆"))
  }

  @Test func damagedAudioSaysWhyAndThePlayKeyExplains() throws {
    let (folder, index) = try Self.demo(withAudio: "damaged")
    let keys = String(repeating: "j", count: index) + " "
    let screen = try TUIHarness.render(folder, keys: keys)
    #expect(screen.contains("Audio damaged:"))
    #expect(screen.contains("Cannot play:"))
    #expect(TUIHarness.transport(screen).hasPrefix("■"), "nothing started: \(TUIHarness.transport(screen))")
  }

  @Test func unknownLengthPlaysAndTheClockCountsUp() throws {
    let (folder, index) = try Self.demo(withAudio: "lengthUnreadable")
    let keys = String(repeating: "j", count: index) + " <wait 3>"
    let screen = try TUIHarness.render(folder, keys: keys)
    #expect(screen.contains("Length unknown"))
    #expect(TUIHarness.transport(screen).hasPrefix("▶ 0:03 counting up; length unknown"), "\(screen)")
    #expect(TUIHarness.selectedRow(screen)?.contains("--:--") == true)
  }

  @Test func typedTimesCueStepsAndTheScrubber() throws {
    let folder = try TUIHarness.memoFolder()
    let open = "<end><enter>"
    // g goes to a typed time and follows there.
    let typed = try TUIHarness.render(folder, keys: open + "g0:12<enter>")
    #expect(typed.contains("│›▶  0:12 After the gap"))
    #expect(TUIHarness.transport(typed).hasPrefix("▶ 0:12 "))
    let tooFar = try TUIHarness.render(folder, keys: open + "g1:30<enter>")
    #expect(tooFar.contains("The memo is only 0:20 long."))
    let notATime = try TUIHarness.render(folder, keys: open + "gsoon<enter>")
    #expect(notATime.contains("“soon” is not a time"))
    // Ctrl-→ goes to the next cue's first word, Ctrl-← back to the start of the cue being spoken.
    let next = try TUIHarness.render(folder, keys: open + "<enter><c-right><c-right>")
    #expect(TUIHarness.transport(next).hasPrefix("▶ 0:12 "), "\(TUIHarness.transport(next))")
    let back = try TUIHarness.render(folder, keys: open + "g0:16<enter><wait 3><c-left>")
    #expect(TUIHarness.transport(back).hasPrefix("▶ 0:15 "), "\(TUIHarness.transport(back))")
    // [ and ] move a minute, clamped to the memo.
    let minute = try TUIHarness.render(folder, keys: open + "g0:10<enter>[")
    #expect(TUIHarness.transport(minute).hasPrefix("▶ 0:00 "))
    // A click on the scrubber's middle seeks to about the middle.
    let playing = try TUIHarness.render(folder, keys: open + "<enter>")
    let line = TUIHarness.transport(playing)
    let bar = try #require(line.firstIndex(of: "●"))
    let end = try #require(line.lastIndex(of: "─"))
    let middle =
      (line.distance(from: line.startIndex, to: bar) + line.distance(from: line.startIndex, to: end)) / 2 + 1
    let clicked = try TUIHarness.render(folder, keys: open + "<enter><click \(middle),29>")
    let clock = TUIHarness.transport(clicked).dropFirst(2).prefix(4)
    let seconds = Int(clock.split(separator: ":")[1]) ?? -1
    #expect((9...11).contains(seconds), "clicked mid-scrubber and got \(clock)")
  }
}
