import Foundation
import StashTestSupport
import Testing

/// The machine formats' structure, the exit codes, GitHub detection and colour.
@Suite struct LintOutputTests {
  @Test func sarifHasWhatGitHubCodeScanningRequires() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let result = try folder.run(["lint", "lint", "lint/cases", "--format", "sarif"])
    let log = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(log["version"] as? String == "2.1.0")
    #expect((log["$schema"] as? String)?.hasSuffix("sarif-2.1.0.json") == true)
    let runs = try #require(log["runs"] as? [[String: Any]])
    #expect(runs.count == 1)
    let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
    #expect(driver["name"] as? String == "stash")
    let rules = try #require(driver["rules"] as? [[String: Any]])
    let ids = rules.compactMap { $0["id"] as? String }
    #expect(ids.count == rules.count && Set(ids).count == ids.count && ids.count > 90)
    for rule in rules {
      #expect((rule["shortDescription"] as? [String: Any])?["text"] is String)
      let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
      #expect(["error", "warning", "note"].contains(level ?? ""))
    }
    let results = try #require(runs[0]["results"] as? [[String: Any]])
    #expect(results.count > 100)
    var withRegion = 0
    for item in results {
      let id = try #require(item["ruleId"] as? String)
      let index = try #require(item["ruleIndex"] as? Int)
      #expect(ids[index] == id)
      #expect(["error", "warning", "note"].contains(item["level"] as? String ?? ""))
      #expect(((item["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
      let locations = try #require(item["locations"] as? [[String: Any]])
      let physical = try #require(locations.first?["physicalLocation"] as? [String: Any])
      let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
      #expect(uri.hasPrefix("lint/") && !uri.contains(" "), "\(uri)")
      if let region = physical["region"] as? [String: Any] {
        if let line = region["startLine"] as? Int {
          #expect(line >= 1 && (region["startColumn"] as? Int ?? 1) >= 1)
          withRegion += 1
        } else {
          #expect(region["byteOffset"] as? Int != nil)
        }
      }
    }
    #expect(withRegion > 50)
  }

  @Test func githubAnnotationsAreTheDefaultInGitHubActions() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let result = try folder.run(["lint", "lint"], environment: ["GITHUB_ACTIONS": "true"])
    let lines = result.standardOutput.split(separator: "\n")
    #expect(
      !lines.isEmpty
        && lines.allSatisfy {
          $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") || $0.hasPrefix("::notice ")
        })
    #expect(
      result.standardOutput.contains("::error file=lint/idea a_audio.m4a,title=folder-name-collision::"))
    let plain = try folder.run(["lint", "lint"], environment: ["GITHUB_ACTIONS": "false"])
    #expect(!plain.standardOutput.contains("::error"))
  }

  @Test func exitCodesFollowFailOn() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    #expect(try folder.run(["lint", "lint"]).status == 1)
    #expect(try folder.run(["lint", "lint", "--exit-zero"]).status == 0)
    // Only warnings and info in the orphan transcript: clean at the default threshold, failing at warning.
    let file = "lint/2026-04-01T08-00-00_transcription.vtt"
    #expect(try folder.run(["lint", "lint", "--select", "folder-orphan"]).status == 0)
    #expect(
      try folder.run(["lint", "lint", "--select", "folder-orphan", "--fail-on", "warning"]).status == 1)
    #expect(try folder.run(["lint", file]).status == 0)
    // A clean folder.
    let empty = folder.root.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
    let clean = try folder.run(["lint", "empty"])
    #expect(clean.status == 0 && clean.standardOutput == "No problems found.\n")
  }

  @Test func aMissingPathIsExitTwoAndTheOthersAreStillLinted() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let result = try folder.run(["lint", "no-such-folder", "lint", "--format", "gcc"])
    #expect(result.status == 2)
    #expect(result.standardError.contains("no-such-folder: No such file or directory"))
    #expect(result.standardOutput.contains("lint/idea a_audio.m4a: error:"))
  }

  @Test func usageErrorsAreExitTwo() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    for arguments in [
      ["--format", "xml"], ["--select", "vtt-no-such-rule"], ["--fail-on", "fatal"], ["--bogus"],
    ] {
      let result = try folder.run(["lint", "lint"] + arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.standardOutput.isEmpty && !result.standardError.isEmpty, "\(arguments)")
    }
  }

  /// Colour needs a terminal: `script` gives the command one.
  @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    #expect(!(try folder.run(["lint", "lint"]).standardOutput.contains("\u{1B}[")))
    func command(_ extra: String) -> String {
      "cd '\(folder.root.path)' && \(extra) TZ=UTC TERM=xterm '\(folder.stash)' lint lint"
    }
    let onTerminal = try runProcess("script", ["-qec", command("env -u NO_COLOR"), "/dev/null"])
    #expect(onTerminal.standardOutput.contains("\u{1B}[1;31merror"))
    let noColour = try runProcess("script", ["-qec", command("NO_COLOR=1"), "/dev/null"])
    #expect(
      !noColour.standardOutput.contains("\u{1B}[")
        && noColour.standardOutput.contains("error[folder-name-collision]"))
  }
}

/// One count of findings: what the summary says, what JSON lists (with the `unlisted` each stands
/// for) and what the human format says it left out all agree.
@Suite struct LintCountTests {
  @Test func theSummaryJSONAndHumanCountTheSameFindings() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let json = try folder.run(["lint", "lint/cases", "--format", "json"])
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let findings = try #require(document["findings"] as? [[String: Any]])
    let summary = try #require(document["summary"] as? [String: Any])
    var total = 0
    var listed: [String: Int] = [:]
    var unlisted: [String: Int] = [:]
    var bySeverity: [String: Int] = [:]
    for finding in findings {
      let key = "\(finding["path"] as! String): [\(finding["code"] as! String)]"
      let stands = finding["unlisted"] as? Int ?? 0
      if stands > 0 { unlisted[key, default: 0] += stands } else { listed[key, default: 0] += 1 }
      total += max(1, stands)
      bySeverity[finding["severity"] as! String, default: 0] += max(1, stands)
    }
    #expect(!unlisted.isEmpty, "the fixture should have a file past a limit")
    #expect(summary["findings"] as? Int == total)
    for severity in ["error", "warning", "info"] {
      #expect(summary[severity] as? Int == bySeverity[severity, default: 0], "\(severity)")
    }
    let human = try folder.run(["lint", "lint/cases"]).standardOutput
    #expect(human.contains("\(total) findings ("))
    #expect(!human.contains("not listed one by one"))
    for (key, count) in listed.merging(unlisted, uniquingKeysWith: +) where count > 3 {
      let shown = (listed[key] ?? 0) - 3
      let note =
        unlisted[key] == nil
        ? " (`--format json` lists each)" : shown > 0 ? " (`--format json` lists \(shown))" : ""
      #expect(human.contains("\(key) \(count - 3) more like these in this file\(note)\n"), "\(key)")
    }
  }

  @Test func cuesPastTheAudioAreOneFindingThatCountsThem() throws {
    let folder = try LintFixtureFolder()
    defer { folder.remove() }
    let human = try folder.run(["lint", "lint/cases"]).standardOutput
    let lines = human.split(separator: "\n").filter { $0.contains("[lint-cue-past-audio]") }
    #expect(lines.count == 1)
    #expect(lines.first?.contains("the audio ends at 0:01.536; 7 cues run past it, from this one") == true)
    #expect(lines.first?.contains("the audio may have been cut short") == true)
  }
}
