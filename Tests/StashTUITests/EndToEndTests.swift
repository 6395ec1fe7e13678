import Foundation
import StashTestSupport
import Testing

/// The real binary in tmux on real folders: what a user sees and does.
@Suite struct EndToEndTests {
  @Test func listsOpensAndQuitsRestoringTheTerminal() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(folder: folder)
    defer { tmux.close() }
    let first = try #require(tmux.wait(for: "会議のメモ 🎉"), "the list did not appear: \(tmux.capture())")
    #expect(first.contains("3 memos"))
    #expect(first.contains("שלום עולם"))
    tmux.send("Down", "Down", "Enter")
    #expect(tmux.wait(for: "Missing speech: 0:08–0:12") != nil, "\(tmux.capture())")
    #expect(tmux.wait(for: "‹these words were never›") != nil)
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil, "q did not quit: \(tmux.capture())")
    let restored = tmux.wait { _ in FileManager.default.fileExists(atPath: tmux.sttyAfter.path) }
    #expect(restored != nil)
    #expect(
      try String(contentsOf: tmux.sttyBefore, encoding: .utf8)
        == String(contentsOf: tmux.sttyAfter, encoding: .utf8))
  }

  @Test func rightToLeftNamesAreIsolatedAndKeepTheColumns() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(folder: folder)
    defer { tmux.close() }
    // The Hebrew memo is the newest, so it is selected and its title heads the detail pane.
    let screen = try #require(tmux.waitUntilRead(for: "3 memos"), "\(tmux.capture())")
    let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let isolated = "\u{2068}שלום עולם\u{2069}"
    // tmux keeps FSI and PDI as zero-width characters: the name is one isolate in the list and
    // one in the detail (not a word at a time), so a bidi-aware terminal cannot move the columns.
    let row = try #require(rows.first { $0.contains("שלום") }, "\(screen)")
    #expect(row.components(separatedBy: isolated).count == 3, "list and detail isolate the name: \(row)")
    // Zero width: the divider is in the same column on the Hebrew row as on the plain one.
    func dividerColumn(_ line: String) -> Int? {
      guard let bar = line.firstIndex(of: "│") else { return nil }
      return line[..<bar].reduce(0) { n, c in
        c.unicodeScalars.first!.value == 0x2068 || c.unicodeScalars.first!.value == 0x2069 ? n : n + 1
      }
    }
    let plain = try #require(rows.first { $0.contains("2026-03-14") }, "\(screen)")
    #expect(dividerColumn(row) != nil)
    #expect(dividerColumn(row) == dividerColumn(plain), "the divider moved: \(rows.prefix(5))")
    tmux.send("q")
  }

  @Test func ctrlCRestoresTheTerminal() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(folder: folder)
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("C-c")
    #expect(tmux.wait(for: "EXITED:130") != nil, "Ctrl-C did not end it: \(tmux.capture())")
    _ = tmux.wait { _ in FileManager.default.fileExists(atPath: tmux.sttyAfter.path) }
    #expect(
      try String(contentsOf: tmux.sttyBefore, encoding: .utf8)
        == String(contentsOf: tmux.sttyAfter, encoding: .utf8))
  }

  @Test func aCrashRestoresTheTerminalAndIsStillReported() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(folder: folder)
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    let pid = try #require(tmux.browserProcess(), "no stash-tui in the pane")
    #expect(kill(pid, SIGSEGV) == 0)
    // The default action runs after the terminal is restored: the shell sees 128 + SIGSEGV.
    #expect(tmux.wait(for: "EXITED:139") != nil, "\(tmux.capture())")
    _ = tmux.wait { _ in FileManager.default.fileExists(atPath: tmux.sttyAfter.path) }
    #expect(
      try String(contentsOf: tmux.sttyBefore, encoding: .utf8)
        == String(contentsOf: tmux.sttyAfter, encoding: .utf8))
  }

  @Test func followsFilesAddedAndRemovedOutsideKeepingTheSelection() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(folder: folder)
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    // Select the Japanese title (second row).
    tmux.send("Down")
    #expect(tmux.wait { TUIHarness.selectedRow($0)?.contains("会議のメモ") == true } != nil, "\(tmux.capture())")
    // A newer memo is copied in from outside, the way a file manager does it.
    let base = "2026-12-24T20-00-00Z"
    let staging = folder.appendingPathComponent(".incoming")
    try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
    try "Added from outside\n".write(
      to: staging.appendingPathComponent("t"), atomically: false, encoding: .utf8)
    try FileManager.default.copyItem(at: TUIHarness.toneAudio, to: staging.appendingPathComponent("a"))
    try FileManager.default.moveItem(
      at: staging.appendingPathComponent("a"), to: folder.appendingPathComponent(base + "_audio.m4a"))
    try FileManager.default.moveItem(
      at: staging.appendingPathComponent("t"), to: folder.appendingPathComponent(base + "_title.txt"))
    let added = try #require(
      tmux.wait(for: "Added from outside"), "the new memo did not appear: \(tmux.capture())")
    #expect(added.contains("4 memos"))
    #expect(TUIHarness.selectedRow(added)?.contains("会議のメモ") == true, "selection moved: \(added)")
    // One removed from outside goes; the selection stays put.
    try FileManager.default.removeItem(at: folder.appendingPathComponent("2026-07-20T07-45-10Z_audio.m4a"))
    try FileManager.default.removeItem(at: folder.appendingPathComponent("2026-07-20T07-45-10Z_title.txt"))
    let removed = try #require(
      tmux.wait { !$0.contains("שלום") && $0.contains("3 memos") && !$0.contains(" · reading ") },
      "\(tmux.capture())")
    #expect(TUIHarness.selectedRow(removed)?.contains("会議のメモ") == true, "selection moved: \(removed)")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func resizeRelaysOutAtOnce() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(folder: folder)
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.send("Down", "Down", "Enter")
    #expect(tmux.wait(for: "│›   0:00 Hello") != nil, "\(tmux.capture())")
    // Narrow: the detail alone, no divider.
    tmux.resize(width: 60, height: 20)
    let narrow = try #require(
      tmux.wait { $0.contains("Missing speech") && !$0.contains("│") }, "\(tmux.capture())")
    #expect(!narrow.contains("会議のメモ"))
    tmux.send("Escape")
    #expect(tmux.wait(for: "会議のメモ") != nil)
    tmux.resize(width: 39, height: 9)
    #expect(tmux.wait(for: "Terminal too small") != nil, "\(tmux.capture())")
    tmux.resize(width: 100, height: 30)
    #expect(tmux.wait { $0.contains("会議のメモ") && $0.contains("│") } != nil, "\(tmux.capture())")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }

  @Test func filtersByTranscriptTextAndFindsTheMatch() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(folder: folder)
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil)
    tmux.type("/river")
    #expect(tmux.wait(for: "1 shown") != nil, "\(tmux.capture())")
    tmux.send("Enter", "Enter", "n")
    #expect(tmux.wait(for: "Cue 1 of 1 with “river”") != nil, "\(tmux.capture())")
    #expect(tmux.wait(for: "│›   0:03 The second cue") != nil, "\(tmux.capture())")
    tmux.send("Escape", "Escape")
    #expect(tmux.wait(for: "会議のメモ") != nil, "Esc in the list clears the filter: \(tmux.capture())")
    tmux.send("q")
  }

  @Test func aFolderThatCannotBeReadExitsWithTwo() throws {
    let missing = try runProcess(
      TUIHarness.binary, ["/nonexistent/stash-folder"], environment: TUIHarness.environment)
    #expect(missing.status == 2)
    #expect(missing.standardError.contains("/nonexistent/stash-folder: No such file or directory"))
    let file = try runProcess(TUIHarness.binary, ["/etc/hostname"], environment: TUIHarness.environment)
    #expect(file.status == 2)
    #expect(file.standardError.contains("not a folder"))
  }
}

extension TUIHarness {
  /// The list row the cursor is on (it starts with "›").
  static func selectedRow(_ screen: String) -> String? {
    screen.split(separator: "\n").dropFirst().first { $0.hasPrefix("›") }.map(String.init)
  }
}
