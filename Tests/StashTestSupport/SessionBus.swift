import Foundation

/// A session bus of the test's own: `dbus-daemon --session` listening in a scratch folder, for
/// the browser's MPRIS server. `stop()` ends it (deinit too, so a failing test leaves none behind).
/// `busctl --user` and `dbus-monitor` reach it through `DBUS_SESSION_BUS_ADDRESS`.
public final class SessionBus: @unchecked Sendable {
  // @unchecked: owned by one test.

  /// The bus's address, as `dbus-daemon --print-address` gives it.
  public let address: String
  private let daemon: AudioServerProcess
  private let folder: URL
  private var monitors: [AudioServerProcess] = []

  /// Starts the daemon and waits (10 s at most) for its address.
  public init() throws {
    folder = try Fixtures.scratchFolder("stash-bus")
    let log = folder.appendingPathComponent("dbus-daemon.log")
    daemon = try AudioServerProcess(
      "dbus-daemon", ["--session", "--nofork", "--address=unix:dir=\(folder.path)", "--print-address=1"],
      environment: SessionBus.baseEnvironment, log: log)
    let deadline = Date().addingTimeInterval(10)
    var found: String?
    while found == nil && Date() < deadline && daemon.isRunning {
      let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      found = text.split(separator: "\n").first { $0.hasPrefix("unix:") }.map(String.init)
      if found == nil { usleep(20_000) }
    }
    guard let found else {
      daemon.stop()
      let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      throw AudioServerError("dbus-daemon --session gave no address: \(text)")
    }
    address = found
  }

  deinit { stop() }

  /// The environment a client of this bus needs.
  public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

  private static var baseEnvironment: [String: String] {
    ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
  }

  /// Runs `busctl --user ARGS` on this bus; its status and output (standard output and error).
  @discardableResult
  public func busctl(_ arguments: [String]) throws -> (status: Int32, output: String) {
    try AudioServerProcess.run(
      "busctl", ["--user"] + arguments, environment: SessionBus.baseEnvironment.merging(environment) { $1 })
  }

  /// The names on the bus (`busctl --user list`).
  public func names() -> [String] {
    guard let r = try? busctl(["list", "--no-legend", "--acquired"]), r.status == 0 else { return [] }
    return r.output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
  }

  /// Starts `dbus-monitor` on the signals that match `rule`, writing to a log `text()` reads back;
  /// returns once the monitor is in place. It stops with the bus.
  public func monitor(_ rule: String) throws -> BusMonitor {
    let log = folder.appendingPathComponent("monitor-\(monitors.count).log")
    let process = try AudioServerProcess(
      "dbus-monitor", ["--address", address, rule], environment: SessionBus.baseEnvironment, log: log)
    monitors.append(process)
    let monitor = BusMonitor(log: log)
    // Becoming a monitor costs the connection its names: NameLost says it is watching.
    let deadline = Date().addingTimeInterval(10)
    while !monitor.text().contains("member=NameLost") && Date() < deadline { usleep(20_000) }
    guard monitor.text().contains("member=NameLost") else {
      throw AudioServerError("dbus-monitor did not start: \(monitor.text())")
    }
    return monitor
  }

  /// Ends the monitors and the daemon.
  public func stop() {
    for monitor in monitors { monitor.stop(grace: 1) }
    monitors = []
    daemon.stop(grace: 2)
  }
}

/// What a `dbus-monitor` started by `SessionBus.monitor` has printed.
public struct BusMonitor: Sendable {
  let log: URL

  /// Everything printed so far.
  public func text() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

  /// Polls until `predicate` holds for the text; the text then, or nil after `timeout` seconds.
  @discardableResult
  public func wait(timeout: Double = 10, until predicate: (String) -> Bool) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    repeat {
      let t = text()
      if predicate(t) { return t }
      usleep(50_000)
    } while Date() < deadline
    return nil
  }
}
