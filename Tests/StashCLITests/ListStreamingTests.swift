import Foundation
import StashFormat
import StashTestSupport
import Testing

/// `stash ls` reads, prints and lets go of its memos piece by piece, in the order a whole
/// reading sorts them: its output must be, byte for byte, what `MemoFolder.read` and each memo's
/// JSON tree give, over several pieces, with ties, undated bases and captures.
@Suite struct ListStreamingTests {
  let stash = Fixtures.product("stash").path

  /// 700 memos (three pieces of output): dated bases with and without a zone, two spellings of
  /// one instant, bases with no date (dated by their files, some sharing a time, NFC and NFD),
  /// captures, real and empty audio, titles, transcripts and routes.
  func makeFolder() throws -> URL {
    let url = try Fixtures.scratchFolder("stash-ls-stream")
    func write(_ name: String, _ data: Data) throws { try data.write(to: url.appendingPathComponent(name)) }
    let audio = ListCommandTests.audio
    for n in 0..<600 {
      let day = 1 + n % 28
      let base = String(
        format: "2025-%02d-%02dT%02d-%02d-00%@", 1 + n / 60 % 12, day, n % 24, n % 60, n % 3 == 0 ? "Z" : "")
      try write(base + "_audio.m4a", n % 4 == 0 ? Data() : audio)
      if n % 2 == 0 { try write(base + "_transcription.vtt", Data("WEBVTT\n".utf8)) }
      if n % 5 == 0 { try write(base + "_track.gpx", Data("<gpx>".utf8)) }
      if n % 7 == 0 { try write(base + "_title.txt", Data("memo \(n) \u{1b}[1m\n\"quoted\"".utf8)) }
    }
    // One instant spelled two ways: the tie goes by the bases' bytes.
    for base in ["2025-06-01T12-00-00Z", "2025-06-01 12:00:00Z", "2025-06-01_12-00-00Z"] {
      try write(base + "_audio.m4a", audio)
    }
    // Bases that name no date: dated by their audio's modification time, several at one time.
    let times = [1_740_000_000.0, 1_750_000_000, 1_750_000_000, 1_760_000_000]
    for n in 0..<90 {
      let name = ["walk \(n)", "café \(n)", "cafe\u{301} \(n)"][n % 3]
      try write(name + "_audio.m4a", n % 2 == 0 ? audio : Data())
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: times[n % times.count])],
        ofItemAtPath: url.appendingPathComponent(name + "_audio.m4a").path)
    }
    for n in 0..<7 {
      let parts = url.appendingPathComponent("2024-02-0\(n + 1)T00-00-00Z.parts")
      try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: false)
      try Data("WEBVTT\n".utf8).write(to: parts.appendingPathComponent("transcription.0001.vtt"))
    }
    return url
  }

  /// `ls --json` streams what a whole reading of the folder describes, memo by memo, except the
  /// problems: those are each memo's one account, what `stash lint` reports for its files.
  @Test func jsonIsWhatAWholeReadingWrites() throws {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let memos = try MemoFolder.read(path: folder.path).memos
    #expect(memos.count == 700)
    #expect(memos.contains { $0.dateSource == .mtime } && memos.contains { !$0.hasAudio })
    func withoutProblems(_ text: String) throws -> [NSDictionary] {
      let objects = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
      return objects.map { object in
        var object = object
        object["problems"] = nil
        return object as NSDictionary
      }
    }
    let expected = "[\n" + memos.map { $0.json.serialized() }.joined(separator: ",\n") + "\n]\n"
    // The child's zone is this process's (the environment is inherited), so local times agree.
    let result = try runProcess(stash, ["ls", "--json", folder.path])
    #expect(result.status == 0)
    #expect(try withoutProblems(result.standardOutput) == withoutProblems(expected))
    // Each memo's problems are lint's findings for its files, code for code.
    let listed = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
    let lint = try runProcess(stash, ["lint", "--format", "json", folder.path])
    let findings = try #require(
      (try JSONSerialization.jsonObject(with: Data(lint.standardOutput.utf8)) as? [String: Any])?["findings"]
        as? [[String: Any]])
    var byBase: [String: [String]] = [:]
    for finding in findings {
      let name = (finding["path"] as! String).split(separator: "/").last.map(String.init) ?? ""
      let base = String(name.prefix { $0 != "_" && $0 != "." })
      byBase[base, default: []].append(finding["code"] as! String)
    }
    var withProblems = 0
    for memo in listed {
      let codes = (memo["problems"] as! [[String: Any]]).map { $0["code"] as! String }
      #expect(codes.sorted() == (byBase[memo["base"] as! String] ?? []).sorted(), "\(memo["base"]!)")
      if !codes.isEmpty { withProblems += 1 }
    }
    #expect(withProblems > 0)
  }

  @Test func tableListsInTheSameOrderWithTheFolderTotals() throws {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let reading = try MemoFolder.read(path: folder.path)
    let result = try runProcess(stash, ["ls", "--bases", folder.path])
    #expect(result.status == 0)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.count == reading.memos.count + 1)
    let bases = lines.dropLast().map { line in
      String(line[line.index(after: line.lastIndex(of: "[")!)...].dropLast())
    }
    #expect(bases == reading.memos.map { PathText.escaped($0.base) })
    let totals = reading.summary
    #expect(
      lines.last?.hasPrefix(
        "\(totals.memoCount) memos, \(TimeText.clock(totals.totalSeconds, hours: true)) in all") == true)
    #expect(lines.last?.contains("(\(totals.unknownLengthCount) of unknown length)") == true)
    #expect(lines.last?.contains("\(totals.captureCount) captures without audio") == true)
  }
}
