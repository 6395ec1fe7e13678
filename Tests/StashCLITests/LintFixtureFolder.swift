import Foundation
import StashTestSupport
import Testing

/// A copy of SyntheticFixtures/lint (with lint/cases inside it and the empty folders git cannot
/// hold), and a way to run `stash` in the copy's parent with a fixed environment.
struct LintFixtureFolder {
  /// The scratch folder holding `lint/`.
  let root: URL
  let stash = Fixtures.product("stash").path

  init() throws {
    root = try Fixtures.scratchFolder("stash-lint")
    let copied = try runProcess(
      "cp",
      ["-R", "--preserve=timestamps", Fixtures.folder("lint").path, root.appendingPathComponent("lint").path])
    #expect(copied.status == 0, "\(copied.standardError)")
    let manifest =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: Fixtures.folder("lint").appendingPathComponent("MANIFEST.json")))
      as? [String: Any]
    for empty in (manifest?["emptyDirectories"] as? [String]) ?? [] {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent("lint").appendingPathComponent(empty),
        withIntermediateDirectories: true)
    }
  }

  /// Runs `stash ARGS` in `root` (so paths print as `lint/…`), in UTC, with no colour or CI variables.
  func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ProcessResult {
    try runStash(arguments, in: root, environment: extra)
  }

  func remove() { try? FileManager.default.removeItem(at: root) }
}
