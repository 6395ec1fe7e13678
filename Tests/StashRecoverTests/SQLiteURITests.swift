import Testing

@testable import StashRecover

/// The URI a database is opened by: every byte SQLite would read as part of the URI's syntax, and
/// every one outside printable ASCII, written as `%XX` with two upper-case hex digits.
@Suite struct SQLiteURITests {
  @Test func aPathsSpecialBytesAreEscaped() {
    #expect(
      SQLiteReadSession.uri("/a b/\t%?#é.db", immutable: true)
        == "file:/a%20b/%09%25%3F%23%C3%A9.db?immutable=1")
    #expect(
      SQLiteReadSession.uri("/plain/CloudRecordings.db", immutable: false) == "file:/plain/CloudRecordings.db"
    )
  }
}
