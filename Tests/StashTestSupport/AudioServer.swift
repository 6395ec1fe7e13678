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
  /// The scratch folder holding its sockets, configuration and state.
  public let folder: URL
  private let lock = NSLock()
  private var processes: [Process] = []
  private var recorders: [Process] = []

  /// Makes the folder and configuration and starts the server; throws when it does not come up.
  public init(_ kind: Kind) throws {
    self.kind = kind
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
    for program in programs where which(program) == nil { return "\(program) is not installed" }
    if plugin(kind) == nil { return "ALSA's \(kind == .pulseAudio ? "pulse" : "pipewire") plugin is not installed" }
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
          "-n", "-F", folder.appendingPathComponent("server.pa").path, "--daemonize=no", "--exit-idle-time=-1",
          "--disallow-exit", "--use-pid-file=no", "--log-target=stderr", "--log-level=error",
        ], log: "pulseaudio.log")
    case .pipeWire:
      if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("bus").path) {
        try launch(
          "dbus-daemon",
          ["--session", "--nofork", "--nopidfile", "--address=unix:path=" + folder.appendingPathComponent("bus").path],
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
    for process in all where process.isRunning {
      process.terminate()
    }
    for process in all {
      let deadline = Date().addingTimeInterval(5)
      while process.isRunning && Date() < deadline { usleep(10_000) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }
    // dbus-daemon leaves its socket; the next start makes a new bus.
    try? FileManager.default.removeItem(at: folder.appendingPathComponent("bus"))
  }

  /// Stops the server process alone (not the bus), as a crash or a `systemctl --user stop` does.
  public func stopServer() {
    lock.lock()
    let servers = processes.filter { $0.executableURL?.lastPathComponent != "dbus-daemon" }
    processes.removeAll { servers.contains($0) }
    lock.unlock()
    for process in servers.reversed() where process.isRunning { process.terminate() }
    for process in servers { process.waitUntilExit() }
  }

  /// A recording of the null sink's monitor, running until `finish()`.
  public final class Recording: @unchecked Sendable {
    // @unchecked: the process is started and finished by the one test that owns it.
    /// The raw file: signed 16-bit little-endian mono at `AudioServer.recordingRate`.
    public let file: URL
    let process: Process
    /// When recording started (monotonic seconds, the player's clock).
    public let started: Double

    init(file: URL, process: Process, started: Double) {
      self.file = file
      self.process = process
      self.started = started
    }

    /// Stops recording and returns the samples, scaled to -1...1.
    public func finish() -> [Float] {
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
      guard let data = try? Data(contentsOf: file) else { return [] }
      return data.withUnsafeBytes { raw in
        raw.bindMemory(to: Int16.self).map { Float(Int16(littleEndian: $0)) / 32768 }
      }
    }
  }

  /// Starts recording the null sink's monitor (`parec` or `pw-record`).
  public func record() throws -> Recording {
    let file = folder.appendingPathComponent("monitor-\(UUID().uuidString).raw")
    let process = Process()
    process.executableURL = try executable(kind == .pulseAudio ? "parec" : "pw-record")
    switch kind {
    case .pulseAudio:
      process.arguments = [
        "-d", Self.sinkName + ".monitor", "--format=s16le", "--rate=\(Self.recordingRate)", "--channels=1",
        "--latency-msec=10", "--raw",
      ]
    case .pipeWire:
      process.arguments = [
        "--target", Self.sinkName, "-P", "{ stream.capture.sink = true }", "--format", "s16",
        "--rate", "\(Self.recordingRate)", "--channels", "1", "--latency", "10ms", "-",
      ]
    }
    process.environment = environment
    _ = FileManager.default.createFile(atPath: file.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: file)
    process.standardError = try logHandle("recorder.log")
    try process.run()
    let started = AudioServer.monotonicSeconds()
    lock.lock()
    recorders.append(process)
    lock.unlock()
    // The recorder is connected once the server lists it.
    try waitUntil("the recorder to connect") { try self.recorderConnected() }
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
    case .pulseAudio: return try run("pactl", ["list", "sink-inputs"]).standardOutput
    case .pipeWire: return try run("pw-dump", []).standardOutput
    }
  }

  /// The server's log, for a failing test's message.
  public func log() -> String {
    let names = ["pulseaudio.log", "pipewire.log", "wireplumber.log", "recorder.log"]
    return names.compactMap { name in
      (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)).map { "\(name):\n\($0)" }
    }.joined(separator: "\n")
  }

  // MARK: - Parts

  private func writeConfiguration() throws {
    var alsa = "</usr/share/alsa/alsa.conf>\n"
    switch kind {
    case .pulseAudio:
      let pa = """
        load-module module-null-sink sink_name=\(Self.sinkName) rate=48000 channels=2
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
              audio.rate = 48000
              audio.position = [ FL FR ]
              object.linger = true
              monitor.channel-volumes = true
            }
          }
        ]

        """
      try sink.write(to: conf.appendingPathComponent("stash-null-sink.conf"), atomically: true, encoding: .utf8)
      if let plugin = Self.plugin(.pipeWire) {
        alsa += "pcm_type.pipewire { lib \"\(plugin)\" }\nctl_type.pipewire { lib \"\(plugin.replacingOccurrences(of: "pcm_pipewire", with: "ctl_pipewire"))\" }\n"
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

  private static func which(_ program: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(program)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  private func executable(_ program: String) throws -> URL {
    guard let path = Self.which(program) else { throw AudioServerError("\(program) is not installed") }
    return URL(fileURLWithPath: path)
  }

  private func logHandle(_ name: String) throws -> FileHandle {
    let url = folder.appendingPathComponent(name)
    if !FileManager.default.fileExists(atPath: url.path) {
      _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    }
    let handle = try FileHandle(forWritingTo: url)
    handle.seekToEndOfFile()
    return handle
  }

  private func launch(_ program: String, _ arguments: [String], log: String) throws {
    let process = Process()
    process.executableURL = try executable(program)
    process.arguments = arguments
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try logHandle(log)
    process.standardError = try logHandle(log)
    try process.run()
    lock.lock()
    processes.append(process)
    lock.unlock()
  }

  private func run(_ program: String, _ arguments: [String]) throws -> ProcessResult {
    try runProcess(try executable(program).path, arguments, environment: environment)
  }

  private func query(_ program: String, _ arguments: [String]) throws -> Bool {
    try run(program, arguments).status == 0
  }

  private func sinkReady() throws -> Bool {
    switch kind {
    case .pulseAudio:
      return try run("pactl", ["list", "short", "sinks"]).standardOutput.contains(Self.sinkName)
    case .pipeWire:
      // WirePlumber has linked the sink to a driver once the sink is the default target.
      let dump = try run("pw-dump", []).standardOutput
      return dump.contains("\"node.name\": \"\(Self.sinkName)\"") && dump.contains("\"default.audio.sink\"")
    }
  }

  private func recorderConnected() throws -> Bool {
    switch kind {
    case .pulseAudio:
      return try run("pactl", ["list", "short", "source-outputs"]).standardOutput.contains("\t")
    case .pipeWire:
      return try run("pw-dump", []).standardOutput.contains("\"Stream/Input/Audio\"")
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
