import Foundation
import StashTestSupport
import Testing

/// `stash lint lint lint/cases` in every format, compared byte for byte with the files in
/// Tests/StashCLITests/Golden/. The fixtures hold an instance of every rule, so a rule that stops
/// firing, fires twice, changes its code, severity, position or message makes one of these fail.
/// To accept a deliberate change: `STASH_UPDATE_GOLDEN=1 swift test --filter LintGoldenTests`,
/// then read the diff.
@Suite struct LintGoldenTests {
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Golden")

  @Test(arguments: ["human", "json", "github", "sarif", "gcc"])
  func outputMatchesTheGoldenFile(_ format: String) throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let config = Self.golden.appendingPathComponent("lint.stashlint").path
    let result = try folder.run(["lint", "lint", "lint/cases", "--format", format, "--config", config])
    #expect(result.status == 1, "\(result.standardError)")
    #expect(result.standardError.isEmpty, "\(result.standardError)")
    let names = [
      "human": "lint.txt", "json": "lint.json", "github": "lint.github.txt", "sarif": "lint.sarif",
      "gcc": "lint.gcc.txt",
    ]
    let file = Self.golden.appendingPathComponent(names[format]!)
    if ProcessInfo.processInfo.environment["STASH_UPDATE_GOLDEN"] == "1" {
      try result.standardOutput.write(to: file, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: file, encoding: .utf8)
    #expect(
      result.standardOutput == expected,
      "stash lint --format \(format) differs from \(file.lastPathComponent)")
  }

  /// The rules the fixtures cannot show: permissions do not stop root, which runs these tests, and
  /// the MP4 reader never nests deeper than eight boxes, under its limit of twelve; a Voice Memos
  /// transcript is read by `import` and `inspect`, and a memo's audio carries none. The info codes
  /// of the audio are facts `inspect` states, which lint never reports.
  static let notInFixtures: Set = [
    "folder-parts-unreadable", "title-unreadable", "lint-file-unreadable", "mp4-too-deep",
    "mp4-bad-transcript",
    "mp4-priming-assumed", "mp4-gapless-metadata", "mp4-complex-edit-list", "mp4-sbr-not-signalled",
  ]

  @Test func theFixturesHoldAnInstanceOfEveryRule() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let list = try folder.run(["lint", "--list-rules"]).standardOutput.split(separator: "\n").map {
      $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    }
    let rules = list.map { $0[0] }
    let severities = Dictionary(uniqueKeysWithValues: list.map { ($0[0], $0[1]) })
    #expect(rules.count > 90)
    let json = try folder.run(["lint", "lint", "lint/cases", "--format", "json", "--deep-audio"])
      .standardOutput
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let findings = try #require(object["findings"] as? [[String: Any]])
    let codes = Set(findings.compactMap { $0["code"] as? String })
    for rule in rules where !Self.notInFixtures.contains(rule) {
      #expect(codes.contains(rule), "no finding of \(rule) in SyntheticFixtures/lint")
    }
    #expect(codes.isSubset(of: Set(rules)), "a finding whose code is not in the catalogue")
    // The catalogue (and so --explain and docs/lint) gives each rule the severity its reader reports.
    for finding in findings {
      let code = finding["code"] as? String ?? ""
      #expect(
        finding["severity"] as? String == severities[code],
        "\(code): the catalogue says \(severities[code] ?? "-")")
    }
  }

  /// A fragmented recording the quick summary finds whole is walked fragment by fragment only with
  /// --deep-audio; a finished file's tables are always read in full.
  @Test func deepAudioWalksEveryFragment() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let plain = try folder.run(["lint", "lint/cases", "--format", "gcc"]).standardOutput
    let deep = try folder.run(["lint", "lint/cases", "--format", "gcc", "--deep-audio"]).standardOutput
    #expect(
      !plain.contains("[mp4-bad-fragment]") && deep.contains("2026-07-09T10-00-00_audio.m4a: warning: "))
    #expect(deep.contains("[mp4-bad-fragment]"))
    #expect(plain.contains("[mp4-bad-sample-table]"))
    let without = Set(deep.split(separator: "\n")).subtracting(plain.split(separator: "\n"))
    #expect(!without.isEmpty && without.allSatisfy { $0.contains("[mp4-bad-fragment]") }, "\(without)")
  }

  /// lint/cases/MANIFEST.json says which file shows each rule; each says so in the output.
  @Test func eachCaseShowsItsRule() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let manifest = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: Fixtures.folder("lint").appendingPathComponent("cases/MANIFEST.json")))
        as? [String: Any])
    let rules = try #require(manifest["rules"] as? [String: [String]])
    let json = try folder.run(["lint", "lint/cases", "--format", "json", "--deep-audio"]).standardOutput
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let findings = try #require(object["findings"] as? [[String: Any]])
    let found = Set(findings.map { "\($0["code"] as? String ?? "") \($0["path"] as? String ?? "")" })
    for (code, files) in rules {
      for file in files { #expect(found.contains("\(code) lint/cases/\(file)"), "\(code) in \(file)") }
    }
    // And nothing beyond them: each case shows what it was made for.
    let listed = Set(rules.flatMap { code, files in files.map { "\(code) lint/cases/\($0)" } })
    #expect(found.subtracting(listed).isEmpty, "unexpected: \(found.subtracting(listed).sorted())")
  }
}
