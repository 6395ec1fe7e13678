import Foundation
import StashTestSupport
import Testing

/// `.stashlint`, `--config`, `--select`, `--ignore`, `--explain` and the rule pages.
@Suite struct LintConfigurationTests {
  func codes(_ result: ProcessResult) throws -> [String] {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    return (object["findings"] as? [[String: Any]] ?? []).map {
      "\($0["code"]!) \($0["severity"]!) \($0["path"]!)"
    }
  }

  @Test func aStashlintFileDisablesRulesChangesSeveritiesAndIgnoresPaths() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let before = try codes(folder.run(["lint", "lint", "--format", "json"]))
    #expect(before.contains("folder-unrecognised info lint/notes.pdf"))
    #expect(before.contains("title-empty warning lint/2026-05-04T11-00-00_title.txt"))
    try """
    # a comment
    disable = folder-near-miss
    ignore = mp4
    exclude = *.pdf
    [severity]
    title-empty = error
    folder-parts-empty = off
    """.write(to: folder.root.appendingPathComponent("lint/.stashlint"), atomically: true, encoding: .utf8)
    let after = try codes(folder.run(["lint", "lint", "--format", "json"]))
    #expect(
      !after.contains {
        $0.hasPrefix("folder-near-miss") || $0.hasPrefix("mp4-") || $0.hasPrefix("folder-parts-empty")
      })
    #expect(!after.contains { $0.hasSuffix("notes.pdf") })
    #expect(after.contains("title-empty error lint/2026-05-04T11-00-00_title.txt"))
    #expect(after.contains("folder-unrecognised info lint/MANIFEST.json"))
    // --ignore and --select on top of the file.
    let selected = try codes(
      folder.run(["lint", "lint", "--format", "json", "--select", "title", "--ignore", "title-empty"]))
    #expect(
      !selected.isEmpty && selected.allSatisfy { $0.hasPrefix("title-") && !$0.hasPrefix("title-empty") })
  }

  @Test func configGivenOnTheCommandLineReplacesTheFoldersOwn() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    try "disable = folder\n".write(
      to: folder.root.appendingPathComponent("lint/.stashlint"), atomically: true, encoding: .utf8)
    try "fail-on = info\nselect = folder-unrecognised\n".write(
      to: folder.root.appendingPathComponent("other.ini"), atomically: true, encoding: .utf8)
    let result = try folder.run(["lint", "lint", "--config", "other.ini", "--format", "json"])
    #expect(
      try codes(result) == [
        "folder-unrecognised info lint/MANIFEST.json", "folder-unrecognised info lint/cases",
        "folder-unrecognised info lint/notes.pdf",
      ])
    #expect(result.status == 1, "fail-on = info with info findings fails")
  }

  @Test func aBadConfigurationIsAUsageErrorWithItsLine() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    for (text, message) in [
      ("disable = vtt-no-such-thing\n", "bad.ini:1: 'vtt-no-such-thing' matches no rule"),
      ("\n[colours]\n", "bad.ini:2: unknown section [colours]"),
      ("[severity]\ntitle-empty = loud\n", "bad.ini:2: 'loud' is not a severity"),
      ("colour = on\n", "bad.ini:1: unknown key 'colour'"),
      // One meaning per word: `ignore` takes rules, `exclude` file names; each refuses the other.
      (
        "ignore = *.pdf\n",
        "bad.ini:1: '*.pdf' matches no rule; `stash lint --list-rules` lists them (to leave files out"
      ),
      ("exclude = lint-cue-overlap\n", "bad.ini:1: 'lint-cue-overlap' is a rule, not a file name"),
      ("exclude = vtt-*\n", "bad.ini:1: 'vtt-*' is a rule, not a file name"),
      ("lint-cue-overlap = off\n", "bad.ini:1: 'lint-cue-overlap' is a rule, not a key"),
    ] {
      try text.write(to: folder.root.appendingPathComponent("bad.ini"), atomically: true, encoding: .utf8)
      let result = try folder.run(["lint", "lint", "--config", "bad.ini"])
      #expect(result.status == 2 && result.standardError.contains(message), "\(result.standardError)")
    }
    #expect(try folder.run(["lint", "lint", "--config", "missing.ini"]).status == 2)
    let wrongWord = try folder.run(["lint", "lint", "--exclude", "title-empty"])
    #expect(wrongWord.status == 2 && wrongWord.standardError.contains("--exclude: 'title-empty' is a rule"))
  }

  /// `ignore = RULE` in the file does what `--ignore RULE` does; `--exclude` what `exclude =` does.
  @Test func ignoreMeansRulesAndExcludeFilesInBothPlaces() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let byFlag = try codes(folder.run(["lint", "lint", "--format", "json", "--ignore", "title-empty"]))
    try "ignore = title-empty\n".write(
      to: folder.root.appendingPathComponent("lint/.stashlint"), atomically: true, encoding: .utf8)
    let byFile = try codes(folder.run(["lint", "lint", "--format", "json"]))
    #expect(byFile == byFlag && !byFile.contains { $0.hasPrefix("title-empty") })
    try "exclude = *.pdf\n".write(
      to: folder.root.appendingPathComponent("lint/.stashlint"), atomically: true, encoding: .utf8)
    let excluded = try codes(folder.run(["lint", "lint", "--format", "json"]))
    try "".write(to: folder.root.appendingPathComponent("lint/.stashlint"), atomically: true, encoding: .utf8)
    #expect(excluded == (try codes(folder.run(["lint", "lint", "--format", "json", "--exclude", "*.pdf"]))))
    #expect(
      !excluded.contains { $0.hasSuffix("notes.pdf") } && excluded.contains { $0.hasSuffix("MANIFEST.json") })
  }

  @Test func explainPrintsTheRulesPage() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let text = try folder.run(["lint", "--explain", "folder-needs-recovery"])
    #expect(text.status == 0)
    #expect(
      text.standardOutput.hasPrefix(
        "folder-needs-recovery (warning): parts with no finished file of their kind"))
    #expect(text.standardOutput.contains("Fix: Run `stash recover`"))
    #expect(try folder.run(["lint", "--explain", "no-such-code"]).status == 2)
    // A slug one rule has names it; one several rules have names them all and explains none.
    let bySlug = try folder.run(["lint", "--explain", "needs-recovery"])
    #expect(bySlug.status == 0 && bySlug.standardOutput == text.standardOutput)
    // Codes are a family's one word, a hyphen and the slug.
    let codes = try folder.run(["lint", "--list-rules"]).standardOutput.split(separator: "\n")
      .compactMap { $0.split(separator: " ").first.map(String.init) }
    let slugs = Dictionary(grouping: codes) { String($0.drop { $0 != "-" }.dropFirst()) }
    let shared = try #require(slugs.first { $0.value.count > 1 }, "no slug is shared: \(codes)")
    let both = try folder.run(["lint", "--explain", shared.key])
    #expect(both.status == 2 && both.standardOutput.isEmpty)
    for code in shared.value { #expect(both.standardError.contains(code), "\(both.standardError)") }
  }

  /// docs/lint is generated from the catalogue; this fails when one changes without the other.
  @Test func theCommittedRulePagesMatchTheCatalogue() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let out = folder.root.appendingPathComponent("pages")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
    #expect(try folder.run(["lint", "--write-docs", out.path]).status == 0)
    let docs = Fixtures.repositoryRoot.appendingPathComponent("docs/lint")
    let generated = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    let committed = try FileManager.default.contentsOfDirectory(atPath: docs.path).sorted()
    #expect(generated == committed)
    for name in generated {
      let a = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
      let b = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
      #expect(a == b, "docs/lint/\(name) is stale: run `stash lint --write-docs docs/lint`")
    }
    // And --explain --format markdown is the same page.
    let page = try folder.run(["lint", "--explain", "vtt-bad-timestamp", "--format", "markdown"])
      .standardOutput
    #expect(
      page == (try String(contentsOf: docs.appendingPathComponent("vtt-bad-timestamp.md"), encoding: .utf8)))
  }
}
