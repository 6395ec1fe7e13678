import Foundation
import StashTestSupport
import Testing

/// Listening in the real binary in tmux, playing to a real ALSA PCM (the `file` plugin, paced to
/// real time): speed, mute, the A-B loop and a repeated cue, continuing into the next memo, where a
/// memo was left off, and quitting from the too-small screen.
@Suite struct ListeningEndToEndTests {
  /// The memo clock at the start of the transport line (`▶ 0:12 …`), in seconds.
  static func clock(_ screen: String) -> Int? {
    let transport = TUIHarness.transport(screen)
    guard transport.hasPrefix("▶ ") else { return nil }
    let time = transport.dropFirst(2).prefix { $0 != " " }
    let parts = time.split(separator: ":").compactMap { Int($0) }
    guard parts.count == 2 else { return nil }
    return parts[0] * 60 + parts[1]
  }

  /// Whether the last 4,096 bytes the device was given are silence: every sample zero, read as
  /// the float samples the player sends (a muted negative sample is -0.0) or as 16-bit ones.
  static func silentTail(_ raw: URL) throws -> Bool {
    let handle = try FileHandle(forReadingFrom: raw)
    defer { try? handle.close() }
    let end = try handle.seekToEnd()
    try handle.seek(toOffset: end > 4096 ? (end - 4096) & ~3 : 0)
    let bytes = [UInt8](try handle.readToEnd() ?? Data())
    guard bytes.count >= 4 else { return false }
    let words = stride(from: 0, to: bytes.count - 3, by: 4).map {
      UInt32(bytes[$0]) | UInt32(bytes[$0 + 1]) << 8 | UInt32(bytes[$0 + 2]) << 16 | UInt32(bytes[$0 + 3])
        << 24
    }
    return words.allSatisfy { Float(bitPattern: $0) == 0 } || bytes.allSatisfy { $0 == 0 }
  }

  static func soundFile(_ folder: URL) -> URL {
    folder.deletingLastPathComponent().appendingPathComponent("\(folder.lastPathComponent).raw")
  }

  @Test func aRepeatedCueLoopsUntilTheLoopIsCleared() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(
      folder: folder, environment: EndToEndActionTests.soundToFile(Self.soundFile(folder)))
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    // The second cue of the transcript memo is 0:03 to 0:07.5.
    tmux.send("Down", "Down", "Enter", "Down")
    #expect(tmux.wait(for: "│›   0:03 The second cue") != nil, "\(tmux.capture())")
    tmux.send("L")
    #expect(tmux.wait(for: "loop 0:03–0:07") != nil, "\(tmux.capture())")
    // Both ends are marked on the scrubber once the head has left the start.
    let marked = tmux.wait {
      let t = TUIHarness.transport($0)
      return t.contains("[") && t.contains("●") && t.contains("]")
    }
    #expect(marked != nil, "the loop is not on the scrubber: \(TUIHarness.transport(tmux.capture()))")
    // For nine seconds the clock stays in the cue, and goes back to its start at least once.
    var seen: [Int] = []
    let deadline = Date().addingTimeInterval(9)
    while Date() < deadline {
      if let c = Self.clock(tmux.capture()) { seen.append(c) }
      Thread.sleep(forTimeInterval: 0.2)
    }
    #expect(!seen.isEmpty && seen.allSatisfy { (3...8).contains($0) }, "\(seen)")
    #expect(zip(seen, seen.dropFirst()).contains { $1 < $0 }, "the loop never went back: \(seen)")
    // l clears it, and playing goes on past the cue.
    tmux.send("l")
    #expect(tmux.wait(for: "Loop cleared.") != nil, "\(tmux.capture())")
    #expect(tmux.wait(timeout: 15) { (Self.clock($0) ?? 0) >= 10 } != nil, "\(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func speedRunsTheClockFasterAndMuteSilencesTheDevice() throws {
    let folder = try TUIHarness.memoFolder()
    let raw = Self.soundFile(folder)
    let tmux = try TmuxSession(folder: folder, environment: EndToEndActionTests.soundToFile(raw))
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("Space")
    #expect(tmux.wait { Self.clock($0) != nil } != nil, "\(tmux.capture())")
    tmux.send("}", "}", "}", "}")
    // 2×: the remaining time is memo time, the real time left beside it.
    let fast = try #require(tmux.wait(for: "  2×"), "\(tmux.capture())")
    #expect(TUIHarness.transport(fast).contains(" real)"), "\(TUIHarness.transport(fast))")
    let start = Date()
    let before = try #require(Self.clock(tmux.capture()))
    Thread.sleep(forTimeInterval: 3)
    let after = try #require(Self.clock(tmux.capture()))
    let wall = Date().timeIntervalSince(start)
    // Twice the memo seconds of the wall's, give or take the clock's whole seconds.
    #expect(
      Double(after - before) >= 2 * wall - 2 && Double(after - before) <= 2 * wall + 2,
      "\(before) → \(after) in \(wall) s")
    // Mute: the samples reaching the device are silence; unmuted they are the tone again.
    #expect(try !Self.silentTail(raw))
    tmux.send("m")
    #expect(tmux.wait(for: "muted") != nil, "\(tmux.capture())")
    Thread.sleep(forTimeInterval: 1)
    #expect(try Self.silentTail(raw), "muted, the device still gets sound")
    tmux.send("-")
    #expect(tmux.wait(for: "vol 95 %") != nil, "\(tmux.capture())")
    Thread.sleep(forTimeInterval: 1)
    #expect(try !Self.silentTail(raw), "unmuted, the device gets silence")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func continuingPlaysTheNextMemoWhenOneEnds() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(
      folder: folder, environment: EndToEndActionTests.soundToFile(Self.soundFile(folder)))
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("C")
    #expect(tmux.wait(for: "Continuing: when a memo ends") != nil, "\(tmux.capture())")
    #expect(TUIHarness.transport(tmux.capture()).contains("continue"))
    // The newest memo (the Hebrew title) from 0:17; at its end the next in the list plays.
    tmux.send("g")
    tmux.type("0:17")
    tmux.send("Enter")
    #expect(tmux.wait { TUIHarness.transport($0).contains("שלום") } != nil, "\(tmux.capture())")
    let next = tmux.wait(timeout: 15) {
      TUIHarness.transport($0).hasPrefix("▶") && TUIHarness.transport($0).contains("会議のメモ")
    }
    #expect(next != nil, "the next memo did not play: \(tmux.capture())")
    #expect(next.flatMap(TUIHarness.selectedRow)?.contains("会議のメモ") == true, "\(next ?? "")")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func aMemoContinuesWhereItWasLeftOffAndBStartsOver() throws {
    let folder = try TUIHarness.memoFolder()
    let sound = EndToEndActionTests.soundToFile(Self.soundFile(folder))
    let first = try TmuxSession(folder: folder, environment: sound)
    defer { first.close() }
    #expect(first.waitUntilRead(for: "3 memos") != nil)
    first.send("Space")
    #expect(first.wait(timeout: 15) { (Self.clock($0) ?? 0) >= 7 } != nil, "\(first.capture())")
    first.send("q")
    #expect(first.wait(for: "EXITED:0") != nil)
    let book = try String(
      contentsOf: first.stateHome.appendingPathComponent("stash/positions"), encoding: .utf8)
    #expect(book.split(separator: "\n").count == 3, "\(book)")

    var again = sound
    again["XDG_STATE_HOME"] = first.stateHome.path
    let second = try TmuxSession(folder: folder, environment: again)
    defer { second.close() }
    #expect(second.waitUntilRead(for: "3 memos") != nil)
    second.send("Space")
    let resumed = try #require(
      second.wait(for: "where it was left off: B plays from the beginning"), "\(second.capture())")
    #expect((Self.clock(resumed) ?? 0) >= 7, "\(TUIHarness.transport(resumed))")
    second.send("B")
    #expect(second.wait { (Self.clock($0) ?? 99) <= 2 } != nil, "\(second.capture())")
    second.send("q")
    #expect(second.wait(for: "EXITED:0") != nil)
  }

  @Test func onTheTooSmallScreenQQuitsEvenWithTheHelpOpen() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(folder: folder)
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("?")
    #expect(tmux.wait(for: "Keys") != nil)
    tmux.resize(width: 30, height: 8)
    #expect(tmux.wait(for: "Terminal too small") != nil, "\(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil, "the first q did not quit: \(tmux.capture())")
  }
}
