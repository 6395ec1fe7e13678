import Foundation
import StashTestSupport
import Testing

/// A folder named twice to `stash lint` (as itself, or by another name of it) is linted once: its
/// findings are listed once, as for the folder named alone.
@Suite struct LintPathsNamedTwiceTests {
  @Test func aFolderNamedTwiceIsLintedOnce() throws {
    let folder = try Fixtures.scratchFolder("stash-lint-twice")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("orphan\n".utf8).write(to: folder.appendingPathComponent("a_title.txt"))
    try Data("<gpx".utf8).write(to: folder.appendingPathComponent("b_track.gpx"))
    let once = try runStash(["lint", "--format", "gcc", "."], in: folder)
    #expect(once.standardOutput.split(separator: "\n").count >= 2, "\(once.standardOutput)")
    for twice in [[".", "."], [".", "./"], [".", folder.path, "."]] {
      let result = try runStash(["lint", "--format", "gcc"] + twice, in: folder)
      #expect(result.status == once.status)
      #expect(result.standardOutput == once.standardOutput, "lint \(twice): \(result.standardOutput)")
    }
    // Two different folders are both linted.
    let other = folder.appendingPathComponent("other")
    try FileManager.default.createDirectory(at: other, withIntermediateDirectories: false)
    try Data("orphan\n".utf8).write(to: other.appendingPathComponent("c_title.txt"))
    let both = try runStash(["lint", "--format", "gcc", ".", "other"], in: folder)
    #expect(both.standardOutput.contains("c_title.txt") && both.standardOutput.contains("a_title.txt"))
  }
}
