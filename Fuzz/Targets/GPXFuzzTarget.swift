/// Fuzzes the GPX reader: the scanner agrees with expat wherever it reads, reading in one piece
/// and in tiny chunks agrees (points, damage, where each point starts), and what was read
/// survives being written and read again.
enum GPXFuzzTarget {
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
    let input = Array(bytes)
    let document = GPXReader.read(input)
    // The scanner reads a whole document in expat's place: what it takes reads exactly as expat
    // reads it, diagnostics and places included.
    if let scanned = GPXScanner.read(bytes) {
      let expat = GPXReader.read(input, chunkSize: max(1, input.count), scan: false)
      fuzzRequire(
        scanned == expat && scanned.diagnostics == expat.diagnostics
          && pointLocations(scanned) == pointLocations(expat),
        "the scanner read differently from expat: \(scanned.diagnostics) vs \(expat.diagnostics)")
    }
    // Chunking must not change what is read (expat splits tokens across calls).
    let chunked = GPXReader.read(input, chunkSize: 7)
    fuzzRequire(
      chunked.pointCount == document.pointCount && chunked.isDamaged == document.isDamaged,
      "chunk size changed the result: \(chunked.pointCount) vs \(document.pointCount) points")
    // A whole read places points by counting lines itself; a read in pieces lets expat place them.
    fuzzRequire(
      pointLocations(chunked) == pointLocations(document),
      "point positions differ between a whole read and a read in pieces")
    fuzzRequire(
      document.pointCount <= input.count / 10 + 1, "\(document.pointCount) points from \(input.count) bytes")
    for diagnostic in document.diagnostics {
      if let offset = diagnostic.location.offset {
        fuzzRequire(offset >= 0 && offset <= input.count, "offset \(offset)")
      }
    }
    let written = GPXWriter.serialize(document)
    var again = GPXReader.read(Array(written.utf8))
    fuzzRequire(
      !again.isDamaged,
      "the writer wrote a damaged file: \(again.diagnostics.map(\.code.rawValue))\n\(written)")
    // What was read comes back; version and diagnostics are where it came from, not what it says.
    var expected = document
    expected.diagnostics = []
    expected.version = again.version
    again.diagnostics = []
    if expected.creator == nil { again.creator = nil }
    fuzzRequire(again == expected, "read(write(doc)) != doc\n--- written ---\n\(written)")
    _ = document.json
  }

  /// Where every point of a document starts, in document order.
  static func pointLocations(_ document: GPXDocument) -> [SourceLocation?] {
    document.tracks.flatMap { $0.segments.flatMap { $0.points.map(\.location) } }
      + document.routes.flatMap { $0.points.map(\.location) } + document.waypoints.map(\.location)
  }
}
