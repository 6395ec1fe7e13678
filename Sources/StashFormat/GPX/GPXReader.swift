/// Reads GPX 1.1 and 1.0 with libexpat, streaming, in salvage mode: it never throws on content,
/// keeps every point that closed before an error, and says what it found in `diagnostics`.
public enum GPXReader {
  /// Bytes handed to expat per call for a document too large to parse whole, so memory stays
  /// bounded however large the file.
  public static let chunkSize = 64 * 1024
  /// A document up to this size is parsed in one final call to expat: expat then skips the
  /// position bookkeeping it does after every non-final call (a walk over every byte), and track
  /// points are placed by `GPXLineCounter` instead. Above it, memory matters more than speed.
  public static let wholeDocumentLimit = 16 << 20

  /// The document in `bytes`. Never throws: damage is reported in `diagnostics`.
  public static func read(_ bytes: [UInt8]) -> GPXDocument {
    read(bytes, chunkSize: bytes.count <= wholeDocumentLimit ? max(1, bytes.count) : chunkSize)
  }

  /// The document in `bytes`, handed to expat `chunkSize` bytes at a time (tests use tiny chunks
  /// to split every token and text across calls). A chunk that holds everything is first read by
  /// `GPXScanner` (unless `scan` is false), then, if the scanner gives it up, in one final call.
  package static func read(_ bytes: [UInt8], chunkSize: Int, scan: Bool = true) -> GPXDocument {
    bytes.withUnsafeBufferPointer { buffer in
      let whole = chunkSize >= buffer.count
      if whole, scan, let document = GPXScanner.read(buffer) { return document }
      let session = GPXReadSession(wholeText: whole ? buffer : nil)
      var offset = 0
      repeat {
        let count = min(chunkSize, buffer.count - offset)
        let chunk = UnsafeBufferPointer(rebasing: buffer[offset..<offset + count])
        offset += count
        guard session.feed(chunk, final: offset == buffer.count) else { break }
      } while offset < buffer.count
      return session.finish()
    }
  }

  /// The document in the file at `path`: whole when it is at most `wholeDocumentLimit` bytes,
  /// else in `chunkSize` pieces. Throws only when the file cannot be read (missing, not a regular
  /// file, an I/O error); damage inside it is reported in `diagnostics`.
  public static func read(path: String) throws(FormatError) -> GPXDocument {
    let file = try ReadOnlyFile(path: path)
    if file.size <= wholeDocumentLimit {
      // A file that grew or shrank since it was opened ends where this read ends.
      return read(try file.read(at: 0, count: max(1, file.size)))
    }
    let session = GPXReadSession()
    var offset = 0
    repeat {
      let chunk = try file.read(at: offset, count: chunkSize)
      offset += chunk.count
      // A file that grew or shrank while read ends where the reads ended.
      let final = chunk.count < chunkSize || offset >= file.size
      let going = chunk.withUnsafeBufferPointer { session.feed($0, final: final) }
      guard going, !final else { break }
    } while true
    return session.finish()
  }
}
