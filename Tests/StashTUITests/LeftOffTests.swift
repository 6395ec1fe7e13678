import Foundation
import StashTestSupport
import Testing

/// Where memos were left off, through the real binary's `--render-once` hook with its virtual
/// clock: the file under `$XDG_STATE_HOME/stash`, a memo renamed or copied, one played to its end,
/// a damaged file, and several browsers writing at once.
@Suite struct LeftOffTests {
  /// A folder with one memo, `base`, whose audio is a tone of `frequency` Hz (so its key is its own).
  static func memo(_ base: String, frequency: Int, in folder: URL? = nil) throws -> URL {
    let folder = try folder ?? Fixtures.scratchFolder("stash-tui-leftoff")
    let audio = folder.appendingPathComponent(base + "_audio.m4a")
    let r = try runProcess(
      "ffmpeg",
      [
        "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=f=\(frequency):d=20", "-c:a", "aac", "-ac",
        "1",
        "-ar", "48000", audio.path,
      ])
    #expect(r.status == 0, "ffmpeg: \(r.standardError)")
    return folder
  }

  /// The screen after `keys` over `folder`, with places kept in `state`.
  static func render(_ folder: URL, state: URL, keys: String) throws -> String {
    var env = TUIHarness.environment
    env["XDG_STATE_HOME"] = state.path
    let r = try runProcess(
      TUIHarness.binary, ["--render-once", "100x30", "--keys", keys, folder.path], environment: env)
    #expect(r.status == 0, "stash-tui: \(r.standardError)")
    return r.standardOutput
  }

  /// The transport line of a screen.
  static func transport(_ screen: String) -> String {
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    return lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
  }

  /// The book's lines after its two-line head.
  static func entries(_ state: URL) throws -> [String] {
    let text = try String(contentsOf: state.appendingPathComponent("stash/positions"), encoding: .utf8)
    #expect(text.hasPrefix("stash positions 1\n"))
    return text.split(separator: "\n").dropFirst(2).map(String.init)
  }

  @Test func aMemoContinuesWhereItWasLeftOffEvenRenamedOrCopied() throws {
    let state = try Fixtures.scratchFolder("stash-tui-state")
    let folder = try Self.memo("2026-03-14T09-30-00Z", frequency: 523)
    try "Said nothing secret\n".write(
      to: folder.appendingPathComponent("2026-03-14T09-30-00Z_title.txt"), atomically: false, encoding: .utf8)
    // Heard for 8 s, then quit: the place is kept, with no name and no title in the file.
    _ = try Self.render(folder, state: state, keys: " <wait 8>q")
    let entries = try Self.entries(state)
    #expect(entries.count == 1, "\(entries)")
    let fields = entries.first?.split(separator: " ") ?? []
    #expect(fields.count == 3 && fields[1] == "8", "\(entries)")
    let file = try String(contentsOf: state.appendingPathComponent("stash/positions"), encoding: .utf8)
    // A base's date with its dash: the file's hashes and times are digits and may hold "2026".
    #expect(!file.contains("2026-") && !file.contains("secret"), "\(file)")
    // Opened again, space continues there and says so; B plays from the beginning.
    let again = try Self.render(folder, state: state, keys: " ")
    #expect(
      again.contains("Continuing from 0:08, where it was left off: B plays from the beginning."), "\(again)")
    #expect(Self.transport(again).hasPrefix(" ▶ 0:08"), "\(again)")
    let fromStart = try Self.render(folder, state: state, keys: " B")
    #expect(Self.transport(fromStart).hasPrefix(" ▶ 0:00"), "\(fromStart)")
    // Renamed and copied to another folder: still known by its audio.
    let elsewhere = try Fixtures.scratchFolder("stash-tui-leftoff-copy")
    try FileManager.default.copyItem(
      at: folder.appendingPathComponent("2026-03-14T09-30-00Z_audio.m4a"),
      to: elsewhere.appendingPathComponent("walk-renamed_audio.m4a"))
    let copied = try Self.render(elsewhere, state: state, keys: " ")
    #expect(Self.transport(copied).hasPrefix(" ▶ 0:08"), "\(copied)")
    // Another recording is not taken for it.
    let other = try Self.memo("2026-03-15T10-00-00Z", frequency: 660)
    #expect(Self.transport(try Self.render(other, state: state, keys: " ")).hasPrefix(" ▶ 0:00"))
  }

  @Test func aMemoPlayedToItsEndStartsFromTheBeginningNextTime() throws {
    let state = try Fixtures.scratchFolder("stash-tui-state")
    let folder = try Self.memo("2026-03-14T09-30-00Z", frequency: 587)
    _ = try Self.render(folder, state: state, keys: " <wait 9>q")
    #expect(try Self.entries(state).count == 1)
    // Continues at 0:09 and plays to its end: forgotten.
    let ended = try Self.render(folder, state: state, keys: " <wait 15>")
    #expect(Self.transport(ended).contains("Stopped"), "\(ended)")
    #expect(try Self.entries(state).isEmpty)
    let next = try Self.render(folder, state: state, keys: " ")
    #expect(!next.contains("Continuing from"), "\(next)")
    #expect(Self.transport(next).hasPrefix(" ▶ 0:00"), "\(next)")
    // A few seconds heard is not worth remembering.
    _ = try Self.render(folder, state: state, keys: " <wait 3>q")
    #expect(try Self.entries(state).isEmpty)
  }

  /// The list marks a memo left off partway with `◐` when the folder is opened again; another
  /// memo is not marked, and one played to its end loses the mark.
  @Test func aMemoLeftOffPartwayIsMarkedInTheList() throws {
    let state = try Fixtures.scratchFolder("stash-tui-state")
    let folder = try Self.memo("2026-03-14T09-30-00Z", frequency: 698)
    _ = try Self.memo("2026-03-13T08-00-00Z", frequency: 740, in: folder)
    func rows(_ screen: String) -> [String] {
      Array(screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[1...2])
    }
    let before = try Self.render(folder, state: state, keys: "")
    #expect(rows(before).allSatisfy { !$0.contains("◐") }, "\(before)")
    _ = try Self.render(folder, state: state, keys: " <wait 8>q")
    let after = rows(try Self.render(folder, state: state, keys: ""))
    #expect(after[0].hasPrefix("›◐2026-03-14"), "\(after)")
    #expect(after[1].hasPrefix("  2026-03-13"), "\(after)")
    // The interactive browser, whose rows are read in the background, marks it too.
    let tmux = try TmuxSession(folder: folder, environment: ["XDG_STATE_HOME": state.path])
    defer { tmux.close() }
    #expect(tmux.wait(for: "›◐2026-03-14") != nil, "\(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil, "\(tmux.capture())")
    // Played on to its end: forgotten, and no longer marked.
    _ = try Self.render(folder, state: state, keys: " <wait 15>")
    let ended = rows(try Self.render(folder, state: state, keys: ""))
    #expect(ended[0].hasPrefix("› 2026-03-14"), "\(ended)")
  }

  @Test func aDamagedFileIsSetAsideWithAWarningAndPlayingGoesOn() throws {
    let state = try Fixtures.scratchFolder("stash-tui-state")
    let folder = try Self.memo("2026-03-14T09-30-00Z", frequency: 622)
    let stash = state.appendingPathComponent("stash")
    try FileManager.default.createDirectory(at: stash, withIntermediateDirectories: true)
    let damaged = "stash positions 1\n0123456789abcdef-1 12 1\nhalf a li"
    try damaged.write(to: stash.appendingPathComponent("positions"), atomically: false, encoding: .utf8)
    let screen = try Self.render(folder, state: state, keys: " ")
    #expect(
      screen.contains("could not be read (line 3: the last line is cut short): set aside as"), "\(screen)")
    #expect(Self.transport(screen).hasPrefix(" ▶ 0:00"), "\(screen)")
    let names = try FileManager.default.contentsOfDirectory(atPath: stash.path)
    let aside = try #require(names.first { $0.hasPrefix("positions.damaged-") }, "\(names)")
    #expect(try String(contentsOf: stash.appendingPathComponent(aside), encoding: .utf8) == damaged)
    #expect(!names.contains("positions"))
    // The next place heard starts a new book.
    _ = try Self.render(folder, state: state, keys: " <wait 7>q")
    #expect(try Self.entries(state).count == 1)
  }

  @Test func browsersWritingAtOnceLoseNoPlace() throws {
    let state = try Fixtures.scratchFolder("stash-tui-state")
    let count = 8
    let folders = try (0..<count).map { try Self.memo("2026-03-14T09-30-0\($0)Z", frequency: 300 + 37 * $0) }
    #expect(folders.count == count)
    var env = TUIHarness.environment
    env["XDG_STATE_HOME"] = state.path
    // Each browser writes its place several times while the others write theirs.
    let keys = " " + String(repeating: "<wait 4><space><space>", count: 3) + "q"
    let processes = try folders.map { folder -> Process in
      let p = Process()
      p.executableURL = URL(fileURLWithPath: TUIHarness.binary)
      p.arguments = ["--render-once", "100x30", "--keys", keys, folder.path]
      p.environment = env
      p.standardOutput = FileHandle.nullDevice
      try p.run()
      return p
    }
    for p in processes {
      p.waitUntilExit()
      #expect(p.terminationStatus == 0)
    }
    let entries = try Self.entries(state)
    #expect(entries.count == count, "\(entries)")
    #expect(entries.allSatisfy { $0.split(separator: " ")[1] == "12" }, "\(entries)")
    // No temporary file is left beside the books (the places and the memo selected per folder).
    let names = try FileManager.default.contentsOfDirectory(
      atPath: state.appendingPathComponent("stash").path)
    #expect(names.sorted() == ["positions", "selections"], "\(names)")
    // Each browser's folder is remembered: none lost another's.
    let selections = try String(
      contentsOf: state.appendingPathComponent("stash/selections"), encoding: .utf8)
    #expect(selections.split(separator: "\n").dropFirst(2).count == count, "\(selections)")
  }
}
