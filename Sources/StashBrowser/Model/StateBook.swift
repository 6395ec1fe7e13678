/// The one text form of the browser's state files outside the memo folder (`positions`,
/// `selections`): a header line naming the book and its version, `#` comments, then one line per
/// entry, `KEY FIELD WHEN`, in key order; every line whole, so a file cut short or written over by
/// something else is found out rather than half read. Each book gives its header, its comment and
/// how an entry reads and writes.
package enum StateBook {
  /// Why a file is not a book: the line and what is wrong with it.
  package struct Damage: Error, Equatable, Sendable {
    package var line: Int
    package var reason: String

    /// A value with every field given.
    package init(line: Int, reason: String) {
      self.line = line
      self.reason = reason
    }

    /// The damage in plain words: `line 3: …`.
    package var description: String { "line \(line): \(reason)" }
  }

  /// The entries of a book's `text`: each line's fields go to `entry`, which gives the key and the
  /// entry, or nil when the line is not one (`expected` then says what a line holds).
  package static func parse<Entry>(
    _ text: String, header: String, expected: String, entry: ([Substring]) -> (String, Entry)?
  ) -> Result<[String: Entry], Damage> {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard lines.first == Substring(header) else {
      return .failure(Damage(line: 1, reason: "the file does not start with “\(header)”"))
    }
    guard text.hasSuffix("\n") else {
      return .failure(Damage(line: lines.count, reason: "the last line is cut short"))
    }
    var entries: [String: Entry] = [:]
    for (index, line) in lines.enumerated().dropFirst() where !line.isEmpty && !line.hasPrefix("#") {
      guard let (key, value) = entry(line.split(separator: " ", omittingEmptySubsequences: false)) else {
        return .failure(Damage(line: index + 1, reason: "expected \(expected)"))
      }
      entries[key] = value
    }
    return .success(entries)
  }

  /// The book's text: `header`, `# comment`, then each entry as `KEY ` and `line(entry)`, in key
  /// order, so the same book is always the same bytes.
  package static func text<Entry>(
    header: String, comment: String, _ entries: [String: Entry], line: (Entry) -> String
  ) -> String {
    var out = header + "\n# " + comment + "\n"
    for key in entries.keys.sorted() { out += key + " " + line(entries[key]!) + "\n" }
    return out
  }

  /// Keeps the newest `capacity` entries (by `updated`, then key), dropping the oldest.
  package static func keepNewest<Entry>(
    _ entries: inout [String: Entry], capacity: Int, updated: (Entry) -> Int
  ) {
    guard entries.count > capacity else { return }
    let oldest = entries.sorted { (updated($0.value), $0.key) < (updated($1.value), $1.key) }
    for (key, _) in oldest.prefix(entries.count - capacity) { entries[key] = nil }
  }

  /// Whether `text` is 16 lower-case hex digits, the shape of the books' hashes.
  package static func isHash(_ text: Substring) -> Bool {
    text.utf8.count == 16 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
  }
}
