import StashFormat

/// Where memos were left off, as the state file (`$XDG_STATE_HOME/stash/positions`) holds them: a
/// key per recording (a hash of its audio's first bytes and its size, never a name) and a time;
/// no title and no transcript text. Pure: the browser's I/O side reads and writes the file.
package struct PositionBook: Equatable, Sendable {
  /// One memo's place.
  package struct Entry: Equatable, Sendable {
    /// Memo seconds.
    package var position: Double
    /// When it was remembered, seconds since 1970 UTC.
    package var updated: Int

    /// A value with every field given.
    package init(position: Double, updated: Int) {
      self.position = position
      self.updated = updated
    }
  }

  /// Why a file is not a book.
  package typealias Damage = StateBook.Damage

  /// The first line of every book.
  package static let header = "stash positions 1"
  /// The most places kept; the oldest go first.
  package static let capacity = 10_000

  /// The places, by key.
  package var entries: [String: Entry] = [:]

  /// An empty book.
  package init(entries: [String: Entry] = [:]) { self.entries = entries }

  /// Whether `key` has the shape of a key: 16 lower-case hex digits, `-`, the size in bytes.
  package static func isKey(_ key: Substring) -> Bool {
    let parts = key.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].utf8.count == 16, !parts[1].isEmpty, parts[1].utf8.count <= 19 else {
      return false
    }
    return StateBook.isHash(parts[0]) && parts[1].utf8.allSatisfy { (48...57).contains($0) }
  }

  /// Reads a book's text; every line must be whole, so a file cut short or written over by
  /// something else is found out rather than half read.
  package static func parse(_ text: String) -> Result<PositionBook, Damage> {
    StateBook.parse(text, header: header, expected: "a key, a time in seconds and a date") { fields in
      guard fields.count == 3, isKey(fields[0]), let position = Double(fields[1]), position.isFinite,
        position >= 0, let updated = Int(fields[2])
      else { return nil }
      return (String(fields[0]), Entry(position: position, updated: updated))
    }.map(PositionBook.init(entries:))
  }

  /// The book as the file holds it.
  package var text: String {
    StateBook.text(
      header: PositionBook.header,
      comment: "Where each memo was left off: a hash of its audio's start and its size, seconds, when.",
      entries
    ) { "\(PositionBook.seconds($0.position)) \($0.updated)" }
  }

  /// Whether the memo with `key` and length `duration` (nil when unknown) was left off partway:
  /// a place as the browser continues from, past the first `rememberAfter` seconds and short of
  /// the last `endMargin`.
  package func isPartlyHeard(key: String, duration: Double?) -> Bool {
    guard let position = entries[key]?.position, position >= BrowserModel.rememberAfter else { return false }
    return duration.map { position < $0 - BrowserModel.endMargin } ?? true
  }

  /// The audio sizes the keys name: a memo whose audio is of no such size has no place, and its
  /// audio need not be read to know it.
  package var sizes: Set<Int> {
    Set(entries.keys.compactMap { key in key.split(separator: "-").last.flatMap { Int($0) } })
  }

  /// Seconds to the millisecond, without a needless fraction.
  static func seconds(_ value: Double) -> String {
    let ms = Int((value * 1000).rounded())
    let fraction = ms % 1000
    guard fraction != 0 else { return "\(ms / 1000)" }
    return "\(ms / 1000)." + Text.zeroPadded(fraction, width: 3)
  }

  /// Applies changes made since the book was read (nil forgets a place) on top of whatever
  /// another browser wrote meanwhile, then keeps the newest `capacity` places.
  package mutating func apply(_ changes: [String: Entry?]) {
    for (key, entry) in changes {
      entries[key] = entry
    }
    StateBook.keepNewest(&entries, capacity: PositionBook.capacity) { $0.updated }
  }
}
