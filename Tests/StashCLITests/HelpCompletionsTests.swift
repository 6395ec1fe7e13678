import Foundation
import StashTestSupport
import Testing

/// `--help`, `help COMMAND`, the man page and the completion scripts, all from one command table.
@Suite struct HelpCompletionsTests {
  let stash = Fixtures.product("stash").path

  @Test func everyCommandHasHelpBothWays() throws {
    let overview = try runProcess(stash, ["--help"])
    #expect(overview.status == 0)
    for command in ["ls", "show", "inspect", "export", "lint", "recover", "import", "completions", "help"] {
      #expect(overview.standardOutput.contains("  \(command) "), "\(command) missing from --help")
      let help = try runProcess(stash, ["help", command])
      #expect(help.status == 0 && help.standardOutput.contains("usage: stash \(command)"), "\(command)")
      #expect(try runProcess(stash, [command, "--help"]).standardOutput == help.standardOutput, "\(command)")
    }
    #expect(try runProcess(stash, ["help", "lint"]).standardOutput.contains("--fail-on SEVERITY"))
    #expect(try runProcess(stash, ["help", "nope"]).status == 2)
    #expect(try runProcess(stash, ["nope"]).status == 2)
  }

  @Test func theCommittedManPageIsGeneratedAndManReadsIt() throws {
    let manual = try runProcess(stash, ["help", "--man"]).standardOutput
    let committed = try String(
      contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/stash.1"), encoding: .utf8)
    #expect(manual == committed, "docs/stash.1 is stale: run `stash help --man > docs/stash.1`")
    let rendered = try runProcess(
      "man", ["-l", Fixtures.repositoryRoot.appendingPathComponent("docs/stash.1").path],
      environment: ["MANWIDTH": "100", "PATH": "/usr/bin:/bin"])
    #expect(
      rendered.status == 0 && rendered.standardOutput.contains("stash lint [PATH...]"),
      "\(rendered.standardError)")
  }

  /// The bash script, sourced into a real bash, completes commands, options and their values.
  @Test func bashCompletesFromTheCommandTable() throws {
    let script = try runProcess(stash, ["completions", "bash"]).standardOutput
    let scratch = try ScratchFolder("stash-completions")
    defer { scratch.remove() }
    let file = scratch.appendingPathComponent("stash.bash")
    try script.write(to: file, atomically: true, encoding: .utf8)
    func complete(_ words: [String]) throws -> String {
      let array = words.map { "'\($0)'" }.joined(separator: " ")
      let body =
        "source '\(file.path)'; COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _stash; echo \"${COMPREPLY[*]}\""
      return try runProcess("bash", ["-c", body]).standardOutput.trimmingCharacters(
        in: .whitespacesAndNewlines)
    }
    #expect(try complete(["stash", "li"]) == "lint")
    #expect(try complete(["stash", "lint", "--fo"]) == "--format")
    #expect(try complete(["stash", "lint", "--format", ""]) == "human json github sarif gcc")
    // Rule codes for --explain, from the linter's own catalogue.
    #expect(try complete(["stash", "lint", "--explain", "folder-or"]) == "folder-orphan")
    let codes = try runProcess(stash, ["lint", "--list-rules"]).standardOutput.split(separator: "\n")
      .compactMap { $0.split(separator: " ").first.map(String.init) }
    let offered = try complete(["stash", "lint", "--explain", ""]).split(separator: " ").map(String.init)
    #expect(!codes.isEmpty && Set(offered) == Set(codes) && offered.count == codes.count)
    #expect(try complete(["stash", "export", "x", "--to", "g"]) == "geojson")
    #expect(try complete(["stash", "completions", ""]) == "bash zsh fish")
    // A memo completes from the bases `stash ls --bases` lists in the folder typed so far.
    let stashDirectory = URL(fileURLWithPath: stash).deletingLastPathComponent().path
    let demo = Fixtures.folder("demo").path
    let memos = try runProcess(
      "bash",
      [
        "-c",
        "PATH='\(stashDirectory)':$PATH; source '\(file.path)'; COMP_WORDS=(stash show '\(demo)/2026-07'); "
          + "COMP_CWORD=2; _stash; printf '%s\\n' \"${COMPREPLY[@]}\"",
      ]
    ).standardOutput.split(separator: "\n").map(String.init)
    #expect(memos.contains("\(demo)/2026-07-19T16-45-10+0200"), "\(memos)")
    #expect(memos.contains("\(demo)/2026-07-19T16-45-10+0200_audio.m4a"), "\(memos)")
  }

  @Test func zshAndFishScriptsNameEveryCommandAndOption() throws {
    let zsh = try runProcess(stash, ["completions", "zsh"])
    let fish = try runProcess(stash, ["completions", "fish"])
    #expect(zsh.status == 0 && zsh.standardOutput.hasPrefix("#compdef stash"))
    #expect(
      zsh.standardOutput.contains(
        "'--fail-on[the lowest severity that fails the run (default error)]:severity:(error warning info)'"))
    #expect(
      fish.standardOutput.contains(
        "complete -c stash -n \"__fish_seen_subcommand_from lint\" -l format -x -a 'human json github sarif gcc'"
      ))
    for shell in [zsh, fish] {
      for command in ["ls", "show", "inspect", "export", "lint", "recover"] {
        #expect(shell.standardOutput.contains(command))
      }
    }
    #expect(try runProcess(stash, ["completions", "tcsh"]).status == 2)
  }

  /// What a command accepts is what its help lists, from the one table: every option the help
  /// names is taken (not refused as unknown), and one it does not name is refused. Run in an
  /// empty scratch folder, so nothing a command does touches anything else.
  @Test func everyOptionTheHelpNamesIsAcceptedAndNoOther() throws {
    let scratch = try ScratchFolder("stash-options")
    defer { scratch.remove() }
    let overview = try runProcess(stash, ["--help"]).standardOutput
    let names = overview.split(separator: "\n").drop { !$0.hasPrefix("commands:") }.dropFirst()
      .prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    #expect(names.count >= 10, "\(names)")
    var checked = 0
    for name in names {
      let help = try runProcess(stash, ["help", name]).standardOutput
      let options = help.split(separator: "\n").drop { $0 != "options:" }.dropFirst().compactMap { line in
        line.split(separator: " ", omittingEmptySubsequences: true).first.map(String.init)
      }
      for option in options where option.hasPrefix("-") {
        let takesValue =
          help.contains("  \(option) ")
          && help.split(separator: "\n").contains {
            $0.hasPrefix("  \(option) ") && $0.dropFirst(option.count + 3).first?.isUppercase == true
          }
        let words = [name, option] + (takesValue ? ["x"] : [])
        let script = "cd \"$1\" && shift && exec \"$@\" </dev/null"
        let result = try runProcess("/bin/sh", ["-c", script, "sh", scratch.url.path, stash] + words)
        #expect(!result.standardError.contains("unknown option"), "\(words): \(result.standardError)")
        checked += 1
      }
      let unknown = try runProcess(stash, [name, "--no-such-option"])
      #expect(
        unknown.status == 2 && unknown.standardError.contains("unknown option --no-such-option"), "\(name)")
    }
    #expect(checked > 40)
  }
}
