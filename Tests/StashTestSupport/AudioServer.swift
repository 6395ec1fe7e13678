import Foundation

/// A sound server of a test's own: PulseAudio or PipeWire with a null sink, on a socket in a
/// scratch folder, and ALSA's `default` routed to it through an `ALSA_CONFIG_PATH` file. No sound
/// card is needed. `environment` is what a client process needs to play there; `record()` records
/// the null sink's monitor (what a listener would hear). The server is stopped by `stop()` and,
/// at the latest, when the value goes (so a test that fails or throws still stops it).
public final class AudioServer: @unchecked Sendable {
  // @unchecked: used by one test at a time; the processes are only touched under `lock`.

  /// Which server.
  public enum Kind: String, Sendable, CustomStringConvertible {
    /// PulseAudio, ALSA's default through the pulse plugin (libasound2-plugins).
    case pulseAudio = "PulseAudio"
    /// PipeWire with WirePlumber, ALSA's default through pipewire-alsa's plugin.
    case pipeWire = "PipeWire"

    public var description: String { rawValue }
  }

  /// The null sink's name.
  public static let sinkName = "stash_null"
  /// The rate the monitor is recorded at.
  public static let recordingRate = 48_000

  /// Which server this is.
  public let kind: Kind
  /// The null sink's rate.
  public let rate: Int
  /// The scratch folder holding its sockets, configuration and state.
  public let folder: URL
  private let lock = NSLock()
  private var processes: [AudioServerProcess] = []
  private var recorders: [AudioServerProcess] = []

  /// Makes the folder and configuration and starts the server with a null sink at `rate`; throws
  /// when it does not come up.
  public init(_ kind: Kind, rate: Int = 48_000) throws {
    self.kind = kind
    self.rate = rate
    folder = try Fixtures.scratchFolder("stash-\(kind.rawValue.lowercased())")
    for sub in ["run", "config", "home"] {
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent(sub), withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    }
    try writeConfiguration()
    try start()
  }

  deinit { stop() }

  /// Why this machine cannot run `kind`, or nil when it can (the programs and the ALSA plugin are
  /// there; `scripts/install-deps` installs them).
  public static func missing(_ kind: Kind) -> String? {
    let programs: [String]
    switch kind {
    case .pulseAudio: programs = ["pulseaudio", "pactl", "parec"]
    case .pipeWire: programs = ["pipewire", "wireplumber", "pw-cli", "pw-record", "dbus-daemon"]
    }
    for program in programs where AudioServerProcess.which(program) == nil {
      return "\(program) is not installed"
    }
    if plugin(kind) == nil {
      return "ALSA's \(kind == .pulseAudio ? "pulse" : "pipewire") plugin is not installed"
    }
    return nil
  }

  /// What a client needs in its environment to play through ALSA's default to this server.
  public var environment: [String: String] {
    var env = ProcessInfo.processInfo.environment
    env["ALSA_CONFIG_PATH"] = folder.appendingPathComponent("asound.conf").path
    env["HOME"] = folder.appendingPathComponent("home").path
    env["XDG_RUNTIME_DIR"] = folder.appendingPathComponent("run").path
    env["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
    env.removeValue(forKey: "STASH_ALSA_DEVICE")
    env.removeValue(forKey: "STASH_ALSA_PACE")
    switch kind {
    case .pulseAudio:
      env["PULSE_SERVER"] = "unix:" + folder.appendingPathComponent("native").path
    case .pipeWire:
      env["PIPEWIRE_RUNTIME_DIR"] = folder.appendingPathComponent("run").path
      env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + folder.appendingPathComponent("bus").path
      env.removeValue(forKey: "PULSE_SERVER")
    }
    return env
  }

  /// Starts the server (again, after `stop`) and waits until it takes clients.
  public func start() throws {
    switch kind {
    case .pulseAudio:
      try launch(
        "pulseaudio",
        [
          "-n", "-F", folder.appendingPathComponent("server.pa").path, "--daemonize=no",
          "--exit-idle-time=-1",
          "--disallow-exit", "--use-pid-file=no", "--log-target=stderr", "--log-level=error",
        ], log: "pulseaudio.log")
    case .pipeWire:
      if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("bus").path) {
        try launch(
          "dbus-daemon",
          [
            "--session", "--nofork", "--nopidfile",
            "--address=unix:path=" + folder.appendingPathComponent("bus").path,
          ],
          log: "dbus.log")
      }
      try launch("pipewire", [], log: "pipewire.log")
      try waitUntil("PipeWire to take clients") { try self.query("pw-cli", ["info", "0"]) }
      try launch("wireplumber", [], log: "wireplumber.log")
    }
    try waitUntil("the null sink to appear") { try self.sinkReady() }
  }

  /// Stops the server (and any recording), as a sound server going away does: its clients lose
  /// their connection.
  public func stop() {
    lock.lock()
    let all = recorders + processes.reversed()
    recorders = []
    processes = []
    lock.unlock()
    for process in all { process.stop() }
    // dbus-daemon leaves its socket; the next start makes a new bus.
    try? FileManager.default.removeItem(at: folder.appendingPathComponent("bus"))
  }

  /// Stops the server process alone (not the bus), as a crash or a `systemctl --user stop` does.
  public func stopServer() {
    lock.lock()
    let servers = processes.filter { $0.name != "dbus-daemon" }
    processes.removeAll { process in servers.contains { $0 === process } }
    lock.unlock()
    for process in servers.reversed() { process.stop() }
  }

  /// A recording of the null sink's monitor, running until `finish()`.
  public final class Recording: @unchecked Sendable {
    // @unchecked: the process is started and finished by the one test that owns it.
    /// The raw file: signed 16-bit little-endian mono at `AudioServer.recordingRate`.
    public let file: URL
    let process: AudioServerProcess
    /// When recording started (monotonic seconds, the player's clock).
    public let started: Double

    init(file: URL, process: AudioServerProcess, started: Double) {
      self.file = file
      self.process = process
      self.started = started
    }

    /// Stops recording and returns the samples, scaled to -1...1.
    public func finish() -> [Float] {
      process.stop()
      guard let data = try? Data(contentsOf: file) else { return [] }
      return data.withUnsafeBytes { raw in
        raw.bindMemory(to: Int16.self).map { Float(Int16(littleEndian: $0)) / 32768 }
      }
    }
  }

  /// Starts recording the null sink's monitor (`parec` or `pw-record`), asking for
  /// `latencyMilliseconds` of latency, and waits until its first samples came. A recorder
  /// asking for little latency holds the server at it (and every client with it); one asking for
  /// much (2000) leaves the server at the latency its playing clients ask for, as on a desktop
  /// with no such program, but hands over its samples late and in bursts.
  public func record(latencyMilliseconds: Int = 10) throws -> Recording {
    let file = folder.appendingPathComponent("monitor-\(UUID().uuidString).raw")
    let arguments: [String]
    switch kind {
    case .pulseAudio:
      arguments = [
        "-d", Self.sinkName + ".monitor", "--format=s16le", "--rate=\(Self.recordingRate)", "--channels=1",
        "--latency-msec=\(latencyMilliseconds)", "--raw",
      ]
    case .pipeWire:
      arguments = [
        "--target", Self.sinkName, "-P", "{ stream.capture.sink = true }", "--format", "s16",
        "--rate", "\(Self.recordingRate)", "--channels", "1", "--latency", "\(latencyMilliseconds)ms", "-",
      ]
    }
    // The samples on standard output, its messages beside them in the same file would spoil
    // them: wrap in sh to part the two.
    let process = try AudioServerProcess(
      "sh",
      [
        "-c", "exec \"$0\" \"$@\" 2>>\(shellQuoted(folder.appendingPathComponent("recorder.log").path))",
        kind == .pulseAudio ? "parec" : "pw-record",
      ] + arguments,
      environment: environment, log: file)
    lock.lock()
    recorders.append(process)
    lock.unlock()
    try waitUntil("the recorder to connect") { try self.recorderConnected() }
    // A null sink that was idle mixed up to two seconds ahead, and its monitor hands the recorder
    // nothing until that has passed (about 0.9 s here): what is heard meanwhile is never
    // recorded. Once samples come, the recording reaches back before this moment.
    try waitUntil("the recorder's first samples") {
      ((try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0) >= 2
    }
    let started = AudioServer.monotonicSeconds()
    return Recording(file: file, process: process, started: started)
  }

  /// Monotonic seconds (`CLOCK_MONOTONIC`, as the player's `sent` times).
  public static func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }

  /// What the server says about its playback streams (`pactl list sink-inputs` or `pw-dump`), for
  /// checks of corking and of how many streams were opened.
  public func streams() throws -> String {
    switch kind {
    case .pulseAudio: return try run("pactl", ["list", "sink-inputs"]).output
    case .pipeWire: return try run("pw-dump", []).output
    }
  }

  /// The server's log, for a failing test's message.
  public func log() -> String {
    let names = ["pulseaudio.log", "pipewire.log", "wireplumber.log", "recorder.log"]
    return names.compactMap { name in
      (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)).map {
        "\(name):\n\($0)"
      }
    }.joined(separator: "\n")
  }

  // MARK: - Parts

  private func writeConfiguration() throws {
    var alsa = "</usr/share/alsa/alsa.conf>\n"
    switch kind {
    case .pulseAudio:
      let pa = """
        load-module module-null-sink sink_name=\(Self.sinkName) rate=\(rate) channels=2
        load-module module-native-protocol-unix auth-anonymous=1 socket=\(folder.appendingPathComponent("native").path)
        set-default-sink \(Self.sinkName)

        """
      try pa.write(to: folder.appendingPathComponent("server.pa"), atomically: true, encoding: .utf8)
      alsa += "pcm.!default { type pulse }\nctl.!default { type pulse }\n"
    case .pipeWire:
      let conf = folder.appendingPathComponent("config/pipewire/pipewire.conf.d")
      try FileManager.default.createDirectory(at: conf, withIntermediateDirectories: true)
      let sink = """
        context.objects = [
          { factory = adapter
            args = {
              factory.name = support.null-audio-sink
              node.name = "\(Self.sinkName)"
              node.description = "stash test sink"
              media.class = "Audio/Sink"
              audio.rate = \(rate)
              audio.position = [ FL FR ]
              object.linger = true
              monitor.channel-volumes = true
            }
          }
        ]

        """
      try sink.write(
        to: conf.appendingPathComponent("stash-null-sink.conf"), atomically: true, encoding: .utf8)
      if let plugin = Self.plugin(.pipeWire) {
        alsa +=
          "pcm_type.pipewire { lib \"\(plugin)\" }\nctl_type.pipewire { lib \"\(plugin.replacingOccurrences(of: "pcm_pipewire", with: "ctl_pipewire"))\" }\n"
      }
      alsa += "pcm.!default { type pipewire }\nctl.!default { type pipewire }\n"
    }
    try alsa.write(to: folder.appendingPathComponent("asound.conf"), atomically: true, encoding: .utf8)
  }

  /// The ALSA plugin for `kind`: installed with libasound2-plugins, or (pipewire-alsa conflicts
  /// with the pulseaudio package) unpacked by `scripts/install-deps` under `.build/audio-plugins`.
  static func plugin(_ kind: Kind) -> String? {
    let name = kind == .pulseAudio ? "libasound_module_pcm_pulse.so" : "libasound_module_pcm_pipewire.so"
    let places = [
      "/usr/lib/x86_64-linux-gnu/alsa-lib", "/usr/lib/aarch64-linux-gnu/alsa-lib", "/usr/lib/alsa-lib",
      Fixtures.repositoryRoot.appendingPathComponent(".build/audio-plugins/pipewire-alsa").path,
    ]
    return places.map { $0 + "/" + name }.first { FileManager.default.fileExists(atPath: $0) }
  }

  private func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  private func launch(_ program: String, _ arguments: [String], log: String) throws {
    let process = try AudioServerProcess(
      program, arguments, environment: environment, log: folder.appendingPathComponent(log))
    lock.lock()
    processes.append(process)
    lock.unlock()
  }

  private func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    try AudioServerProcess.run(program, arguments, environment: environment)
  }

  private func query(_ program: String, _ arguments: [String]) throws -> Bool {
    try run(program, arguments).status == 0
  }

  private func sinkReady() throws -> Bool {
    switch kind {
    case .pulseAudio:
      return try run("pactl", ["list", "short", "sinks"]).output.contains(Self.sinkName)
    case .pipeWire:
      // WirePlumber has linked the sink to a driver once the sink is the default target.
      let dump = try run("pw-dump", []).output
      return dump.contains("\"node.name\": \"\(Self.sinkName)\"") && dump.contains("\"default.audio.sink\"")
    }
  }

  private func recorderConnected() throws -> Bool {
    switch kind {
    case .pulseAudio:
      return try run("pactl", ["list", "short", "source-outputs"]).output.contains("\t")
    case .pipeWire:
      // The recorder's node appears before WirePlumber links it to the sink's monitor; what it
      // records until then is silence. Connected means a link that is active.
      let dump = try run("pw-dump", []).output
      guard dump.contains("\"Stream/Input/Audio\""),
        let objects = try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [[String: Any]]
      else { return false }
      return objects.contains { object in
        object["type"] as? String == "PipeWire:Interface:Link"
          && (object["info"] as? [String: Any])?["state"] as? String == "active"
      }
    }
  }

  private func waitUntil(_ what: String, seconds: Double = 15, _ check: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if (try? check()) == true { return }
      usleep(50_000)
    }
    throw AudioServerError("\(kind) did not come up: waited \(Int(seconds)) s for \(what)\n\(log())")
  }
}

/// A sound server that would not start, with its log.
public struct AudioServerError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
