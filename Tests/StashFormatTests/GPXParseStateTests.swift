import Testing

@testable import StashFormat

/// `GPXParseState` knows no reader: it is fed namespaces, local names, attributes and text as
/// byte ranges, and the offset of each event. Fed by hand here, it must build what the readers
/// build from the same document.
@Suite struct GPXParseStateTests {
  /// Bytes that stay alive for the test: the attributes' names and values point into them.
  private final class Bytes {
    let base: UnsafeMutableBufferPointer<UInt8>
    init(_ text: String) {
      base = .allocate(capacity: text.utf8.count)
      _ = base.initialize(from: text.utf8)
    }
    deinit { base.deallocate() }
    func range(_ start: Int, _ count: Int) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(rebasing: base[start..<start + count])
    }
  }

  @Test func eventsFedByHandMakeTheDocumentTheReadersMake() throws {
    let text =
      "<gpx xmlns=\"http://www.topografix.com/GPX/1/1\" version=\"1.1\" creator=\"hand\">\n"
      + "<trk><trkseg><trkpt lat=\"1.5\" lon=\"-2\"><ele>12.5</ele></trkpt></trkseg></trk></gpx>"
    let bytes = Bytes(text)
    func at(_ needle: String, after start: Int = 0) -> Int {
      let tail = text.utf8.dropFirst(start)
      let index = tail.indices.first { text.utf8[$0...].starts(with: needle.utf8) }!
      return text.utf8.distance(from: text.utf8.startIndex, to: index)
    }
    func attribute(_ name: String, _ value: String) -> GPXAttribute {
      let nameAt = at(" \(name)=\"") + 1
      let valueAt = nameAt + name.utf8.count + 2
      #expect(text.utf8.dropFirst(valueAt).starts(with: value.utf8))
      return GPXAttribute(
        name: bytes.range(nameAt, name.utf8.count), value: bytes.range(valueAt, value.utf8.count))
    }

    let rootAttributes = [attribute("version", "1.1"), attribute("creator", "hand")]
    let pointAttributes = [attribute("lat", "1.5"), attribute("lon", "-2")]
    var state = GPXParseState()
    state.lineCounter = GPXLineCounter(UnsafeBufferPointer(bytes.base))
    func start(_ local: GPXElementNames.Local, _ tag: String, _ attributes: [GPXAttribute] = []) {
      state.eventOffset = at("<\(tag)")
      attributes.withUnsafeBufferPointer { state.start(.gpx11, local, GPXAttributes(list: $0)) }
    }
    func end(_ tag: String) {
      state.eventOffset = at("</\(tag)>")
      state.end()
    }
    start(.gpx, "gpx ", rootAttributes)
    start(.trk, "trk>")
    start(.trkseg, "trkseg")
    start(.trkpt, "trkpt", pointAttributes)
    start(.ele, "ele")
    let value = at("12.5")
    #expect(state.capture == .elevation)
    state.appendText(UnsafeRawPointer(bytes.range(value, 4).baseAddress!), 4)
    end("ele")
    end("trkpt")
    end("trkseg")
    end("trk")
    end("gpx")
    let document = state.finishedDocument()

    let read = GPXReader.read(Array(text.utf8))
    #expect(document == read)
    #expect(document.creator == "hand")
    let point = try #require(document.tracks.first?.segments.first?.points.first)
    #expect(point.latitude == 1.5 && point.longitude == -2 && point.elevation == 12.5)
    #expect(GPXPositionTests.locations(document) == GPXPositionTests.locations(read))
    #expect(GPXPositionTests.locations(document) == [[2, 14, at("<trkpt")]])
  }

  /// GPX's attributes are never prefixed: one in another namespace with GPX's name is not read as
  /// GPX's, by either reader.
  @Test func attributesInANamespaceAreLeftOutByBothReaders() throws {
    let text = try #require(GPXScannerTests.taken.first { $0.0.hasPrefix("attributes in a namespace") }?.1)
    let bytes = Array(text.utf8)
    let scanned = try #require(GPXScannerTests.scanned(bytes))
    for document in [scanned, GPXScannerTests.expat(bytes), GPXReader.read(bytes, chunkSize: 7)] {
      #expect(document.creator == "this" && document.version == "1.1")
      #expect(document.waypoints.map { [$0.latitude, $0.longitude] } == [[1, 2]])
      #expect(document.metadata.bounds?.minLatitude == 1)
      #expect(document.diagnostics.map(\.code) == [.gpxBadCoordinate])
    }
  }
}
