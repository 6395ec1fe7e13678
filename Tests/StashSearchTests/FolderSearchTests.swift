import Foundation
import StashFormat
import StashTestSupport
import Testing

@testable import StashSearch

/// `FolderSearch` in-process, the one folder search `stash search`, `S` and `/` call: the memos in
/// the listing's order, across folders, damaged and unreadable files, more hits than are kept
/// ahead, a long transcript, the search stopped and narrowed, and the three callers agreeing.
@Suite struct FolderSearchTests {
  /// A folder holding `files` (name and text) and an audio file for each base in `memos` (only
  /// names make a memo: its audio is not read for a dated base).
  static func folder(_ label: String, memos: [String], files: [(String, String)]) throws -> URL {
    let folder = try Fixtures.scratchFolder(label)
    for base in memos { try Data().write(to: folder.appendingPathComponent(base + "_audio.m4a")) }
    for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
    return folder
  }

  /// A transcript of one cue saying `words` from 0:01.
  static func cue(_ words: String) -> String { "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\(words)\n" }

  /// Everything `searches` tell, in order: the folder's index, the memo's base and what it gave.
  static func run(_ searches: [FolderSearch]) -> [(search: Int, found: FolderSearch.Found)] {
    var told: [(search: Int, found: FolderSearch.Found)] = []
    FolderSearch.run(searches) { told.append(($0, $1)) }
    return told
  }

  static func pattern(_ text: String) throws -> SearchPattern { try #require(SearchPattern.typed(text)) }

  /// Three memos: the newest with a title and a phrase across cues, one whose transcript is
  /// damaged, one whose transcript is a folder.
  static func three() throws -> URL {
    try folder(
      "folder-search",
      memos: ["2026-05-03T10-00-00", "2026-05-02T10-00-00", "2026-05-01T10-00-00"],
      files: [
        ("2026-05-03T10-00-00_title.txt", "Bridge notes\n"),
        (
          "2026-05-03T10-00-00_transcription.vtt",
          "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\nWe walked <00:00:02.000>to the\n\n"
            + "00:00:04.500 --> 00:00:06.000\nold <i>bridge</i> &amp; the Café\n"
        ),
        (
          "2026-05-02T10-00-00_transcription.vtt",
          "WEBVTT\n\n00:00:10.000 --> 00:00:12.000\nanother bridge\n00:00:13.000 --> 00:00:14.000\nno blank line\n"
        ),
      ])
  }

  @Test func memosComeInTheListingsOrderWithWarningsAndErrors() throws {
    let folder = try Self.three()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("2026-05-01T10-00-00_transcription.vtt"),
      withIntermediateDirectories: false
    )
    let search = try FolderSearch(folder: folder.path, pattern: Self.pattern("bridge"))
    let told = Self.run([search]).map(\.found)
    #expect(
      told.map(\.candidate.base) == ["2026-05-03T10-00-00", "2026-05-02T10-00-00", "2026-05-01T10-00-00"])
    // The title's hit, then the transcript's; the memo's title read for its name.
    #expect(told[0].hits.map(\.place) == [.title, .cues(first: 1, last: 1)])
    #expect(told[0].title?.text == "Bridge notes" && told[0].hits[1].start == 4.5)
    // The damaged transcript is searched for what it holds, with a warning naming its line.
    #expect(told[1].hits.count == 1 && told[1].warning?.contains("_transcription.vtt:5: ") == true)
    // The transcript that is a folder is not searched, and said so.
    #expect(told[2].hits.isEmpty && told[2].error?.hasSuffix("not a regular file; not searched") == true)
    // A phrase across two cues, at its first word's own time.
    let phrase = try FolderSearch(folder: folder.path, pattern: Self.pattern("to the old bridge & the cafe"))
    let hit = try #require(Self.run([phrase]).first?.found.hits.first)
    #expect(
      hit.place == .cues(first: 0, last: 1) && hit.start == 2
        && hit.text == "We walked to the old bridge & the Café")
    // The first place of each memo, with every match in it.
    let first = try FolderSearch(folder: folder.path, pattern: Self.pattern("e"), wanted: .places(1))
    #expect(
      Self.run([first]).map { $0.found.hits.map(\.match) } == [[5..<6, 10..<11], [5..<6, 13..<14], []])
  }

  /// Files are searched as the folder is read, a few dozen at a time, and told in the listing's
  /// order: 150 memos and a second folder whose memos fall between them come out newest first
  /// across both, each once; a transcript with no memo (an orphan, which `ls` does not list) is
  /// passed over as `ls` passes it.
  @Test func severalFoldersMergeIntoTheListingsOrder() throws {
    var files: [(String, String)] = [("2026-04-30T10-00-00_transcription.vtt", Self.cue("an orphan heron"))]
    var memos: [String] = []
    var expected: [(base: String, search: Int)] = []
    for n in 0..<150 {
      let base = String(format: "2026-04-%02dT%02d-%02d-00", 1 + n / 24, n % 24, n % 60)
      memos.append(base)
      files.append((base + "_transcription.vtt", Self.cue(n % 10 == 0 ? "the heron flew" : "plain words")))
      if n % 7 == 0 { files.append((base + "_title.txt", "Heron walk \(n)\n")) }
      if n % 10 == 0 || n % 7 == 0 { expected.append((base, 0)) }
    }
    let first = try Self.folder("folder-search-many", memos: memos, files: files)
    let days = [2, 4, 6].map { String(format: "2026-04-%02dT12-30-00", $0) }
    let second = try Self.folder(
      "folder-search-more", memos: days,
      files: days.map { ($0 + "_transcription.vtt", Self.cue("a heron again")) })
    defer {
      try? FileManager.default.removeItem(at: first)
      try? FileManager.default.removeItem(at: second)
    }
    expected += days.map { ($0, 1) }
    let searches = try [first, second].map {
      try FolderSearch(folder: $0.path, pattern: Self.pattern("heron"))
    }
    let told = Self.run(searches)
    let wanted = expected.sorted { $0.base > $1.base }
    #expect(told.map(\.found.candidate.base) == wanted.map(\.base))
    #expect(told.map(\.search) == wanted.map(\.search))
    // A title hit and a transcript hit in one memo are two places.
    #expect(told.first { $0.found.candidate.base == "2026-04-01T00-00-00" }?.found.hits.count == 2)
    // One folder alone, in its own order.
    #expect(
      Self.run([searches[0]]).map(\.found.candidate.base) == wanted.filter { $0.search == 0 }.map(\.base))
  }

  /// More hits than are kept while the folder is read (20,000): the memos are searched again in
  /// their turn, and every hit is still given, in order.
  @Test func moreHitsThanAreKeptAreStillAllGiven() throws {
    let words = Self.cue(Array(repeating: "heron", count: 100).joined(separator: " "))
    let bases = (0..<220).map { String(format: "2026-03-%02dT%02d-00-00", 1 + $0 / 24, $0 % 24) }
    let folder = try Self.folder(
      "folder-search-budget", memos: bases, files: bases.map { ($0 + "_transcription.vtt", words) })
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(220 * 100 > FolderSearchAhead.hitBudget)
    let told = Self.run([try FolderSearch(folder: folder.path, pattern: Self.pattern("heron"))])
    #expect(told.map(\.found.candidate.base) == bases.sorted(by: >))
    #expect(told.allSatisfy { $0.found.hits.count == 100 })
  }

  /// A transcript longer than the first read (64 KiB) is searched to its end.
  @Test func aLongTranscriptIsSearchedToItsEnd() throws {
    var text = "WEBVTT\n\n"
    var second = 0
    func cue(_ words: String) {
      let at = String(format: "00:%02d:%02d", second / 60, second % 60)
      text += "\(at).000 --> \(at).900\n\(words)\n\n"
      second += 1
    }
    while text.utf8.count < 1 << 16 { cue("plain words said again") }
    cue("farthingale")
    cue("quodlibet")
    let folder = try Self.folder(
      "folder-search-long", memos: ["2026-05-01T10-00-00"],
      files: [("2026-05-01T10-00-00_transcription.vtt", text)])
    defer { try? FileManager.default.removeItem(at: folder) }
    for word in ["farthingale", "quodlibet"] {
      let told = Self.run([try FolderSearch(folder: folder.path, pattern: Self.pattern(word))])
      #expect(
        told.first?.found.hits.first?.cueStart == Double(second - (word == "quodlibet" ? 1 : 2)), "\(word)")
    }
  }

  /// The browser's `S`: stopped part way, it keeps what it learnt, and the longer text typed next
  /// finds what a search from the start finds, in the listing's order.
  @Test func aStoppedSearchNarrowsToWhatAFreshOneFinds() throws {
    let bases = (0..<40).map { String(format: "2026-02-%02dT10-00-00", 1 + $0 % 28) + ($0 < 28 ? "" : "b") }
    let folder = try Self.folder(
      "folder-search-narrow", memos: bases,
      files: bases.enumerated().map { n, base in
        (
          base + "_transcription.vtt",
          Self.cue(n % 3 == 0 ? "the heron flew" : n % 3 == 1 ? "a heron" : "words")
        )
      })
    defer { try? FileManager.default.removeItem(at: folder) }
    let order = try MemoFolderOrder<MemoNames>(path: folder.path)
    func search(_ text: String) throws -> FolderSearch {
      FolderSearch(order: order, pattern: try Self.pattern(text), scope: .transcript)
    }
    func hits(_ narrowing: FolderSearchNarrowing, _ text: String, stopAfter: Int = .max) throws -> [String]? {
      var found: [String] = []
      var looked = 0
      let finished = narrowing.run(text, try search(text), isCurrent: { looked < stopAfter }) { memo, _, _ in
        looked += 1
        if let memo, !memo.hits.isEmpty { found.append(memo.candidate.base) }
      }
      return finished ? found : nil
    }
    let fresh = try #require(try hits(FolderSearchNarrowing(), "heron f"))
    #expect(fresh.count == 14)
    let narrowing = FolderSearchNarrowing()
    #expect(try hits(narrowing, "her", stopAfter: 10) == nil)
    let narrowed = try #require(try hits(narrowing, "heron f"))
    // Found in the listing's order, whichever memos were looked at first.
    #expect(Set(narrowed) == Set(fresh))
    #expect(narrowed.sorted { order.position(ofBase: $0)! < order.position(ofBase: $1)! } == fresh)
    // The filter's memos are the same, and it stops when told to.
    #expect(try search("heron f").bases { _, _ in true } == Set(fresh))
    let many = try Self.folder(
      "folder-search-stop", memos: (0..<600).map { String(format: "x%03d", $0) },
      files: (0..<600).map { (String(format: "x%03d_transcription.vtt", $0), Self.cue("a")) })
    defer { try? FileManager.default.removeItem(at: many) }
    let stopped = FolderSearch(
      order: try MemoFolderOrder<MemoNames>(path: many.path), pattern: try Self.pattern("a"),
      scope: .transcript,
      wanted: .anyHit)
    var reports: [Int] = []
    #expect(
      stopped.bases { done, _ in
        reports.append(done); return done < 500
      } == nil)
    #expect(reports == [250, 500])
  }

  /// `stash search`, the browser's `S` and its `/` filter give the same memos and places on one
  /// corpus: a phrase across a comma and a cue boundary, accents, a damaged transcript, a title
  /// (which only `stash search` searches), undated bases among dated ones.
  @Test func stashSearchSAndTheFilterAgree() throws {
    let memos = ["2026-06-01T09-00-00", "2026-06-02T09-00-00", "2026-06-03T09-00-00", "walk", "zebra"]
    let folder = try Self.folder(
      "folder-search-agree", memos: memos,
      files: [
        (
          "2026-06-01T09-00-00_transcription.vtt",
          "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nThe river, the\n\n00:00:03.000 --> 00:00:05.000\nherons rose.\n"
        ),
        ("2026-06-02T09-00-00_transcription.vtt", Self.cue("Rivér the Herons again; river the herons")),
        ("2026-06-02T09-00-00_title.txt", "river the herons\n"),
        (
          "2026-06-02T09-00-00_bookmarks.vtt",
          "WEBVTT stash bookmarks\n\n00:00:07.000 --> 00:00:09.000\nRiver, the herons: here\n\n"
        ),
        ("2026-06-03T09-00-00_transcription.vtt", Self.cue("nothing here")),
        (
          "walk_transcription.vtt",
          "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nriver the herons\n00:0x --> bad\n"
        ),
        ("zebra_transcription.vtt", Self.cue("the river-the herons")),
      ])
    defer { try? FileManager.default.removeItem(at: folder) }
    let query = "river the herons"
    let pattern = try Self.pattern(query)
    // `stash search`'s places in transcripts (its title hits are its own).
    let command = Self.run([try FolderSearch(folder: folder.path, pattern: pattern)]).flatMap { told in
      told.found.hits.filter { $0.place != .title }.map { (told.found.candidate.base, $0) }
    }
    // `S`'s (what was said, and noted at a moment), over the listing the browser reads.
    let order = try MemoFolderOrder<MemoNames>(path: folder.path)
    var spoken: [(String, SearchHit)] = []
    FolderSearchNarrowing().run(
      query, FolderSearch(order: order, pattern: pattern, scope: .spoken), isCurrent: { true }
    ) {
      found, _, _ in
      spoken += (found?.hits ?? []).map { (found!.candidate.base, $0) }
    }
    #expect(!command.isEmpty)
    #expect(command.contains { $0.1.place == .bookmark(0) && $0.1.start == 7 }, "\(command)")
    #expect(command.map(\.0) == spoken.map(\.0))
    #expect(command.map(\.1) == spoken.map(\.1))
    // The filter's memos are theirs (it reads transcripts alone: the noted memo has one too).
    let filter = FolderSearch(order: order, pattern: pattern, scope: .transcript, wanted: .anyHit).bases {
      _, _ in true
    }
    #expect(filter == Set(command.map(\.0)))
    #expect(Set(command.map(\.0)) == ["2026-06-01T09-00-00", "2026-06-02T09-00-00", "walk", "zebra"])
  }
}
