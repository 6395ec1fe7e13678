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

  /// Why a file is not a book.
  package typealias Damage = StateBook.Damage

  /// The first line of every book.
  package static let header = "stash selections 1"
  /// The most folders kept; the oldest go first.
  package static let capacity = 1000

  /// The memos, by the hash of their folder's path.
  package var entries: [String: Entry] = [:]

  /// An empty book.
  package init(entries: [String: Entry] = [:]) { self.entries = entries }

  /// Whether `text` has the shape of a hash: 16 lower-case hex digits.
  package static func isHash(_ text: Substring) -> Bool { StateBook.isHash(text) }

  /// Reads a book's text (`StateBook`'s form).
  package static func parse(_ text: String) -> Result<SelectionBook, Damage> {
    StateBook.parse(text, header: header, expected: "a folder's hash, a memo's hash and a date") { fields in
      guard fields.count == 3, isHash(fields[0]), isHash(fields[1]), let updated = Int(fields[2]) else {
        return nil
      }
      return (String(fields[0]), Entry(memo: String(fields[1]), updated: updated))
    }.map(SelectionBook.init(entries:))
  }

  /// The book as the file holds it.
  package var text: String {
    StateBook.text(
      header: SelectionBook.header,
      comment:
        "The memo selected last in each folder: a hash of the folder's path, of the memo's base, when.",
      entries
    ) { "\($0.memo) \($0.updated)" }
  }

  /// Sets the memo of `folder`, then keeps the newest `capacity` folders.
  package mutating func set(_ entry: Entry, for folder: String) {
    entries[folder] = entry
    StateBook.keepNewest(&entries, capacity: SelectionBook.capacity) { $0.updated }
  }
}
