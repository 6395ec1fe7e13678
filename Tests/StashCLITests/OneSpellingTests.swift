import Foundation
import StashTestSupport
import Testing

/// Every command that prints JSON takes `--json` and `--format json`; `show` and `export` find a
/// memo by its title; `ls --bases` prints the names they take.
@Suite struct OneSpellingTests {
  let stash = Fixtures.product("stash").path
  let demo = Fixtures.folder("demo").path
  let base = "2026-06-01T07-30-00Z"

  func run(_ arguments: [String]) throws -> ProcessResult {
    try runProcess(stash, arguments, environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"])
  }

  @Test func jsonAndFormatJSONSayTheSameInEveryCommand() throws {
    let file = "\(demo)/\(base)_transcription.vtt"
    let scratch = try ScratchFolder("stash-spelling")
    defer { scratch.remove() }
    let target = try ScratchFolder("stash-spelling-import")
    defer { target.remove() }
    let calls: [[String]] = [
      ["ls", demo], ["show", "\(demo)/\(base)"], ["inspect", file], ["lint", demo],
      ["recover", scratch.path, "--dry-run"], ["import", demo, target.path, "--dry-run"],
    ]
    #expect(!calls.isEmpty)
    for call in calls {
      let json = try run(call + ["--json"])
      let format = try run(call + ["--format", "json"])
      #expect(json.status == format.status, "\(call)")
      #expect(!json.standardOutput.isEmpty && json.standardOutput == format.standardOutput, "\(call)")
      #expect((try? JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))) != nil, "\(call)")
      // Both, agreeing, are fine; disagreeing is a usage error.
      #expect(
        try run(call + ["--json", "--format", "json"]).standardOutput == json.standardOutput, "\(call)")
      let clash = try run(call + ["--json", "--format", "gcc"])
      #expect(clash.status == 2, "\(call)")
    }
    // The text formats by name are the default.
    for call in [["ls", demo], ["show", "\(demo)/\(base)"], ["import", demo, target.path, "--dry-run"]] {
      #expect(try run(call + ["--format", "text"]).standardOutput == run(call).standardOutput)
    }
    #expect(try run(["ls", demo, "--format", "yaml"]).standardError.contains("--format takes text or json"))
    let export = try run(["export", "\(demo)/\(base)", "--json"])
    let to = try run(["export", "\(demo)/\(base)", "--to", "json"])
    #expect(export.status == 0 && export.standardOutput == to.standardOutput)
    #expect(try run(["export", "\(demo)/\(base)", "--json", "--to", "srt"]).status == 2)
  }

  @Test func showAndExportFindAMemoByItsTitle() throws {
    let title = try String(contentsOfFile: "\(demo)/\(base)_title.txt", encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(!title.isEmpty)
    let byBase = try run(["show", "\(demo)/\(base)"])
    let byTitle = try run(["show", "\(demo)/\(title)"])
    #expect(byTitle.status == 0, "\(byTitle.standardError)")
    #expect(byTitle.standardOutput == byBase.standardOutput)
    #expect(try run(["show", "\(demo)/\(title.uppercased())"]).standardOutput == byBase.standardOutput)
    #expect(
      try run(["export", "\(demo)/\(title)", "--to", "txt"]).standardOutput
        == run(["export", "\(demo)/\(base)", "--to", "txt"]).standardOutput)
    let missing = try run(["show", "\(demo)/Nothing titled so"])
    #expect(missing.status == 2)
    #expect(missing.standardError.contains("no memo 'Nothing titled so'"), "\(missing.standardError)")
    #expect(missing.standardError.contains("stash ls --bases"))
  }

  @Test func twoMemosWithOneTitleAreNotGuessedBetween() throws {
    let folder = try ScratchFolder("stash-titles")
    defer { folder.remove() }
    for name in ["2026-01-01T08-00-00Z", "2026-01-02T08-00-00Z"] {
      try Data("Morning loop\n".utf8).write(to: folder.appendingPathComponent(name + "_title.txt"))
      try TestTone.mp4(seconds: 1, frequency: 330, fragmented: false)
        .write(to: folder.appendingPathComponent(name + "_audio.m4a"))
    }
    let r = try run(["show", folder.path + "/Morning loop"])
    #expect(r.status == 2)
    #expect(r.standardError.contains("2 memos are named 'Morning loop'"), "\(r.standardError)")
    #expect(
      r.standardError.contains("2026-01-01T08-00-00Z") && r.standardError.contains("2026-01-02T08-00-00Z"))
  }

  @Test func lsPrintsBasesOnRequest() throws {
    let plain = try run(["ls", demo]).standardOutput.split(separator: "\n").map(String.init)
    let withBases = try run(["ls", demo, "--bases"]).standardOutput.split(separator: "\n").map(String.init)
    #expect(plain.count == withBases.count && plain.count > 2)
    let row = try #require(withBases.first { $0.hasSuffix("[\(base)]") }, "\(withBases)")
    #expect(plain.contains(String(row.dropLast(base.count + 4))))
    // The summary line is unchanged.
    #expect(plain.last == withBases.last)
  }
}
