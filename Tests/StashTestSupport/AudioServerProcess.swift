import Foundation

/// A child process started with `posix_spawn` and reaped with `waitpid`, for the sound servers,
/// their tools and the controlled player. (Foundation's `Process` is not used here: with a sound
/// server running as its child, its reaping of short-lived tools stalled.) Standard output and
/// error go to files, or standard input and output to pipes the caller reads and writes.
public final class AudioServerProcess: @unchecked Sendable {
  // @unchecked: owned by one test; `pid` is read-only after spawning.

  /// The child's process id.
  public let pid: pid_t
  /// The program's name, for messages.
  public let name: String
  /// Our end of the child's standard input, when piped.
  public let input: Int32?
  /// Our end of the child's standard output, when piped.
  public let output: Int32?
  private var status: Int32?

  /// Starts `program` (found on PATH) with `arguments` and `environment`; standard output and
  /// error are appended to `log` unless `pipes`, in which case standard input and output are pipes
  /// and standard error goes to `log`.
  public init(
    _ program: String, _ arguments: [String], environment: [String: String], log: URL, pipes: Bool = false
  ) throws {
    guard let path = AudioServerProcess.which(program) else {
      throw AudioServerError("\(program) is not installed")
    }
    name = program
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var inPipe: [Int32] = [-1, -1]
    var outPipe: [Int32] = [-1, -1]
    if pipes {
      guard pipe(&inPipe) == 0, pipe(&outPipe) == 0 else { throw AudioServerError("pipe failed") }
      posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
      posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
      for fd in inPipe + outPipe { posix_spawn_file_actions_addclose(&actions, fd) }
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    }
    posix_spawn_file_actions_addopen(&actions, 2, log.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    // Nothing else of the test process leaks in: a server holding another test's pipe open would
    // keep that test from ever reading its end.
    if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var child: pid_t = 0
    let result = posix_spawn(&child, path, &actions, nil, argv, envp)
    if pipes {
      close(inPipe[0])
      close(outPipe[1])
    }
    guard result == 0 else {
      if pipes {
        close(inPipe[1])
        close(outPipe[0])
      }
      throw AudioServerError("cannot start \(program): \(String(cString: strerror(result)))")
    }
    pid = child
    input = pipes ? inPipe[1] : nil
    output = pipes ? outPipe[0] : nil
    if let input { _ = fcntl(input, F_SETFD, FD_CLOEXEC) }
    if let output { _ = fcntl(output, F_SETFD, FD_CLOEXEC) }
  }

  deinit {
    stop()
    if let input { close(input) }
    if let output { close(output) }
  }

  /// Whether the child has not exited yet (reaps it when it has).
  public var isRunning: Bool {
    if status != nil { return false }
    var raw: Int32 = 0
    if waitpid(pid, &raw, WNOHANG) == pid {
      status = raw
      return false
    }
    return true
  }

  /// Waits for the child to exit and returns its exit status (128 + signal when killed).
  @discardableResult
  public func wait() -> Int32 {
    if status == nil {
      var raw: Int32 = 0
      while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
      status = raw
    }
    let raw = status!
    return (raw & 0x7f) == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
  }

  /// Ends the child: SIGTERM, then SIGKILL after `grace` seconds; waits for it.
  public func stop(grace: Double = 5) {
    guard isRunning else { return }
    kill(pid, SIGTERM)
    let deadline = Date().addingTimeInterval(grace)
    while isRunning && Date() < deadline { usleep(10_000) }
    if isRunning { kill(pid, SIGKILL) }
    wait()
  }

  /// Runs `program` to its end and returns its status and output (standard output and error
  /// together), giving up after `timeout` seconds.
  public static func run(
    _ program: String, _ arguments: [String], environment: [String: String], timeout: Double = 10
  ) throws -> (status: Int32, output: String) {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("stash-run-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: log) }
    let child = try AudioServerProcess(program, arguments, environment: environment, log: log)
    let deadline = Date().addingTimeInterval(timeout)
    while child.isRunning && Date() < deadline { usleep(5_000) }
    if child.isRunning { child.stop(grace: 1) }
    let status = child.wait()
    return (status, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc
  /// module does not export.
  private static let closeFrom:
    (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
      guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
      return unsafeBitCast(
        symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

  /// `program`'s path on PATH.
  static func which(_ program: String) -> String? {
    if program.contains("/") { return program }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(program)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }
}
