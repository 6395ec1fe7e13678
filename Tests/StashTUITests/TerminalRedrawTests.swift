import Foundation
import StashTestSupport
import Testing

/// What the real terminal shows after the screen changes size under the browser.
@Suite struct TerminalRedrawTests {
  /// A defect a new user found: shrunk to 30x8, the screen kept a glyph of the larger one in its
  /// bottom-right corner, and Ctrl-L did not clear it, because that one cell was never written.
  @Test func aShrunkScreenKeepsNothingOfTheLargerOneEvenInTheCorner() throws {
    let folder = try TUIHarness.memoFolder()
    let tmux = try TmuxSession(folder: folder, width: 40, height: 10)
    defer { tmux.close() }
    #expect(tmux.waitUntilRead(for: "3 memos") != nil, "\(tmux.capture())")
    // The help box's footer runs through the cell that becomes the corner of a 30x8 screen.
    tmux.send("?")
    let help = try #require(tmux.wait(for: "↑/↓ scroll"), "\(tmux.capture())")
    let row = help.split(separator: "\n", omittingEmptySubsequences: false)[7]
    #expect(Array(row).count > 29 && Array(row)[29] != " ", "nothing at the future corner: \(row)")
    tmux.resize(width: 30, height: 8)
    #expect(tmux.wait(for: "30x8; needs 40x10") != nil, "\(tmux.capture())")
    for key in ["", "C-l"] {
      if !key.isEmpty { tmux.send(key) }
      Thread.sleep(forTimeInterval: 0.3)
      let screen = tmux.capture().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      #expect(Array(screen.prefix(3)) == ["Terminal too small", "30x8; needs 40x10", "q quits"])
      let rest = screen.dropFirst(3).prefix(5)
      #expect(rest.count == 5 && rest.allSatisfy { $0.allSatisfy { $0 == " " } }, "after \(key): \(screen)")
    }
    // The first q closes the help box, still open underneath; the second quits.
    tmux.send("q")
    tmux.send("q")
    #expect(tmux.wait(for: "EXITED:0") != nil)
  }
}
