import Foundation
import StashTestSupport
import Testing

@testable import StashFormat

/// Where points were read from. A document read whole places its points by counting lines itself
/// (`GPXLineCounter`); one read in pieces asks expat. Both must give expat's answer in every
/// layout a file can have: line ends of every kind, characters of several bytes, a byte-order
/// mark, everything on one line, and encodings other than UTF-8.
@Suite struct GPXPositionTests {
  /// Line, column and offset of every point of every kind (waypoints, route points, track
  /// points); nil for a point without a location.
  static func locations(_ document: GPXDocument) -> [[Int?]?] {
    (document.waypoints + document.routes.flatMap(\.points) + GPXSamples.trackPoints(document)).map {
      $0.location.map { [$0.line, $0.column, $0.offset] }
    }
  }

  /// A small file with a waypoint, a route and a track, its lines joined by `lineEnd`; names
  /// hold `text` just before points on the same line, so columns count characters, not bytes.
  static func file(lineEnd: String, text: String = "é😀\tx", bom: Bool = false) -> [UInt8] {
    let lines = [
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
      "<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\">",
      "<wpt lat=\"1\" lon=\"2\"><name>\(text)</name></wpt><wpt lat=\"1.5\" lon=\"2.5\"/>",
      "<rte><name>\(text)</name><rtept lat=\"3\" lon=\"4\"/>",
      "  <rtept lat=\"3.5\" lon=\"4.5\"/></rte>",
      "<trk><name>\(text)</name><trkseg><trkpt lat=\"5\" lon=\"6\"><ele>1</ele></trkpt>",
      "",
      "\t<trkpt lat=\"7\" lon=\"8\"/><trkpt lat=\"9\" lon=\"10\"><name>\(text)</name></trkpt>",
      "<trkpt lat=\"11\" lon=\"12\"/></trkseg></trk>",
      "</gpx>",
    ]
    return (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(lines.joined(separator: lineEnd).utf8)
  }

  static let layouts: [(String, [UInt8])] = [
    ("LF", file(lineEnd: "\n")),
    ("CR LF", file(lineEnd: "\r\n")),
    ("CR", file(lineEnd: "\r")),
    ("mixed", file(lineEnd: "\n").flatMap { $0 == 0x0A ? [0x0D, 0x0A, 0x0D] : [$0] }),
    ("one line", file(lineEnd: "")),
    ("byte-order mark", file(lineEnd: "\n", bom: true)),
    ("ASCII", file(lineEnd: "\n", text: "plain")),
  ]

  @Test(arguments: 0..<layouts.count)
  func wholeReadsPlacePointsWhereExpatDoes(layout: Int) {
    let (name, bytes) = Self.layouts[layout]
    let whole = GPXReader.read(bytes)
    #expect(whole.diagnostics.isEmpty, "\(name): \(whole.diagnostics)")
    let expected = Self.locations(whole)
    #expect(expected.count == 8 && expected.allSatisfy { $0?.allSatisfy { $0 != nil } == true }, "\(name)")
    for chunkSize in [1, 3, 64, bytes.count - 1] {
      let chunked = GPXReader.read(bytes, chunkSize: chunkSize)
      #expect(Self.locations(chunked) == expected, "\(name), chunks of \(chunkSize)")
    }
  }

  @Test func columnsCountCharactersAndLinesCountEveryKindOfLineEnd() {
    // Line 6 holds a name of four characters in seven bytes before its point; line 7 is empty.
    for lineEnd in ["\n", "\r\n", "\r"] {
      let points = GPXSamples.trackPoints(GPXReader.read(Self.file(lineEnd: lineEnd)))
      let shown = lineEnd.unicodeScalars.map(\.value)
      #expect(points.map { $0.location?.line } == [6, 8, 8, 9], "\(shown)")
      #expect(points.map { $0.location?.column } == [31, 2, 26, 1], "\(shown)")
    }
    let waypoints = GPXReader.read(Self.file(lineEnd: "\n")).waypoints
    #expect(waypoints.map { $0.location?.column } == [1, 45])
    #expect(waypoints.map { $0.location?.offset } == [113, 161])
  }

  @Test func otherEncodingsArePlacedByExpat() {
    // Latin-1: the byte E9 is one character, and not a UTF-8 lead byte.
    let latin1: [UInt8] =
      Array(
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<gpx xmlns=\"http://www.topografix.com/GPX/1/1\">"
          .utf8)
      + Array("<wpt lat=\"1\" lon=\"2\"><name>".utf8) + [0xE9, 0xE9, 0x80, 0x80]
      + Array("</name></wpt><wpt lat=\"3\" lon=\"4\"/></gpx>".utf8)
    // UTF-16, little-endian with its byte-order mark.
    let text = String(decoding: Self.file(lineEnd: "\n"), as: UTF8.self)
      .replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
    let utf16: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    for (name, bytes) in [("Latin-1", latin1), ("UTF-16", utf16)] {
      let whole = GPXReader.read(bytes)
      #expect(whole.diagnostics.isEmpty, "\(name): \(whole.diagnostics)")
      let expected = Self.locations(GPXReader.read(bytes, chunkSize: 5))
      #expect(!expected.isEmpty && Self.locations(whole) == expected, "\(name)")
    }
    // Line 2: <gpx …> (47), <wpt …> (21), <name> (6), four Latin-1 characters, </name></wpt> (13).
    // Read as UTF-8 the four bytes would count as two.
    #expect(GPXReader.read(latin1).waypoints.last?.location?.column == 47 + 21 + 6 + 4 + 13 + 1)
  }

  @Test func aFilePastTheWholeDocumentLimitIsReadInPiecesAlike() throws {
    // Past `wholeDocumentLimit` a file is read in pieces and expat places its points: the same
    // points, in the same places, as the whole text read at once.
    let point =
      "   <trkpt lat=\"52.5\" lon=\"13.25\"><ele>34.5</ele><time>2026-05-01T09:30:12.5Z</time></trkpt>\n"
    let count = GPXReader.wholeDocumentLimit / point.utf8.count + 10
    let text =
      "<gpx version=\"1.1\" creator=\"t\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n<trk><trkseg>\n"
      + String(repeating: point, count: count) + "</trkseg></trk></gpx>\n"
    let bytes = Array(text.utf8)
    #expect(bytes.count > GPXReader.wholeDocumentLimit)
    let folder = try Fixtures.scratchFolder("stash-gpx-big")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.path + "/big_track.gpx"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let pieces = try GPXReader.read(path: path)
    #expect(pieces.diagnostics.isEmpty && pieces.pointCount == count)
    let whole = GPXReader.read(bytes, chunkSize: bytes.count)
    #expect(pieces == whole)
    #expect(Self.locations(pieces) == Self.locations(whole))
    #expect(Self.locations(pieces).last??[0] == count + 2)
  }
}
