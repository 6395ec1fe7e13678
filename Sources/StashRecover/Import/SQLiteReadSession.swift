import CSQLite
import StashFormat

/// One look into an SQLite database: the one place SQLite is used. A database of someone else's is
/// opened through an `immutable` URI, so SQLite neither writes nor locks it and one another
/// program holds (Voice Memos) is read as its main file stands; a private copy (to apply the
/// journal another program has not yet written back) is opened as a plain database. Values come
/// out as Swift values; every failure is a `SQLiteReadSession.Failure` with SQLite's words.
final class SQLiteReadSession {
  /// Why the database could not be read, in SQLite's words (such as "file is not a database").
  struct Failure: Error, Equatable {
    var message: String
  }

  /// A column's value.
  enum Value: Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// The value as text (nil for null and numbers).
    var text: String? {
      if case .text(let text) = self { return text }
      return nil
    }

    /// The value as a number (nil for null and text).
    var number: Double? {
      switch self {
      case .integer(let value): Double(value)
      case .real(let value): value
      default: nil
      }
    }
  }

  private let database: OpaquePointer

  /// Opens the database at `path`: read-only and immutable, or (`privateCopy`, a copy of one's
  /// own) as a plain database, so that SQLite applies its `-wal` journal beside it.
  init(path: String, privateCopy: Bool = false) throws(Failure) {
    var handle: OpaquePointer?
    let flags =
      (privateCopy ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
    let status = sqlite3_open_v2(Self.uri(path, immutable: !privateCopy), &handle, flags, nil)
    guard status == SQLITE_OK, let handle else {
      let message =
        handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_close(handle)
      throw Failure(message: message)
    }
    database = handle
    // A corrupt or hostile file must not make a query run away.
    sqlite3_limit(database, SQLITE_LIMIT_LENGTH, 16 * 1024 * 1024)
  }

  deinit { sqlite3_close(database) }

  /// The `file:` URI of `path`, with the characters a URI reserves escaped.
  static func uri(_ path: String, immutable: Bool) -> String {
    var out = "file:"
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x21, 0x7F...0xFF:
        out += "%" + Text.zeroPadded(String(byte, radix: 16, uppercase: true), width: 2)
      default:
        out.unicodeScalars.append(Unicode.Scalar(byte))
      }
    }
    return immutable ? out + "?immutable=1" : out
  }

  /// Every row `sql` gives, each as its columns' values, with `text` bound to `?` in order.
  func rows(_ sql: String, binding text: [String] = []) throws(Failure) -> [[Value]] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw Failure(message: String(cString: sqlite3_errmsg(database)))
    }
    defer { sqlite3_finalize(statement) }
    for (index, value) in text.enumerated() {
      guard stash_sqlite_bind_text(statement, Int32(index + 1), value) == SQLITE_OK else {
        throw Failure(message: String(cString: sqlite3_errmsg(database)))
      }
    }
    var rows: [[Value]] = []
    while true {
      let status = sqlite3_step(statement)
      if status == SQLITE_DONE { return rows }
      guard status == SQLITE_ROW else { throw Failure(message: String(cString: sqlite3_errmsg(database))) }
      var row: [Value] = []
      for column in 0..<sqlite3_column_count(statement) {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(statement, column)))
        case SQLITE_TEXT:
          let count = Int(sqlite3_column_bytes(statement, column))
          if let bytes = sqlite3_column_text(statement, column) {
            row.append(
              .text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)))
          } else {
            row.append(.null)
          }
        default: row.append(.null)
        }
      }
      rows.append(row)
    }
  }
}
