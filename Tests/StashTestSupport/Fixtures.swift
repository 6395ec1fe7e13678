import Foundation

/// Where the repository and its synthetic fixtures are, found from this file's own path.
public enum Fixtures {
  /// The repository's root folder.
  public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `SyntheticFixtures/<name>`.
  public static func folder(_ name: String) -> URL {
    repositoryRoot.appendingPathComponent("SyntheticFixtures").appendingPathComponent(name)
  }

  /// A fresh empty folder under the system's temporary folder, for a test to write in, that
  /// nothing removes: a test that can remove what it made uses `ScratchFolder` and its `remove()`.
  public static func scratchFolder(_ label: String = "stash-test") throws -> URL {
    try ScratchFolder(label).url
  }

  /// The path of a built product (`stash`, `stash-tui`) in the build folder the tests run from.
  public static func product(_ name: String) -> URL {
    // The test bundle runs from .build/<triple>/<config>/; the executables sit beside it.
    let bundle = Bundle.main.bundleURL
    let beside = bundle.appendingPathComponent(name)
    if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
    return bundle.deletingLastPathComponent().appendingPathComponent(name)
  }
}

/// The result of running a program to completion.
public struct ProcessResult: Sendable {
  public var status: Int32
  public var standardOutput: String
  public var standardError: String
}

/// Runs a program with arguments and collects its output; the program is found on PATH when the
/// name has no slash. Unless `environment` names an `XDG_CACHE_HOME` of its own, the program gets
/// a fresh empty one, removed after: every run starts without a findings cache (as `--no-cache`
/// would have it) and none is ever written to the home folder of whoever runs the tests.
public func runProcess(
  _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
  input: Data? = nil
) throws -> ProcessResult {
  var environment = environment ?? ProcessInfo.processInfo.environment
  var freshCache: ScratchFolder?
  if environment["XDG_CACHE_HOME"] == nil
    || environment["XDG_CACHE_HOME"] == ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
  {
    let cache = try ScratchFolder("stash-test-cache")
    freshCache = cache
    environment["XDG_CACHE_HOME"] = cache.path
  }
  defer { freshCache?.remove() }
  let process = Process()
  if executable.contains("/") {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
  } else {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [executable] + arguments
  }
  process.environment = environment
  let out = Pipe()
  let err = Pipe()
  let inPipe = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = inPipe
  try process.run()
  if let input { inPipe.fileHandleForWriting.write(input) }
  try inPipe.fileHandleForWriting.close()
  // Read both pipes concurrently so a chatty child never blocks on a full pipe.
  nonisolated(unsafe) var errData = Data()
  let group = DispatchGroup()
  group.enter()
  DispatchQueue.global().async {
    errData = err.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  process.waitUntilExit()
  return ProcessResult(
    status: process.terminationStatus,
    standardOutput: String(decoding: outData, as: UTF8.self),
    standardError: String(decoding: errData, as: UTF8.self))
}
