import Foundation
import StashTestSupport
import Testing

/// `stash bookmark`, `stash bookmark --remove` and `stash bookmarks` through the binary, on a
/// memo of synthetic audio 1.536 s long.
@Suite struct BookmarkCommandTests {
  static let base = "2026-07-13T10-00-00"

  func memo() throws -> ScratchFolder {
    let folder = try ScratchFolder("stash-bookmark")
    try FileManager.default.copyItem(
      at: Fixtures.folder("lint").appendingPathComponent("cases/\(Self.base)_audio.m4a"),
      to: folder.appendingPathComponent("\(Self.base)_audio.m4a"))
    return folder
  }

  func run(_ arguments: [String], in folder: ScratchFolder) throws -> ProcessResult {
    try runStash(arguments, in: folder.url)
  }

  func validate(_ json: String, in folder: ScratchFolder) throws -> Int32 {
    let output = folder.appendingPathComponent("out.json")
    try Data(json.utf8).write(to: output)
    defer { try? FileManager.default.removeItem(at: output) }
    let schema = Fixtures.repositoryRoot.appendingPathComponent("docs/bookmarks.schema.json").path
    return try runProcess(
      "/usr/bin/python3",
      [
        "-c",
        "import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))",
        output.path, schema,
      ]
    ).status
  }

  @Test func addsListsAndRemoves() throws {
    let folder = try memo()
    defer { folder.remove() }
    let added = try run(["bookmark", Self.base, "1.2", "budget & <plans>"], in: folder)
    #expect(added.status == 0, "\(added.standardError)")
    #expect(added.standardOutput == "0:01.200  budget & <plans>\n")
    // The moment as m:ss and m:ss.s; MEMO as a file of the memo.
    #expect(
      try run(["bookmark", Self.base + "_audio.m4a", "0:00.5"], in: folder).standardOutput == "0:00.500\n")
    #expect(try run(["bookmark", "./" + Self.base, "0:01", "one"], in: folder).status == 0)
    let listed = try run(["bookmarks", Self.base], in: folder)
    #expect(listed.standardOutput == "0:00.500\n0:01.000  one\n0:01.200  budget & <plans>\n")
    #expect(listed.standardError.isEmpty)
    let json = try run(["bookmarks", Self.base, "--json"], in: folder)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let bookmarks = try #require(document["bookmarks"] as? [[String: Any]])
    #expect(bookmarks.map { $0["at"] as? Double } == [0.5, 1, 1.2])
    #expect(bookmarks.map { $0["note"] as? String } == ["", "one", "budget & <plans>"])
    #expect(try validate(json.standardOutput, in: folder) == 0)
    // The schema refuses what it should: a bookmark without its moment.
    #expect(
      try validate(json.standardOutput.replacingOccurrences(of: "\"at\"", with: "\"time\""), in: folder) != 0)
    // Chapters: each cue to the next, the last to the audio's end.
    let file = try String(
      contentsOf: folder.appendingPathComponent("\(Self.base)_bookmarks.vtt"), encoding: .utf8)
    #expect(
      file
        == "WEBVTT stash bookmarks\n\n00:00.500 --> 00:01.000\n\n00:01.000 --> 00:01.200\none\n\n"
        + "00:01.200 --> 00:01.536\nbudget &amp; &lt;plans&gt;\n\n")
    let removed = try run(["bookmark", "--remove", Self.base, "1:01.1"], in: folder)
    #expect(
      removed.status == 1 && removed.standardError.contains("no bookmark within half a second of 1:01.100"))
    let removedOne = try run(["bookmark", "--remove", Self.base, "0.9"], in: folder)
    #expect(removedOne.status == 0 && removedOne.standardOutput == "removed 0:01.000  one\n")
    #expect(
      try run(["bookmarks", Self.base], in: folder).standardOutput == "0:00.500\n0:01.200  budget & <plans>\n"
    )
  }

  @Test func refusesMomentsOutsideTheAudioAndTwiceTheSame() throws {
    let folder = try memo()
    defer { folder.remove() }
    let past = try run(["bookmark", Self.base, "0:02"], in: folder)
    #expect(
      past.status == 2
        && past.standardError.contains("0:02.000 is not within the audio, which is 0:01.536 long"))
    #expect(try run(["bookmark", Self.base, "soon"], in: folder).status == 2)
    #expect(try run(["bookmark", Self.base, "1"], in: folder).status == 0)
    let again = try run(["bookmark", Self.base, "0:01.000"], in: folder)
    #expect(again.status == 2 && again.standardError.contains("a bookmark is at 0:01.000 already"))
    #expect(try run(["bookmarks", Self.base], in: folder).standardOutput == "0:01.000\n")
    #expect(try run(["bookmark", "no-such-memo", "1"], in: folder).status == 2)
  }

  /// `ls --json` and `show` count the bookmarks (and `show --json` too, as its memo).
  @Test func lsAndShowCountThem() throws {
    let folder = try memo()
    defer { folder.remove() }
    func counts() throws -> (Int?, String, Int?) {
      let listed = try run(["ls", "--json"], in: folder).standardOutput
      let memos = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
      let shown = try run(["show", Self.base], in: folder).standardOutput
      let json = try run(["show", Self.base, "--json"], in: folder).standardOutput
      let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
      return (
        memos.first?["bookmarks"] as? Int, shown, (object["memo"] as? [String: Any])?["bookmarks"] as? Int
      )
    }
    let none = try counts()
    #expect(none.0 == 0 && none.2 == 0 && !none.1.contains("bookmarks"))
    for at in ["0.25", "1"] { #expect(try run(["bookmark", Self.base, at], in: folder).status == 0) }
    let two = try counts()
    #expect(two.0 == 2 && two.2 == 2)
    #expect(two.1.contains("\n  bookmarks  2 (`stash bookmarks` lists them)\n"), "\(two.1)")
  }

  /// `export --to md` ends with the bookmarks, `--to json` holds them; txt and srt do not.
  @Test func exportIncludesThemInMarkdownAndJSON() throws {
    let folder = try memo()
    defer { folder.remove() }
    try "WEBVTT\n\n00:00.000 --> 00:01.000\nHello there.\n".write(
      to: folder.appendingPathComponent("\(Self.base)_transcription.vtt"), atomically: false, encoding: .utf8)
    #expect(try run(["bookmark", Self.base, "1.25", "the *budget* [draft]"], in: folder).status == 0)
    #expect(try run(["bookmark", Self.base, "0.5"], in: folder).status == 0)
    let md = try run(["export", Self.base, "--to", "md"], in: folder)
    #expect(
      md.standardOutput.hasSuffix(
        "Hello there.\n\n## Bookmarks\n\n- **[00:00:00.500]**\n- **[00:00:01.250]** the \\*budget\\* \\[draft]\n\n"
      ),
      "\(md.standardOutput)")
    let json = try run(["export", Self.base, "--to", "json"], in: folder).standardOutput
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let bookmarks = try #require(object["bookmarks"] as? [[String: Any]])
    #expect(bookmarks.map { $0["at"] as? Double } == [0.5, 1.25])
    #expect(bookmarks.map { $0["note"] as? String } == ["", "the *budget* [draft]"])
    #expect(try !run(["export", Self.base, "--to", "txt"], in: folder).standardOutput.contains("budget"))
  }

  /// A damaged file is listed for what it holds, each problem warned of as lint names it, at its
  /// line; a broken one exits 2.
  @Test func listingADamagedFileSaysWhatIsWrong() throws {
    let folder = try memo()
    defer { folder.remove() }
    let path = folder.appendingPathComponent("\(Self.base)_bookmarks.vtt")
    try "WEBVTT stash bookmarks\n\n00:01.000 --> 00:01.536\nb\n\n00:00.500 --> 00:01.000\na\n".write(
      to: path, atomically: false, encoding: .utf8)
    let unordered = try run(["bookmarks", Self.base], in: folder)
    #expect(unordered.status == 0 && unordered.standardOutput == "0:00.500  a\n0:01.000  b\n")
    #expect(
      unordered.standardError
        == "stash bookmarks: warning: ./\(Self.base)_bookmarks.vtt:6: the bookmark at 00:00.500 comes after the one at 00:01.000; bookmarks are written in time order [bookmarks-out-of-order]; listed what it holds\n",
      "\(unordered.standardError)")
    try "WEBVTT stash bookmarks\n\n00:00.0x0 --> 00:01.000\nx\n".write(
      to: path, atomically: false, encoding: .utf8)
    let broken = try run(["bookmarks", Self.base], in: folder)
    #expect(broken.status == 2 && broken.standardError.contains(":3: not the WebVTT a bookmarks file is"))
  }

  /// A bookmarks file stash did not write is listed but never written over, and the refusal says so.
  @Test func leavesAForeignFileAsItIs() throws {
    let folder = try memo()
    defer { folder.remove() }
    let path = folder.appendingPathComponent("\(Self.base)_bookmarks.vtt")
    let foreign = "WEBVTT\n\n00:00.100 --> 00:01.000\nIntro\n"
    try foreign.write(to: path, atomically: false, encoding: .utf8)
    let added = try run(["bookmark", Self.base, "1.3"], in: folder)
    #expect(added.status == 2)
    #expect(added.standardError.contains("stash did not write this file"), "\(added.standardError)")
    #expect(try String(contentsOf: path, encoding: .utf8) == foreign)
    #expect(try run(["bookmarks", Self.base], in: folder).standardOutput == "0:00.100  Intro\n")
  }
}

/// `stash import` brings a memo's bookmarks with it, and its record covers them: a bookmarks file
/// deleted here since is not copied again, until `--again`.
@Suite struct BookmarksImportTests {
  @Test func importBringsTheBookmarksAndRemembersThem() throws {
    let root = try ScratchFolder("stash-bookmarks-import")
    defer { root.remove() }
    let phone = root.appendingPathComponent("phone")
    let desk = root.appendingPathComponent("desk")
    try FileManager.default.createDirectory(at: phone, withIntermediateDirectories: false)
    let base = BookmarkCommandTests.base
    try FileManager.default.copyItem(
      at: Fixtures.folder("lint").appendingPathComponent("cases/\(base)_audio.m4a"),
      to: phone.appendingPathComponent("\(base)_audio.m4a"))
    let environment = ["XDG_STATE_HOME": root.appendingPathComponent("state").path]
    #expect(try runStash(["bookmark", base, "1", "kept"], in: phone).status == 0)
    // Old enough that the import takes it as finished, not a recording still running.
    #expect(
      try runProcess(
        "touch",
        ["-d", "2026-05-08 16:00", phone.path + "/\(base)_audio.m4a", phone.path + "/\(base)_bookmarks.vtt"]
      ).status == 0)
    let bookmarks = desk.appendingPathComponent("\(base)_bookmarks.vtt")
    let first = try runStash(["import", "phone", "desk"], in: root.url, environment: environment)
    #expect(first.status == 0, "\(first.standardOutput)\(first.standardError)")
    #expect(
      try Data(contentsOf: bookmarks)
        == Data(contentsOf: phone.appendingPathComponent("\(base)_bookmarks.vtt")))
    #expect(try runStash(["bookmarks", base], in: desk).standardOutput == "0:01.000  kept\n")
    try FileManager.default.removeItem(at: bookmarks)
    let second = try runStash(["import", "phone", "desk"], in: root.url, environment: environment)
    #expect(second.status == 0, "\(second.standardOutput)\(second.standardError)")
    #expect(!FileManager.default.fileExists(atPath: bookmarks.path), "\(second.standardOutput)")
    let again = try runStash(["import", "phone", "desk", "--again"], in: root.url, environment: environment)
    #expect(again.status == 0, "\(again.standardOutput)\(again.standardError)")
    #expect(FileManager.default.fileExists(atPath: bookmarks.path), "\(again.standardOutput)")
  }
}

/// `stash search` finds a bookmark's note: a line with its moment, and a hit `"in": "bookmark"`
/// that docs/search.schema.json accepts.
@Suite struct BookmarksSearchTests {
  @Test func searchFindsNotes() throws {
    let folder = try BookmarkCommandTests().memo()
    defer { folder.remove() }
    let base = BookmarkCommandTests.base
    #expect(try runStash(["bookmark", base, "1.2", "Budget for Ana"], in: folder.url).status == 0)
    #expect(try runStash(["bookmark", base, "0.2", "nothing here"], in: folder.url).status == 0)
    let text = try runStash(["search", "budget"], in: folder.url)
    #expect(text.status == 0 && text.standardOutput == "2026-07-13 10:00  0:01 bookmark  [Budget] for Ana\n")
    #expect(try runStash(["search", "zzz"], in: folder.url).status == 1)
    let json = try runStash(["search", "ana", "--json"], in: folder.url)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let hits = try #require(document["hits"] as? [[String: Any]])
    #expect(hits.count == 1)
    #expect(hits.first?["in"] as? String == "bookmark" && hits.first?["start"] as? Double == 1.2)
    #expect(hits.first?["matchStart"] as? Int == 11 && hits.first?["cueStart"] == nil)
    let output = folder.appendingPathComponent("out.json")
    try Data(json.standardOutput.utf8).write(to: output)
    let schema = Fixtures.repositoryRoot.appendingPathComponent("docs/search.schema.json").path
    func valid(_ text: String) throws -> Bool {
      try Data(text.utf8).write(to: output)
      return try runProcess(
        "/usr/bin/python3",
        [
          "-c",
          "import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))",
          output.path, schema,
        ]
      ).status == 0
    }
    #expect(try valid(json.standardOutput))
    // The schema refuses a bookmark hit without its moment.
    #expect(try !valid(json.standardOutput.replacingOccurrences(of: "\"start\"", with: "\"begin\"")))
  }
}
