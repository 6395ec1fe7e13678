import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Clocks, statistics and child processes for the figures.
enum Measure {
  /// Monotonic seconds.
  static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }

  /// User plus system CPU seconds of this process so far.
  static func cpu() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  static func seconds(_ value: timeval) -> Double { Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }

  /// Wall and CPU seconds of `body`.
  static func time(_ body: () throws -> Void) rethrows -> (wall: Double, cpu: Double) {
    let wall = now()
    let cpu = cpu()
    try body()
    return (now() - wall, Measure.cpu() - cpu)
  }

  /// The load averages (1, 5, 15 minutes).
  static func load() -> [Double] {
    var values = [Double](repeating: 0, count: 3)
    _ = getloadavg(&values, 3)
    return values
  }
}

/// Several runs of one quantity: the median is the figure, min and max show the spread.
struct Runs {
  var values: [Double]

  var median: Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
  var min: Double { values.min() ?? .nan }
  var max: Double { values.max() ?? .nan }

  /// "median (min–max, n runs)" with `digits` decimals, the values scaled by `scale`.
  func text(_ digits: Int, scale: Double = 1, unit: String = "") -> String {
    let f = { (v: Double) in String(format: "%.\(digits)f", v * scale) }
    if values.count == 1 { return f(median) + unit + " (1 run)" }
    return "\(f(median))\(unit) (\(f(min))–\(f(max)), \(values.count) runs)"
  }
}

/// One finished child process.
struct ChildRun {
  var status: Int32
  var wall: Double
  var cpu: Double
  /// Peak resident memory in megabytes (ru_maxrss).
  var peakMB: Double
  var stdout: String
  var stderr: String

  /// Runs `arguments` (the first found on PATH), standard output and error captured through files
  /// (so a large output cannot block the child), with `environment` added to ours.
  static func run(
    _ arguments: [String], environment: [String: String] = [:], keepOutput: Bool = true
  ) throws -> ChildRun {
    let scratch = Harness.scratch
    let outPath = keepOutput ? scratch + "/child.out" : "/dev/null"
    let errPath = scratch + "/child.err"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var env = ProcessInfo.processInfo.environment
    // The memo folder's zone-less names are wall-clock times in UTC (MemoFolderCorpus), so every
    // child reads them as the instants the corpus was generated for, wherever the harness runs.
    env["TZ"] = "UTC"
    for (key, value) in environment { env[key] = value }
    // The peak memory comes from the peak-memory helper when the harness has built it (see there why).
    let peakPath = scratch + "/child.peak"
    let wrapped = Harness.peakHelper.map { [$0, peakPath] + arguments } ?? arguments
    unlink(peakPath)
    let argv = wrapped.map { strdup($0) } + [nil]
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let start = Measure.now()
    let spawned = posix_spawnp(&pid, wrapped[0], &actions, nil, argv, envp)
    guard spawned == 0 else {
      throw HarnessError("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let wall = Measure.now() - start
    let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    let read = { (path: String) in
      path == "/dev/null" ? "" : ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    }
    return ChildRun(
      status: code, wall: wall, cpu: Measure.seconds(usage.ru_utime) + Measure.seconds(usage.ru_stime),
      peakMB: (Double(read(peakPath).trimmingCharacters(in: .whitespacesAndNewlines))
        ?? Double(usage.ru_maxrss)) / 1024,
      stdout: read(outPath), stderr: read(errPath))
  }

  /// Like `run`, but a non-zero status outside `accepting` is an error carrying the child's stderr.
  static func checked(
    _ arguments: [String], environment: [String: String] = [:], keepOutput: Bool = true,
    accepting: Set<Int32> = [0]
  ) throws -> ChildRun {
    let child = try run(arguments, environment: environment, keepOutput: keepOutput)
    guard accepting.contains(child.status) else {
      let tail = child.stderr.split(separator: "\n").suffix(3).joined(separator: " / ")
      throw HarnessError("\(arguments.prefix(2).joined(separator: " ")) exited \(child.status): \(tail)")
    }
    return child
  }
}

/// Wall time, CPU time and peak memory over several runs of one command.
struct RepeatedRuns {
  var wall: Runs
  var cpu: Runs
  var peak: Runs

  /// Runs `arguments` `count` times through `ChildRun.checked`, output discarded.
  init(_ arguments: [String], count: Int, accepting: Set<Int32> = [0]) throws {
    var walls: [Double] = []
    var cpus: [Double] = []
    var peaks: [Double] = []
    for _ in 0..<count {
      let child = try ChildRun.checked(arguments, keepOutput: false, accepting: accepting)
      walls.append(child.wall)
      cpus.append(child.cpu)
      peaks.append(child.peakMB)
    }
    (wall, cpu, peak) = (Runs(values: walls), Runs(values: cpus), Runs(values: peaks))
  }
}

/// A harness failure, with what went wrong in plain words.
struct HarnessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// What a timing script printed last: one JSON object (`Benchmarks/*.py`), with the median, 90th
/// percentile and worst of its latencies when it timed any (`latency_figures` in tmux_screen.py).
struct ScriptResult {
  var object: [String: Any]

  /// Runs `arguments` (a script and its arguments) and reads its last line; throws when it printed
  /// no JSON object.
  init(_ arguments: [String]) throws {
    let child = try ChildRun.checked(arguments)
    let script = arguments.dropFirst().first.map { ($0 as NSString).lastPathComponent } ?? "the script"
    guard let line = child.stdout.split(separator: "\n").last,
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    else { throw HarnessError("\(script) printed no result") }
    self.object = object
  }

  /// `median_ms`, `p90_ms` and `max_ms`, when the script timed anything.
  var latencies: (median: Double, p90: Double, max: Double)? {
    guard let median = object["median_ms"] as? Double, let p90 = object["p90_ms"] as? Double,
      let max = object["max_ms"] as? Double
    else { return nil }
    return (median, p90, max)
  }
}
