import Foundation

/// `stash-tui --play FILE --control` in a child process with an environment of the test's own
/// (a sound server's): commands go to its standard input, each answer is its snapshot. The
/// process ends with `quit()` or, at the latest, when the value goes.
public final class ControlledPlayer: @unchecked Sendable {
  // @unchecked: driven by one test at a time.

  /// One answer: the player's snapshot when the command was carried out.
  public struct Status: Sendable, CustomStringConvertible {
    /// `idle`, `playing`, `paused`, `ended` or `failed`.
    public var state: String
    /// Seconds into the memo being heard.
    public var position: Double
    /// The memo's length, when known.
    public var duration: Double?
    /// The failure's words, when failed.
    public var error: String?
    /// How many times the player went into a failed state so far.
    public var failures: Int
    /// How many times the device ran dry so far (ALSA's underruns, recovered).
    public var underruns: Int = 0
    /// Monotonic seconds when the command was carried out.
    public var sent: Double
    /// Whether the voice boost is on.
    public var voiceBoost: Bool = false
    /// Skip silence's level (`mild`, `medium`, `strong`), nil when off.
    public var skipSilence: String? = nil
    /// Memo seconds skip silence has left out so far.
    public var silenceSkipped: Double = 0
    /// Seconds the last voice boost and skip silence changes took to reach the device, once they did.
    public var boostLatency: Double? = nil
    public var skipLatency: Double? = nil
    /// Whether the noise reduction is on, and how long its last change took to reach the device.
    public var enhance: Bool = false
    public var enhanceLatency: Double? = nil

    public var description: String {
      "\(state) at \(String(format: "%.3f", position)) s, \(failures) failure(s)"
        + (error.map { ": \($0)" } ?? "")
    }
  }

  private let process: AudioServerProcess
  private let errors: URL
  private var buffer = Data()

  /// Starts the player on `memo` with `environment`.
  public init(memo: String, environment: [String: String], extraArguments: [String] = []) throws {
    errors = try Fixtures.scratchFolder("stash-control").appendingPathComponent("stderr")
    process = try AudioServerProcess(
      Fixtures.product("stash-tui").path, ["--play", memo, "--control"] + extraArguments,
      environment: environment, log: errors, pipes: true)
  }

  deinit { quit() }

  /// Sends `command` and returns the answer.
  @discardableResult
  public func send(_ command: String) throws -> Status {
    guard process.isRunning else { throw AudioServerError("the player has exited: \(standardError)") }
    write(command + "\n")
    let line = try readLine()
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let state = object["state"] as? String, let position = object["position"] as? Double,
      let failures = object["failures"] as? Int, let sent = object["sent"] as? Double
    else { throw AudioServerError("the player answered '\(line)'") }
    return Status(
      state: state, position: position, duration: object["duration"] as? Double,
      error: object["error"] as? String,
      failures: failures, underruns: object["underruns"] as? Int ?? 0, sent: sent,
      voiceBoost: object["voiceBoost"] as? Bool ?? false,
      skipSilence: object["skipSilence"] as? String, silenceSkipped: object["silenceSkipped"] as? Double ?? 0,
      boostLatency: object["boost_latency"] as? Double, skipLatency: object["skip_latency"] as? Double,
      enhance: object["enhance"] as? Bool ?? false, enhanceLatency: object["enhance_latency"] as? Double)
  }

  /// Asks for the status until `condition` holds or `seconds` pass; returns the last.
  public func wait(seconds: Double = 10, until condition: (Status) -> Bool) throws -> Status {
    let deadline = Date().addingTimeInterval(seconds)
    var status = try send("status")
    while !condition(status) && Date() < deadline {
      usleep(20_000)
      status = try send("status")
    }
    return status
  }

  /// What the player wrote on standard error.
  public var standardError: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

  /// Ends the player.
  public func quit() {
    guard process.isRunning else { return }
    write("quit\n")
    let deadline = Date().addingTimeInterval(5)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    process.stop()
  }

  private func write(_ text: String) {
    guard let fd = process.input else { return }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
  }

  private func readLine() throws -> String {
    guard let fd = process.output else { throw AudioServerError("no output") }
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
        buffer.removeSubrange(buffer.startIndex...newline)
        return line
      }
      let n = read(fd, &chunk, chunk.count)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { throw AudioServerError("the player closed its output: \(standardError)") }
      buffer.append(contentsOf: chunk[0..<n])
    }
  }
}
