import StashBrowser
import Testing

/// The memo selected last per folder: the book's text, and the model selecting it on open.
@Suite struct SelectionBookTests {
  @Test func aBookReadsBackWhatItWrote() throws {
    var book = SelectionBook()
    book.set(.init(memo: "0123456789abcdef", updated: 1_700_000_000), for: "fedcba9876543210")
    let parsed = try SelectionBook.parse(book.text).get()
    #expect(parsed == book)
    #expect(book.text.hasPrefix("stash selections 1\n"))
  }

  @Test func aFileThatIsNotABookIsRefusedWithTheLine() {
    #expect((try? SelectionBook.parse("something else\n").get()) == nil)
    let cut = "stash selections 1\n0123456789abcdef 0123456789abcdef 1"
    if case .failure(let damage) = SelectionBook.parse(cut) {
      #expect(damage.line == 2)
    } else {
      Issue.record()
    }
    let words = "stash selections 1\nmy-folder 0123456789abcdef 1\n"
    if case .failure(let damage) = SelectionBook.parse(words) {
      #expect(damage.line == 2)
    } else {
      Issue.record()
    }
  }

  @Test func theOldestFoldersGoFirst() {
    var book = SelectionBook()
    for n in 0..<SelectionBook.capacity + 5 {
      let key = String(repeating: "0", count: 16 - String(n, radix: 16).count) + String(n, radix: 16)
      book.set(.init(memo: key, updated: n), for: key)
    }
    #expect(book.entries.count == SelectionBook.capacity)
    #expect(book.entries["0000000000000000"] == nil && book.entries["0000000000000004"] == nil)
    #expect(book.entries["0000000000000005"] != nil)
  }

  @Test func theRememberedMemoIsSelectedWhenListed() {
    var model = BrowserFixture.model()
    let base = BrowserFixture.rows[1].base
    let effects = model.update(.restoreSelection(base: base))
    #expect(model.selectedBase == base && model.selection == 1)
    #expect(effects == [.loadDetail(base: base)])
    // A memo not in the list changes nothing.
    #expect(model.update(.restoreSelection(base: "gone")) == [])
    #expect(model.selectedBase == base)
  }
}
