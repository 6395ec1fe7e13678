import StashFormat
import Testing

/// `<base>_bookmarks.vtt` (FORMAT.md §8): written as chained WebVTT chapters, read back the same,
/// and every way a file can be wrong reported with its `bookmarks-` code and line.
@Suite struct BookmarksTests {
  func codes(_ bookmarks: Bookmarks) -> [FormatError.Code] { bookmarks.problems.map(\.code) }

  @Test func writesChainedCuesInTimeOrderEndingAtTheAudiosEnd() {
    var bookmarks = Bookmarks([Bookmark(at: 83.5, note: "budget"), Bookmark(at: 12, note: "")])
    let added = bookmarks.add(Bookmark(at: 40.0004, note: "Ana & <Bo>"))
    #expect(added)
    let text = String(decoding: bookmarks.bytes(audioLength: 120.25), as: UTF8.self)
    #expect(
      text == """
        WEBVTT stash bookmarks

        00:12.000 --> 00:40.000

        00:40.000 --> 01:23.500
        Ana &amp; &lt;Bo&gt;

        01:23.500 --> 02:00.250
        budget


        """)
    let read = Bookmarks.parse(bookmarks.bytes(audioLength: 120.25), audioLength: 120.25)
    #expect(read.problems.isEmpty)
    #expect(read.writtenByStash)
    #expect(
      read.items == [
        Bookmark(at: 12), Bookmark(at: 40, note: "Ana & <Bo>"), Bookmark(at: 83.5, note: "budget"),
      ])
  }

  @Test func theLastCueRunsOneSecondWhenTheLengthIsUnknown() {
    let bookmarks = Bookmarks([Bookmark(at: 5, note: "a"), Bookmark(at: 7, note: "b")])
    let cues = bookmarks.document(audioLength: nil).cues
    #expect(cues.map(\.endTime) == [7, 8])
    // A bookmark past the end written anyway: its cue is still not empty.
    #expect(bookmarks.document(audioLength: 6.5).cues.map(\.endTime) == [7, 8])
    #expect(Bookmarks.parse(bookmarks.bytes(audioLength: nil)).problems.isEmpty)
  }

  @Test func addRefusesTheSameMillisecondAndRemoveReachesHalfASecond() {
    var bookmarks = Bookmarks([Bookmark(at: 10), Bookmark(at: 11)])
    let again = bookmarks.add(Bookmark(at: 10.0002, note: "again"))
    #expect(!again)
    #expect(bookmarks.items.count == 2)
    let removed = [bookmarks.remove(near: 9.4), bookmarks.remove(near: 10.6), bookmarks.remove(near: 10.5)]
    #expect(removed == [nil, Bookmark(at: 11), Bookmark(at: 10)])
    #expect(bookmarks.items.isEmpty)
  }

  /// Each bad file, the codes it gives and the line of the first.
  static let bad: [(String, String, Double?, [FormatError.Code], Int?)] = [
    ("not WebVTT", "hello\n", nil, [.bookmarksBroken], 1),
    ("a bad timestamp", "WEBVTT stash bookmarks\n\n00:0x.000 --> 00:02.000\nx\n", nil, [.bookmarksBroken], 3),
    (
      "out of order", "WEBVTT stash bookmarks\n\n00:05.000 --> 00:06.000\nb\n\n00:01.000 --> 00:05.000\na\n",
      6, [.bookmarksOutOfOrder], 6
    ),
    (
      "not chained", "WEBVTT stash bookmarks\n\n00:01.000 --> 00:02.000\na\n\n00:05.000 --> 00:06.000\nb\n",
      6, [.bookmarksNotChained], 3
    ),
    (
      "the last short of the end", "WEBVTT stash bookmarks\n\n00:01.000 --> 00:02.000\na\n", 9,
      [.bookmarksNotChained], 3
    ),
    (
      "an empty cue", "WEBVTT stash bookmarks\n\n00:01.000 --> 00:01.000\na\n", nil, [.bookmarksNotChained], 3
    ),
    ("past the end", "WEBVTT stash bookmarks\n\n00:10.000 --> 00:11.000\na\n", 9.5, [.bookmarksPastEnd], 3),
  ]

  @Test func badFilesGiveTheirCodesAtTheirLines() {
    #expect(!Self.bad.isEmpty)
    for (what, text, length, expected, line) in Self.bad {
      let read = Bookmarks.parse(Array(text.utf8), audioLength: length)
      #expect(codes(read) == expected, "\(what)")
      #expect(read.problems.first?.location.line == line, "\(what)")
    }
  }

  @Test func aFileWithoutStashsHeaderIsForeignButRead() {
    let read = Bookmarks.parse(Array("WEBVTT\n\n00:01.000 --> 00:03.000\nChapter 1\n".utf8))
    #expect(!read.writtenByStash)
    #expect(read.items == [Bookmark(at: 1, note: "Chapter 1")])
  }

  @Test func outOfOrderNeedsRechainingAndABrokenFileDoesNot() {
    #expect(Bookmarks.parse(Array(Self.bad[2].1.utf8), audioLength: 6).needsRechaining)
    #expect(!Bookmarks.parse(Array(Self.bad[1].1.utf8)).needsRechaining)
    #expect(Bookmarks.parse(Array(Self.bad[1].1.utf8)).isBroken)
  }

  /// The file is part of its memo's set, plain base or not; without audio it is an orphan.
  @Test func theFolderReaderKnowsTheName() {
    #expect(MemoFileKind.split("2026-03-14T08-05-12_bookmarks.vtt")! == ("2026-03-14T08-05-12", .bookmarks))
    let grouping = FolderGroupingTests.entries([
      "2026-03-14T08-05-12_audio.m4a", "2026-03-14T08-05-12_bookmarks.vtt", "Caf\u{E9}_audio.m4a",
      "Caf\u{E9}_bookmarks.vtt", "gone_bookmarks.vtt",
    ])
    let folder = FolderGrouping(grouping)
    #expect(
      folder.candidates.map { $0.bookmarks?.name } == [
        "2026-03-14T08-05-12_bookmarks.vtt", "Caf\u{E9}_bookmarks.vtt",
      ])
    #expect(folder.others.map(\.name) == ["gone_bookmarks.vtt"])
    #expect(folder.others.map(\.role.key) == ["orphan"])
  }

  /// A bookmarks file by another spelling is a near miss with the intended name; a transcript's
  /// words on a .vtt still make a transcript's near miss.
  @Test func nearMissesNameTheBookmarksFile() {
    let cases: [(String, String)] = [
      ("m_Bookmarks.vtt", "m_bookmarks.vtt"), ("m_bookmark.vtt", "m_bookmarks.vtt"),
      ("m-bookmarks.VTT", "m_bookmarks.vtt"), ("m_transcript.vtt", "m_transcription.vtt"),
    ]
    #expect(!cases.isEmpty)
    for (name, intended) in cases {
      guard case .nearMiss(let found, _, _, _) = FolderName.classify(name) else {
        Issue.record("\(name) is no near miss")
        continue
      }
      #expect(found == intended, "\(name)")
    }
    guard case .unrecognised = FolderName.classify("m_chapters.vtt") else {
      Issue.record("m_chapters.vtt")
      return
    }
  }
}
