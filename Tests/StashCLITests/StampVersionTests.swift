import Foundation
import StashTestSupport
import Testing

/// scripts/stamp-version, run in a scratch git repository of its own: the version a release build
/// and the Debian packages get, from `git describe`, in an order apt agrees with.
@Suite struct StampVersionTests {
  /// A repository holding the script and a changelog whose first version is 0.1.0, in a scratch
  /// folder the caller removes.
  func repository() throws -> ScratchFolder {
    let scratch = try ScratchFolder("stash-stamp-version")
    let fm = FileManager.default
    for folder in ["scripts", "packaging", "Sources/stash", "Sources/stash-tui"] {
      try fm.createDirectory(at: scratch.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    try fm.copyItem(
      at: Fixtures.repositoryRoot.appendingPathComponent("scripts/stamp-version"),
      to: scratch.appendingPathComponent("scripts/stamp-version"))
    try "stash (0.1.0) unstable; urgency=medium\n".write(
      to: scratch.appendingPathComponent("packaging/changelog"), atomically: true, encoding: .utf8)
    return scratch
  }

  func git(_ repo: URL, _ arguments: [String]) throws {
    let environment = [
      "PATH": "/usr/bin:/bin", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
      "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org", "HOME": repo.path,
    ]
    let result = try runProcess("git", ["-C", repo.path] + arguments, environment: environment)
    #expect(result.status == 0, "git \(arguments): \(result.standardError)")
  }

  func stamp(_ repo: URL) throws -> String {
    let result = try runProcess(repo.appendingPathComponent("scripts/stamp-version").path, [])
    #expect(result.status == 0, "\(result.standardError)")
    let version = result.standardOutput.trimmingCharacters(in: .newlines)
    for program in ["stash", "stash-tui"] {
      let file = try String(
        contentsOf: repo.appendingPathComponent("Sources/\(program)/StampedVersion.swift"), encoding: .utf8)
      #expect(file.contains("let stampedVersion = \"\(version)\"\n"), "\(program): \(file)")
    }
    return version
  }

  func hash(_ repo: URL) throws -> String {
    try runProcess("git", ["-C", repo.path, "rev-parse", "--short", "HEAD"]).standardOutput
      .trimmingCharacters(in: .newlines)
  }

  /// `first` sorts before `second` in dpkg's order.
  func dpkgOrders(_ first: String, before second: String) throws -> Bool {
    try runProcess("dpkg", ["--compare-versions", first, "lt", second]).status == 0
  }

  @Test func versionsFollowTheTagsAndSortAsAptWould() throws {
    let scratch = try repository()
    defer { scratch.remove() }
    let repo = scratch.url
    #expect(try stamp(repo) == "0.1.0", "not a checkout: the changelog's version")

    // .gitignore keeps the stamped file from making the tree dirty, as in this repository.
    try "/Sources/stash/StampedVersion.swift\n/Sources/stash-tui/StampedVersion.swift\n".write(
      to: repo.appendingPathComponent(".gitignore"), atomically: true, encoding: .utf8)
    try "notes\n".write(to: repo.appendingPathComponent("notes"), atomically: true, encoding: .utf8)
    try git(repo, ["init", "-q"])
    try git(repo, ["add", "."])
    try git(repo, ["commit", "-q", "-m", "one"])
    try git(repo, ["commit", "-q", "--allow-empty", "-m", "two"])
    let beforeTag = try stamp(repo)
    #expect(beforeTag == "0.1.0~git2.g\(try hash(repo))")

    try git(repo, ["tag", "v0.1.0"])
    #expect(try stamp(repo) == "0.1.0")
    for message in ["three", "four"] { try git(repo, ["commit", "-q", "--allow-empty", "-m", message]) }
    let afterTag = try stamp(repo)
    #expect(afterTag == "0.1.0+git2.g\(try hash(repo))")

    try "changed\n".write(to: repo.appendingPathComponent("notes"), atomically: true, encoding: .utf8)
    let dirty = try stamp(repo)
    #expect(dirty == afterTag + ".dirty")

    #expect(try dpkgOrders(beforeTag, before: "0.1.0"))
    #expect(try dpkgOrders("0.1.0", before: afterTag))
    #expect(try dpkgOrders(afterTag, before: dirty))
    #expect(try dpkgOrders(dirty, before: "0.1.1"))
  }
}
