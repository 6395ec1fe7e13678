import Foundation
import StashFormat
import StashRecover
import StashTestSupport
import Testing

/// Adding and removing bookmarks writes `<base>_bookmarks.vtt` whole and chained, removes it with
/// the last bookmark, and never writes over a file stash did not write or cannot read whole.
@Suite struct MemoBookmarksTests {
  func memo() throws -> ScratchFolder {
    let folder = try ScratchFolder("stash-bookmarks")
    try Data([0]).write(to: folder.appendingPathComponent("m_audio.m4a"))
    return folder
  }

  func file(_ folder: ScratchFolder) -> String? {
    try? String(contentsOfFile: folder.path + "/m_bookmarks.vtt", encoding: .utf8)
  }

  @Test func addsInOrderAndRemovesTheNearest() throws {
    let folder = try memo()
    defer { folder.remove() }
    let added = try MemoBookmarks.add(
      Bookmark(at: 83.5004, note: " the\nbudget "), base: "m", in: folder.path, audioLength: 100)
    #expect(added == Bookmark(at: 83.5, note: "the budget"))
    try MemoBookmarks.add(Bookmark(at: 2), base: "m", in: folder.path, audioLength: 100)
    #expect(
      file(folder)
        == "WEBVTT stash bookmarks\n\n00:02.000 --> 01:23.500\n\n01:23.500 --> 01:40.000\nthe budget\n\n")
    #expect(throws: RecoverError.self) {
      try MemoBookmarks.add(Bookmark(at: 2), base: "m", in: folder.path, audioLength: 100)
    }
    #expect(throws: RecoverError.self) {
      try MemoBookmarks.add(Bookmark(at: 100), base: "m", in: folder.path, audioLength: 100)
    }
    #expect(try MemoBookmarks.remove(near: 83.1, base: "m", in: folder.path, audioLength: 100).at == 83.5)
    let none = #expect(throws: RecoverError.self) {
      try MemoBookmarks.remove(near: 50, base: "m", in: folder.path, audioLength: 100)
    }
    #expect(none?.code == .notFound)
    try MemoBookmarks.remove(near: 2, base: "m", in: folder.path, audioLength: 100)
    #expect(file(folder) == nil)
    // Nothing but the memo is left: no temporary file.
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
    #expect(names == ["m_audio.m4a"])
  }

  /// The browser's `e`: the note of the bookmark within half a second is replaced (one line), an
  /// empty one removes it, and a moment with no bookmark near is `notFound`, the file unchanged.
  @Test func annotatesTheNearestAndRefusesWhereNoneIs() throws {
    let folder = try memo()
    defer { folder.remove() }
    try MemoBookmarks.add(Bookmark(at: 2), base: "m", in: folder.path, audioLength: 10)
    let noted = try MemoBookmarks.annotate(
      near: 2.4, note: "for\nAna ", base: "m", in: folder.path, audioLength: 10)
    #expect(noted == Bookmark(at: 2, note: "for Ana"))
    #expect(file(folder) == "WEBVTT stash bookmarks\n\n00:02.000 --> 00:10.000\nfor Ana\n\n")
    let none = #expect(throws: RecoverError.self) {
      try MemoBookmarks.annotate(near: 5, note: "x", base: "m", in: folder.path, audioLength: 10)
    }
    #expect(none?.code == .notFound)
    #expect(file(folder) == "WEBVTT stash bookmarks\n\n00:02.000 --> 00:10.000\nfor Ana\n\n")
    try MemoBookmarks.annotate(near: 2, note: "", base: "m", in: folder.path, audioLength: 10)
    #expect(file(folder) == "WEBVTT stash bookmarks\n\n00:02.000 --> 00:10.000\n\n")
  }

  /// Each file stash must not write over, and what it holds afterwards: the same bytes.
  static let refused = [
    "WEBVTT\n\n00:01.000 --> 00:02.000\nChapter\n",
    "WEBVTT stash bookmarks\n\n00:0x.000 --> 00:02.000\nbroken\n",
  ]

  @Test(arguments: refused) func neverWritesOverAFileItCannotReadAsItsOwn(_ text: String) throws {
    #expect(!Self.refused.isEmpty)
    let folder = try memo()
    defer { folder.remove() }
    try text.write(toFile: folder.path + "/m_bookmarks.vtt", atomically: false, encoding: .utf8)
    let error = #expect(throws: RecoverError.self) {
      try MemoBookmarks.add(Bookmark(at: 5), base: "m", in: folder.path, audioLength: nil)
    }
    #expect(error?.code == .foreign)
    #expect(file(folder) == text)
  }

  @Test func rechainingPutsTheCuesInOrder() throws {
    let folder = try memo()
    defer { folder.remove() }
    let text = "WEBVTT stash bookmarks\n\n00:05.000 --> 00:06.000\nb\n\n00:01.000 --> 00:03.000\na\n"
    try text.write(toFile: folder.path + "/m_bookmarks.vtt", atomically: false, encoding: .utf8)
    #expect(try MemoBookmarks.rechain(base: "m", in: folder.path, audioLength: 9))
    #expect(
      file(folder) == "WEBVTT stash bookmarks\n\n00:01.000 --> 00:05.000\na\n\n00:05.000 --> 00:09.000\nb\n\n"
    )
    #expect(try !MemoBookmarks.rechain(base: "m", in: folder.path, audioLength: 9))
  }

  /// Deleting a memo takes its bookmarks with it, to the Trash or for good.
  @Test func theBookmarksGoWithTheirMemo() throws {
    for trashed in [false, true] {
      let folder = try memo()
      defer { folder.remove() }
      try FileManager.default.createDirectory(
        atPath: folder.path + "/memos", withIntermediateDirectories: false)
      for name in ["m_audio.m4a"] {
        try FileManager.default.moveItem(
          atPath: folder.path + "/" + name, toPath: folder.path + "/memos/" + name)
      }
      try MemoBookmarks.add(
        Bookmark(at: 0.5, note: "here"), base: "m", in: folder.path + "/memos", audioLength: nil)
      let disposal: MemoDeletion.Disposal =
        trashed ? .trash(Trash(directory: folder.path + "/Trash")) : .permanent
      let outcome = try MemoDeletion.delete(base: "m", in: folder.path + "/memos", disposal: disposal)
      #expect(outcome.removed.contains("m_bookmarks.vtt"))
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: folder.path + "/memos").filter {
          !$0.hasPrefix(".")
        } == [])
      if trashed {
        #expect(FileManager.default.fileExists(atPath: folder.path + "/Trash/files/m_bookmarks.vtt"))
      }
    }
  }
}
