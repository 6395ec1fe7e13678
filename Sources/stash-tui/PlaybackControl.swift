import StashPlayback
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `stash-tui --play FILE --control`: a line protocol on standard input, for tests and benchmarks
/// that drive the player on a real sound server from another process. Commands: `play [T]`,
/// `seek T`, `pause`, `resume`, `toggle`, `stop`, `status`, `quit`. Each is answered with one JSON
/// line: `state`, `position`, `duration`, `error`, `failures` (how many times the player went into
/// a failed state), `underruns` and `sent` (monotonic seconds when the command was carried out).
enum PlaybackControl {
  /// Counts the player's entries into a failed state, from its change notifications.
  final class FailureCount: Sendable {
    private let state = Mutex<(failed: Bool, count: Int)>((false, 0))

    /// Notes a state the player reported.
    func note(_ playback: PlaybackState) {
      state.withLock { s in
        let failed: Bool
        if case .failed = playback { failed = true } else { failed = false }
        if failed && !s.failed { s.count += 1 }
        s.failed = failed
      }
    }

    /// Failures so far.
    var count: Int { state.withLock { $0.count } }
  }

  /// Runs commands until `quit` or the end of input; 0, or 2 after a command it does not know.
  static func run(_ player: Player, failures: FailureCount) -> Int32 {
    while let line = readLine() {
      let words = line.split(separator: " ").map(String.init)
      guard let command = words.first else { continue }
      let argument = words.count > 1 ? Double(words[1]) : nil
      switch command {
      case "play": player.play(from: argument)
      case "seek":
        guard let argument else { return refuse(line) }
        player.seek(to: argument)
      case "pause": player.pause()
      case "resume": player.resume()
      case "toggle": player.togglePause()
      case "stop": player.stop()
      case "status": break
      case "quit": return 0
      default: return refuse(line)
      }
      // Straight to the descriptor: a pipe must see each answer at once.
      LaunchOptions.write(1, json(player.snapshot, failures: failures.count) + "\n")
    }
    return 0
  }

  private static func refuse(_ line: String) -> Int32 {
    HeadlessPlayback.say("stash-tui: --control does not know '\(line)'")
    return 2
  }

  /// The snapshot as one JSON line.
  static func json(_ snapshot: PlaybackSnapshot, failures: Int) -> String {
    var fields: [String] = []
    let state: String
    switch snapshot.state {
    case .idle: state = "idle"
    case .playing: state = "playing"
    case .paused: state = "paused"
    case .ended: state = "ended"
    case .failed(let error):
      state = "failed"
      fields.append("\"error\": \(quoted(error.description))")
    }
    fields.append("\"state\": \"\(state)\"")
    fields.append("\"position\": \(snapshot.position)")
    if let duration = snapshot.duration { fields.append("\"duration\": \(duration)") }
    fields.append("\"failures\": \(failures)")
    fields.append("\"underruns\": \(snapshot.underruns)")
    fields.append("\"sent\": \(Double(PlaybackClock.now()) / 1e9)")
    return "{" + fields.joined(separator: ", ") + "}"
  }

  /// `text` as a JSON string.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20:
        out +=
          "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
