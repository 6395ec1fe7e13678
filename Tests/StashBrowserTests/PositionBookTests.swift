import StashBrowser
import Testing

/// The file of places memos were left off: read back as written, merged, bounded, and found out
/// when damaged.
@Suite struct PositionBookTests {
  static let key = "0123456789abcdef-48213"

  @Test func aBookReadsBackAsWritten() throws {
    var book = PositionBook()
    book.apply([
      Self.key: .init(position: 754.25, updated: 1_764_636_000),
      "ffffffffffffffff-1": .init(position: 5, updated: 1),
    ])
    let text = book.text
    #expect(text.hasPrefix("stash positions 1\n"))
    #expect(text.contains("0123456789abcdef-48213 754.250 1764636000\n"))
    #expect(try PositionBook.parse(text).get() == book)
    // Only keys, times and dates: nothing else is in the file.
    for line in text.split(separator: "\n").dropFirst(2) { #expect(line.split(separator: " ").count == 3) }
  }

  @Test func changesMergeOverWhatAnotherBrowserWrote() throws {
    var theirs = PositionBook()
    theirs.apply([
      "aaaaaaaaaaaaaaaa-1": .init(position: 10, updated: 5), Self.key: .init(position: 3, updated: 5),
    ])
    var merged = try PositionBook.parse(theirs.text).get()
    merged.apply([
      Self.key: .init(position: 99, updated: 9), "aaaaaaaaaaaaaaaa-1": nil,
      "bbbbbbbbbbbbbbbb-2": .init(position: 1, updated: 9),
    ])
    #expect(merged.entries.keys.sorted() == ["0123456789abcdef-48213", "bbbbbbbbbbbbbbbb-2"])
    #expect(merged.entries[Self.key]?.position == 99)
  }

  @Test func theOldestPlacesGoPastTheCapacity() {
    var book = PositionBook()
    var changes: [String: PositionBook.Entry?] = [:]
    for i in 0..<(PositionBook.capacity + 5) {
      let hex = String(i, radix: 16)
      changes[String(repeating: "0", count: 16 - hex.count) + hex + "-1"] = .init(position: 1, updated: i)
    }
    book.apply(changes)
    #expect(book.entries.count == PositionBook.capacity)
    #expect(book.entries["0000000000000000-1"] == nil && book.entries["0000000000000005-1"] != nil)
  }

  @Test(arguments: [
    ("", 1), ("positions\n", 1), ("stash positions 1\n0123456789abcdef-48213 754", 2),
    ("stash positions 1\n0123456789abcdef-48213 754 1\nnot a line\n", 3),
    ("stash positions 1\n0123456789ABCDEF-48213 754 1\n", 2), ("stash positions 1\nx-1 1 1\n", 2),
    ("stash positions 1\n0123456789abcdef-48213 nan 1\n", 2),
    ("stash positions 1\n0123456789abcdef-1 -4 1\n", 2),
  ])
  func aDamagedBookIsFoundOutWithItsLine(text: String, line: Int) {
    switch PositionBook.parse(text) {
    case .success(let book): Issue.record("read as a book: \(book)")
    case .failure(let damage): #expect(damage.line == line, "\(damage.description)")
    }
  }
}
