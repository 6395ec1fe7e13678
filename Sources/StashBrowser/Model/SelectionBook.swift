/// The memo selected last in each folder, as the state file (`$XDG_STATE_HOME/stash/selections`)
/// holds it: a hash of the folder's path, a hash of the memo's base, and when; no name, no title.
/// Pure: the browser's I/O side reads and writes the file.
package struct SelectionBook: Equatable, Sendable {
  /// One folder's memo.
  package struct Entry: Equatable, Sendable {
    /// The hash of the memo's base (`isHash`).
    package var memo: String
    /// When it was remembered, seconds since 1970 UTC.
    package var updated: Int

    /// A value with every field given.
    package init(memo: String, updated: Int) {
      self.memo = memo
      self.updated = updated
    }
  }

  /// Why a file is not a book: the line and what is wrong with it.
  package struct Damage: Error, Equatable, Sendable {
    package var line: Int
    package var reason: String

    /// A value with every field given.
    package init(line: Int, reason: String) {
      self.line = line
      self.reason = reason
    }
  }

  /// The first line of every book.
  package static let header = "stash selections 1"
  /// The most folders kept; the oldest go first.
  package static let capacity = 1000

  /// The memos, by the hash of their folder's path.
  package var entries: [String: Entry] = [:]

  /// An empty book.
  package init(entries: [String: Entry] = [:]) { self.entries = entries }

  /// Whether `text` has the shape of a hash: 16 lower-case hex digits.
  package static func isHash(_ text: Substring) -> Bool {
    text.utf8.count == 16 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }

  /// Reads a book's text; every line must be whole.
  package static func parse(_ text: String) -> Result<SelectionBook, Damage> {
    var book = SelectionBook()
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.first == Substring(header) else {
      return .failure(Damage(line: 1, reason: "the file does not start with “\(header)”"))
    }
    guard text.hasSuffix("\n") else {
      return .failure(Damage(line: lines.count, reason: "the last line is cut short"))
    }
    for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty && !line.hasPrefix("#") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: false)
      guard fields.count == 3, isHash(fields[0]), isHash(fields[1]), let updated = Int(fields[2]) else {
        return .failure(Damage(line: index + 1, reason: "expected a folder's hash, a memo's hash and a date"))
      }
      book.entries[String(fields[0])] = Entry(memo: String(fields[1]), updated: updated)
    }
    return .success(book)
  }

  /// The book as the file holds it, in key order (so the same book is always the same bytes).
  package var text: String {
    var out = SelectionBook.header + "\n"
    out += "# The memo selected last in each folder: a hash of the folder's path, of the memo's base, when.\n"
    for key in entries.keys.sorted() {
      let e = entries[key]!
      out += "\(key) \(e.memo) \(e.updated)\n"
    }
    return out
  }

  /// Sets the memo of `folder`, then keeps the newest `capacity` folders.
  package mutating func set(_ entry: Entry, for folder: String) {
    entries[folder] = entry
    if entries.count > SelectionBook.capacity {
      let oldest = entries.sorted { ($0.value.updated, $0.key) < ($1.value.updated, $1.key) }
      for (key, _) in oldest.prefix(entries.count - SelectionBook.capacity) { entries[key] = nil }
    }
  }
}
