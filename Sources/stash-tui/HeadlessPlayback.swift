import Dispatch
import StashFormat
import StashPlayback

#if canImport(Glibc)
  import Glibc
#endif

/// `stash-tui --play FILE [--from T] [--to T] [--device NAME] [--speed X] [--volume N]
/// [--voice-boost] [--enhance] [--skip-silence[=LEVEL]]`: plays a memo without the interface and exits when it
/// is done (0), or says on stderr why it could not (1; 2 for a usage mistake). X is the speed (0.5
/// to 3, the pitch kept), N the volume in percent (0 to 150); `--voice-boost` brings a quiet voice
/// up to a steady loudness; `--enhance` brings a steady background (wind, hum, hiss) down under
/// the voice; `--skip-silence` shortens long pauses (LEVEL mild, medium or strong;
/// medium when not given), `--from` and `--to` staying memo times.
/// FILE is a memo's audio file, any other of its files, or its base path; T is `83`, `1:23` or
/// `1:02:03`. `--measure-seeks N` (benchmarks) seeks N times to spread-out places and prints how
/// long each took to reach the device; `--measure-changes N` (benchmarks) changes the speed, the
/// volume, the voice boost, the noise reduction and skip silence N times each and prints how long each took to reach
/// the device. `--control` (tests, benchmarks) takes commands on standard input instead, one a
/// line, and answers each with the player's snapshot as a JSON line (`PlaybackControl`).
enum HeadlessPlayback {
  struct Options {
    var file = ""
    var from: Double? = nil
    var to: Double? = nil
    var device: String? = nil
    var measureSeeks = 0
    var measureChanges = 0
    var control = false
    var speed = 1.0
    var volume = 100
    var voiceBoost = false
    var enhance = false
    var skipSilence: SkipSilenceLevel? = nil
  }

  static let usage =
    "usage: stash-tui --play FILE [--from T] [--to T] [--device NAME] [--speed X] [--volume N] [--voice-boost]"
    + " [--enhance] [--skip-silence[=mild|medium|strong]]"

  /// Whether the command line asks for headless playing.
  static func wanted(_ arguments: [String]) -> Bool { arguments.contains("--play") }

  /// Runs the mode and returns the exit status.
  static func run(_ arguments: [String]) -> Int32 {
    let options: Options
    switch parse(arguments) {
    case .success(let parsed): options = parsed
    case .failure(let problem):
      say("stash-tui: \(problem.text)\n\(usage)")
      return 2
    }
    let changed = DispatchSemaphore(value: 0)
    let failures = PlaybackControl.FailureCount()
    let player = Player(
      device: options.device,
      onChange: { snapshot in
        failures.note(snapshot.state)
        changed.signal()
      })
    if let refused = player.setSpeed(options.speed) { say("stash-tui: \(refused)") }
    player.setVolume(options.volume)
    if options.voiceBoost, let refused = player.setVoiceBoost(true) { say("stash-tui: \(refused)") }
    if options.enhance, let refused = player.setEnhance(true) { say("stash-tui: \(refused)") }
    player.setSkipSilence(options.skipSilence)
    do {
      try player.load(path: options.file)
    } catch {
      say("stash-tui: \(error)")
      return 1
    }
    if options.measureSeeks > 0 { return measureSeeks(player, count: options.measureSeeks, changed: changed) }
    if options.measureChanges > 0 { return measureChanges(player, count: options.measureChanges) }
    if options.control { return PlaybackControl.run(player, failures: failures) }
    if let problem = pastTheEnd(options, duration: player.snapshot.duration) {
      say("stash-tui: \(problem)\n\(usage)")
      return 2
    }
    player.play(from: options.from ?? 0, until: options.to)
    while true {
      let snapshot = player.snapshot
      switch snapshot.state {
      case .ended:
        return 0
      case .failed(let error):
        say("stash-tui: \(error)")
        return 1
      case .idle, .paused, .playing:
        _ = changed.wait(timeout: .now() + .milliseconds(250))
      }
    }
  }

  /// Plays, seeks `count` times across the memo, and prints each seek's latency (seconds from the
  /// call to its first frame handed to the device) as JSON lines.
  static func measureSeeks(_ player: Player, count: Int, changed: DispatchSemaphore) -> Int32 {
    guard let duration = player.snapshot.duration, duration > 0 else {
      say("stash-tui: --measure-seeks needs a memo whose length is known")
      return 1
    }
    player.play(from: 0)
    var latencies: [Double] = []
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<count {
      // A fixed pseudo-random sequence: the same places every run.
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let target = Double(state >> 11) / Double(1 << 53) * duration * 0.98
      usleep(200_000)  // let playing settle: ring full, device full, decoder idle
      if player.snapshot.state == .playing { player.seek(to: target) } else { player.play(from: target) }
      var waited = 0
      while player.snapshot.lastSeekLatency == nil, waited < 2000 {
        usleep(500)
        waited += 1
      }
      if case .failed(let error) = player.snapshot.state {
        say("stash-tui: \(error)")
        return 1
      }
      guard let latency = player.snapshot.lastSeekLatency else {
        say("stash-tui: a seek to \(target) s reached no device within a second")
        return 1
      }
      latencies.append(latency)
      print("{\"target\": \(target), \"latency_ms\": \(latency * 1000)}")
    }
    let sorted = latencies.sorted()
    print(
      "{\"seeks\": \(sorted.count), \"median_ms\": \(sorted[sorted.count / 2] * 1000), \"max_ms\": \(sorted.last! * 1000)}"
    )
    return 0
  }

  /// Plays, and `count` times changes the speed (through 1.5, 2, 0.5 and 1), the volume (50 and
  /// 100 %) and skip silence (medium and off); then `count` times turns the voice boost on and off;
  /// then, the boost on, changes skip silence `count` times more (`skip boosted`: the boost's
  /// filters hold frames); then, the boost still on, `count` times turns the noise reduction on
  /// and off (`enhance`), and with both on changes skip silence `count` times more (`skip
  /// enhanced`). Each change is made while playing has
  /// settled; prints how long each took to reach the device (from the call to the first frame
  /// made with it handed to ALSA) as JSON lines, then each kind's median and maximum.
  static func measureChanges(_ player: Player, count: Int) -> Int32 {
    player.play(from: 0)
    var changes: [(kind: String, round: Int)] = []
    for round in 0..<count { changes += [("speed", round), ("volume", round), ("skip", round)] }
    for round in 0..<count { changes.append(("boost", round)) }
    changes.append(("boost on", 0))
    for round in 0..<count { changes.append(("skip boosted", round)) }
    for round in 0..<count { changes.append(("enhance", round)) }
    changes.append(("enhance on", 0))
    for round in 0..<count { changes.append(("skip enhanced", round)) }
    var latencies: [String: [Double]] = [:]
    for (kind, round) in changes {
      usleep(200_000)  // let playing settle: ring full, device full
      switch kind {
      case "speed": player.setSpeed([1.5, 2, 0.5, 1][round % 4])
      case "volume": player.setVolume(round % 2 == 0 ? 50 : 100)
      case "boost", "boost on":
        if let refused = player.setVoiceBoost(kind == "boost on" || round % 2 == 0) {
          say("stash-tui: \(refused)")
          return 1
        }
      case "enhance", "enhance on":
        if let refused = player.setEnhance(kind == "enhance on" || round % 2 == 0) {
          say("stash-tui: \(refused)")
          return 1
        }
      default: player.setSkipSilence(round % 2 == 0 ? .medium : nil)
      }
      func latency() -> Double? {
        let snapshot = player.snapshot
        switch kind {
        case "speed": return snapshot.lastSpeedLatency
        case "volume": return snapshot.lastVolumeLatency
        case "boost", "boost on": return snapshot.lastVoiceBoostLatency
        case "enhance", "enhance on": return snapshot.lastEnhanceLatency
        default: return snapshot.lastSkipSilenceLatency
        }
      }
      var waited = 0
      while latency() == nil, waited < 4000 {
        usleep(500)
        waited += 1
      }
      if case .failed(let error) = player.snapshot.state {
        say("stash-tui: \(error)")
        return 1
      }
      guard let latency = latency(), player.snapshot.state == .playing else {
        say("stash-tui: a \(kind) change reached no device within two seconds")
        return 1
      }
      guard kind != "boost on" && kind != "enhance on" else { continue }
      latencies[kind, default: []].append(latency)
      print("{\"change\": \"\(kind)\", \"latency_ms\": \(latency * 1000)}")
    }
    for kind in ["speed", "volume", "skip", "boost", "skip boosted", "enhance", "skip enhanced"] {
      let sorted = latencies[kind, default: []].sorted()
      print(
        "{\"changes\": \"\(kind)\", \"count\": \(sorted.count), \"median_ms\": \(sorted[sorted.count / 2] * 1000), \"max_ms\": \(sorted.last! * 1000)}"
      )
    }
    return 0
  }

  /// Why `--from` (or `--to`) cannot be played in a memo `duration` seconds long (nil when its
  /// length is unknown): a start at or past the end would play nothing and exit 0.
  static func pastTheEnd(_ options: Options, duration: Double?) -> String? {
    guard let duration, let from = options.from, from >= duration else { return nil }
    return "--from \(TimeText.clock(from)) is past the end of \(PathText.escaped(options.file)), "
      + "which is \(TimeText.clock(duration)) long"
  }

  struct Problem: Error { var text: String }

  /// `--skip-silence` (medium) or `--skip-silence=LEVEL`: the level, or why not; nil when
  /// `argument` is another option. The browser's options read it here too.
  static func skipSilence(_ argument: String) -> Result<SkipSilenceLevel, Problem>? {
    if argument == "--skip-silence" { return .success(.medium) }
    guard argument.hasPrefix("--skip-silence=") else { return nil }
    let text = argument.dropFirst("--skip-silence=".count)
    guard let level = SkipSilenceLevel(rawValue: String(text)) else {
      return .failure(Problem(text: "--skip-silence takes mild, medium or strong, not '\(text)'"))
    }
    return .success(level)
  }

  static func parse(_ arguments: [String]) -> Result<Options, Problem> {
    var options = Options()
    var index = 0
    func value(_ flag: String) -> Result<String, Problem> {
      index += 1
      guard index < arguments.count else { return .failure(Problem(text: "\(flag) needs a value")) }
      return .success(arguments[index])
    }
    func time(_ flag: String) -> Result<Double, Problem> {
      value(flag).flatMap { text in
        TimeText.seconds(text).map { .success($0) }
          ?? .failure(Problem(text: "\(flag) takes a time such as 83, 1:23 or 1:02:03, not '\(text)'"))
      }
    }
    do {
      while index < arguments.count {
        switch arguments[index] {
        case "--play": options.file = try value("--play").get()
        case "--from": options.from = try time("--from").get()
        case "--to": options.to = try time("--to").get()
        case "--device": options.device = try value("--device").get()
        case "--control": options.control = true
        case "--voice-boost": options.voiceBoost = true
        case "--enhance": options.enhance = true
        case "--speed":
          let text = try value("--speed").get()
          options.speed = try PlaybackControl.speed(text).mapError { Problem(text: "--speed: \($0.text)") }
            .get()
        case "--volume":
          let text = try value("--volume").get()
          options.volume = try PlaybackControl.volume(text).mapError { Problem(text: "--volume: \($0.text)") }
            .get()
        case "--measure-seeks":
          let text = try value("--measure-seeks").get()
          guard let n = Int(text), n > 0 else { throw Problem(text: "--measure-seeks takes a count") }
          options.measureSeeks = n
        case "--measure-changes":
          let text = try value("--measure-changes").get()
          guard let n = Int(text), n > 0 else { throw Problem(text: "--measure-changes takes a count") }
          options.measureChanges = n
        default:
          guard let level = skipSilence(arguments[index]) else {
            throw Problem(text: "unknown argument '\(arguments[index])' with --play")
          }
          options.skipSilence = try level.get()
        }
        index += 1
      }
    } catch let problem as Problem {
      return .failure(problem)
    } catch {
      return .failure(Problem(text: "\(error)"))
    }
    if options.file.isEmpty { return .failure(Problem(text: "--play needs a file")) }
    if let from = options.from, let to = options.to, to <= from {
      return .failure(Problem(text: "--to must come after --from"))
    }
    return .success(options)
  }

  static func say(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }
}
