import Foundation
import StashTestSupport

/// Runs the built `stash` in a folder (so paths print relative to it), in UTC and C.UTF-8, with
/// no colour or CI variables beyond `extra`: how the CLI tests that print paths run it.
func runStash(
  _ arguments: [String], in folder: URL, environment extra: [String: String] = [:]
) throws -> ProcessResult {
  var environment = [
    "TZ": "UTC", "LC_ALL": "C.UTF-8", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "",
  ]
  environment.merge(extra) { $1 }
  let script = "cd \"$1\" && shift && exec \"$@\""
  return try runProcess(
    "/bin/sh", ["-c", script, "sh", folder.path, Fixtures.product("stash").path] + arguments,
    environment: environment)
}
