import StashFormat
import StashPlayback
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `stash-tui --play FILE --control`: a line protocol on standard input, for tests and benchmarks
/// that drive the player on a real sound server from another process. Commands: `play [T]`,
/// `seek T`, `pause`, `resume`, `toggle`, `stop`, `speed X`, `volume N`, `mute on|off`,
/// `boost on|off`, `enhance on|off`, `skip off|mild|medium|strong`, `loop A B`, `unloop`, `status`, `quit`. Each is
/// answered with one JSON line: `state`, `position`, `duration`, `error`, `failures` (how many
/// times the player went into a failed state), `underruns`, `speed`, `volume`, `muted`,
/// `voiceBoost`, `enhance`, `skipSilence` (the level or null), `silenceSkipped` (memo seconds left out),
/// `loop` (`[A, B]` or null), the last speed, volume, voice boost, noise reduction and skip
/// silence changes' latencies to the device when known, and `sent` (monotonic seconds when the command was carried
/// out).
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
      case "speed":
        guard words.count == 2, case .success(let speed) = speed(words[1]) else { return refuse(line) }
        if let refused = player.setSpeed(speed) { HeadlessPlayback.say("stash-tui: \(refused)") }
      case "volume":
        guard words.count == 2, case .success(let volume) = volume(words[1]) else { return refuse(line) }
        player.setVolume(volume)
      case "mute":
        guard words.count == 2, ["on", "off"].contains(words[1]) else { return refuse(line) }
        player.setMuted(words[1] == "on")
      case "boost":
        guard words.count == 2, ["on", "off"].contains(words[1]) else { return refuse(line) }
        if let refused = player.setVoiceBoost(words[1] == "on") {
          HeadlessPlayback.say("stash-tui: \(refused)")
        }
      case "enhance":
        guard words.count == 2, ["on", "off"].contains(words[1]) else { return refuse(line) }
        if let refused = player.setEnhance(words[1] == "on") { HeadlessPlayback.say("stash-tui: \(refused)") }
      case "skip":
        guard words.count == 2 else { return refuse(line) }
        if words[1] == "off" {
          player.setSkipSilence(nil)
        } else {
          guard let level = SkipSilenceLevel(rawValue: words[1]) else { return refuse(line) }
          player.setSkipSilence(level)
        }
      case "loop":
        guard words.count == 3, let from = Double(words[1]), let to = Double(words[2]) else {
          return refuse(line)
        }
        player.setLoop(from: from, to: to)
      case "unloop": player.clearLoop()
      case "status": break
      case "quit": return 0
      default: return refuse(line)
      }
      // Straight to the descriptor: a pipe must see each answer at once.
      LaunchOptions.write(1, json(player.snapshot, failures: failures.count) + "\n")
    }
    return 0
  }

  /// A problem with a value given.
  struct Problem: Error { var text: String }

  /// A speed as given on the command line: 0.5 to 3 (a trailing `x` allowed: `1.5x`).
  static func speed(_ text: String) -> Result<Double, Problem> {
    let number = text.hasSuffix("x") || text.hasSuffix("×") ? String(text.dropLast()) : text
    guard let value = Double(number), value.isFinite, Player.speeds.contains(value) else {
      return .failure(Problem(text: "the speed is a number from 0.5 to 3 (such as 1.5), not '\(text)'"))
    }
    return .success(value)
  }

  /// A volume as given on the command line: 0 to 150 percent (a trailing `%` allowed).
  static func volume(_ text: String) -> Result<Int, Problem> {
    let number = text.hasSuffix("%") ? String(text.dropLast()) : text
    guard let value = Int(number), (0...Player.maximumVolume).contains(value) else {
      return .failure(Problem(text: "the volume is a whole percentage from 0 to 150, not '\(text)'"))
    }
    return .success(value)
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
    fields.append("\"speed\": \(snapshot.speed)")
    fields.append("\"volume\": \(snapshot.volume)")
    fields.append("\"muted\": \(snapshot.muted)")
    fields.append("\"voiceBoost\": \(snapshot.voiceBoost)")
    fields.append("\"enhance\": \(snapshot.enhance)")
    fields.append("\"skipSilence\": " + (snapshot.skipSilence.map { "\"\($0.rawValue)\"" } ?? "null"))
    fields.append("\"silenceSkipped\": \(snapshot.silenceSkipped)")
    fields.append("\"loop\": " + (snapshot.loop.map { "[\($0.start), \($0.end)]" } ?? "null"))
    if let latency = snapshot.lastSpeedLatency { fields.append("\"speed_latency\": \(latency)") }
    if let latency = snapshot.lastVolumeLatency { fields.append("\"volume_latency\": \(latency)") }
    if let latency = snapshot.lastVoiceBoostLatency { fields.append("\"boost_latency\": \(latency)") }
    if let latency = snapshot.lastEnhanceLatency { fields.append("\"enhance_latency\": \(latency)") }
    if let latency = snapshot.lastSkipSilenceLatency { fields.append("\"skip_latency\": \(latency)") }
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
        out += "\\u" + Text.zeroPadded(String(scalar.value, radix: 16), width: 4)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
