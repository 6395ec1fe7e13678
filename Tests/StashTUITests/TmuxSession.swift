import Foundation
import StashTestSupport

/// The real binary in a real terminal: a tmux server on its own socket, driven with send-keys and
/// read with capture-pane. Every wait polls the screen until the text appears or a timeout ends;
/// the server is killed when the session is closed.
final class TmuxSession {
  let socket: String
  let folder: URL
  /// Written by the shell around the browser: the terminal settings before and after, the status.
  let sttyBefore: URL
  let sttyAfter: URL
  /// `XDG_STATE_HOME` of the browser: where it remembers places (unless the test names another).
  let stateHome: URL

  /// Starts `stash-tui` on `folder` in a `width` x `height` terminal, with extra environment and
  /// options.
  init(
    folder: URL, width: Int = 100, height: Int = 30, environment: [String: String] = [:],
    arguments: [String] = []
  ) throws {
    socket = "stash-tui-test-\(UUID().uuidString.prefix(8))"
    self.folder = folder
    let scratch = try Fixtures.scratchFolder("stash-tui-tmux")
    sttyBefore = scratch.appendingPathComponent("stty.before")
    sttyAfter = scratch.appendingPathComponent("stty.after")
    // Places memos were left off go to the scratch folder, never the home folder of whoever runs
    // the tests.
    stateHome = scratch.appendingPathComponent("state")
    // So is the findings cache: each session starts with none.
    var env = [
      "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "TZ": "UTC", "NO_COLOR": "1",
      "XDG_STATE_HOME": stateHome.path, "XDG_CACHE_HOME": scratch.appendingPathComponent("cache").path,
    ]
    for (k, v) in environment { env[k] = v }
    let assignments = env.sorted { $0.key < $1.key }.map { "\($0.key)=\(TmuxSession.quote($0.value))" }
      .joined(separator: " ")
    // The shell records the terminal's settings around the run and the exit status after it,
    // then stays, so the test can read them.
    let command =
      "stty -g > \(TmuxSession.quote(sttyBefore.path)); env \(assignments) "
      + "\(([TUIHarness.binary] + arguments + [folder.path]).map(TmuxSession.quote).joined(separator: " ")); "
      + "echo EXITED:$?; stty -g > \(TmuxSession.quote(sttyAfter.path)); sleep 600"
    // The server tmux forks would inherit the pipes runProcess reads to their end, so it starts
    // with its output going nowhere.
    // Every descriptor but 0-2 is closed first: a pipe of another test running at the same time
    // must not leak into the long-lived server either.
    let start =
      "for fd in $(ls /proc/$$/fd); do if [ \"$fd\" -gt 2 ]; then eval \"exec $fd>&-\"; fi; done; "
      // The test runner may ignore SIGHUP, and ignored signals pass through exec: without
      // defaults, the panes would outlive kill-server.
      + "exec env --default-signal tmux -L \(socket) -f /dev/null new-session -d -x \(width) -y \(height) "
      + "\(TmuxSession.quote(command)) </dev/null >/dev/null 2>&1"
    let r = try runProcess("/bin/bash", ["-c", start])
    guard r.status == 0 else { throw TmuxError(message: "tmux new-session failed: \(r.standardError)") }
  }

  /// What tmux failed at.
  struct TmuxError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// The screen now, as text.
  func capture() -> String {
    (try? runProcess("tmux", ["-L", socket, "capture-pane", "-p"]))?.standardOutput ?? ""
  }

  /// The screen now with its attributes as SGR escapes (`capture-pane -e`).
  func captureWithAttributes() -> String {
    (try? runProcess("tmux", ["-L", socket, "capture-pane", "-p", "-e"]))?.standardOutput ?? ""
  }

  /// Clicks the left button at column `x`, row `y` (from 0), as an xterm sends it (SGR 1006).
  func click(x: Int, y: Int) {
    type("\u{1b}[<0;\(x + 1);\(y + 1)M\u{1b}[<0;\(x + 1);\(y + 1)m")
  }

  /// Polls the screen until `predicate` holds; returns the screen then, or nil after `timeout`.
  ///
  /// tmux can be captured partway through a frame the browser drew in one refresh (a window's
  /// border drawn, its text not yet), so a screen counts only once two captures in a row agree.
  /// A screen that satisfies `predicate` but never settles is returned at the deadline.
  @discardableResult
  func wait(timeout: Double = 10, until predicate: (String) -> Bool) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    var matched: String?
    repeat {
      let screen = capture()
      if predicate(screen) {
        if screen == matched { return screen }
        matched = screen
        Thread.sleep(forTimeInterval: 0.02)
      } else {
        matched = nil
        Thread.sleep(forTimeInterval: 0.05)
      }
    } while Date() < deadline
    return matched
  }

  /// Polls until `text` is on the screen.
  @discardableResult
  func wait(for text: String, timeout: Double = 10) -> String? {
    wait(timeout: timeout) { $0.contains(text) }
  }

  /// Polls until `text` is on the screen and every listed memo has been read: the browser shows
  /// its list from the names first (`· reading N…` in the header) and fills titles in after.
  @discardableResult
  func waitUntilRead(for text: String, timeout: Double = 10) -> String? {
    wait(timeout: timeout) { $0.contains(text) && !$0.contains(" · reading ") }
  }

  /// Sends keys by tmux name (`Enter`, `C-c`, `Down`, `C-Right`) or literal characters.
  func send(_ keys: String...) {
    _ = try? runProcess("tmux", ["-L", socket, "send-keys"] + keys)
  }

  /// Types `text` literally.
  func type(_ text: String) {
    _ = try? runProcess("tmux", ["-L", socket, "send-keys", "-l", text])
  }

  /// Pastes `text` as a terminal does, in bracketed-paste marks when the program asked for them
  /// (`paste-buffer -p`).
  func paste(_ text: String) {
    _ = try? runProcess("tmux", ["-L", socket, "set-buffer", "--", text])
    _ = try? runProcess("tmux", ["-L", socket, "paste-buffer", "-p"])
  }

  /// Resizes the terminal.
  func resize(width: Int, height: Int) {
    _ = try? runProcess("tmux", ["-L", socket, "resize-window", "-x", "\(width)", "-y", "\(height)"])
  }

  /// The process id of stash-tui in the pane (a child of the pane's shell).
  func browserProcess() -> Int32? {
    guard
      let shell = try? runProcess("tmux", ["-L", socket, "list-panes", "-F", "#{pane_pid}"]),
      let children = try? runProcess(
        "ps",
        ["-o", "pid=,comm=", "--ppid", shell.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)])
    else { return nil }
    for line in children.standardOutput.split(separator: "\n") where line.contains("stash-tui") {
      return Int32(line.split(separator: " ").first ?? "")
    }
    return nil
  }

  /// Ends the tmux server (and the browser if it still runs).
  func close() {
    _ = try? runProcess("tmux", ["-L", socket, "kill-server"])
  }

  private static func quote(_ s: String) -> String {
    "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
