import StashFormat
import StashRecover
import Testing

/// `--clip`'s span: FROM-TO in the times `stash bookmark` takes, or a bookmark to the next.
@Suite struct ClipSpanTests {
  static let bookmarks = [Bookmark(at: 95, note: "later"), Bookmark(at: 83.5, note: "budget")]

  static let spans: [(text: String, from: Double, to: Double)] = [
    ("83.5-95", 83.5, 95), ("1:23-3:05.5", 83, 185.5), ("0:00:10-1:00:00", 10, 3600),
    ("bookmark:1", 83.5, 95), ("bookmark:2", 95, 120),
  ]

  @Test func spansAreGiven() { #expect(!Self.spans.isEmpty) }

  @Test(arguments: spans)
  func readsASpan(_ span: (text: String, from: Double, to: Double)) throws {
    let read = try ClipSpan(span.text, bookmarks: Self.bookmarks, audioLength: 120)
    #expect(read == ClipSpan(from: span.from, to: span.to))
  }

  static let refused: [(text: String, says: String)] = [
    ("95", "is not a span"), ("1:23-", "is not a span"), ("a-b", "is not a span"),
    ("9-3", "ends before it starts"),
    ("5-5", "ends before it starts"), ("bookmark:0", "names no bookmark"),
    ("bookmark:x", "names no bookmark"),
    ("bookmark:3", "there is no bookmark 3: the memo has 2 bookmarks"),
  ]

  @Test func refusalsAreGiven() { #expect(!Self.refused.isEmpty) }

  @Test(arguments: refused)
  func refusesWhatIsNoSpan(_ case: (text: String, says: String)) {
    #expect {
      try ClipSpan(`case`.text, bookmarks: Self.bookmarks, audioLength: 120)
    } throws: { error in
      (error as? ClipSpan.Problem)?.message.contains(`case`.says) == true
    }
  }

  @Test func theLastBookmarkNeedsTheLength() {
    #expect(throws: ClipSpan.Problem.self) {
      try ClipSpan("bookmark:2", bookmarks: Self.bookmarks, audioLength: nil)
    }
  }
}
