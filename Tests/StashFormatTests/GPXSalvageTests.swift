import Testing

@testable import StashFormat

/// What a killed writer leaves: a file cut anywhere, or padded with zeros, or broken mid-file.
@Suite struct GPXSalvageTests {
  static let document = GPXSamples.walk(seed: 7, segments: 2, points: 12)
  /// A smaller walk for the every-prefix test, which parses the file once per byte.
  static let small = GPXSamples.walk(seed: 8, segments: 2, points: 4)
  static let smallBytes = Array(GPXWriter.serialize(small).utf8)
  static let bytes = Array(GPXWriter.serialize(document).utf8)

  @Test func everyPrefixReadsWithoutCrashingAndOnlyGrows() {
    let all = GPXSamples.trackPoints(Self.small)
    var previous = 0
    var inventing: [Int] = []
    var shrinking: [Int] = []
    var undamaged: [Int] = []
    for length in 0...Self.smallBytes.count {
      let read = GPXReader.read(Array(Self.smallBytes[..<length]))
      let points = GPXSamples.trackPoints(read)
      // What is read is always a prefix of the real points: salvage never invents data...
      if points != Array(all.prefix(points.count)) { inventing.append(length) }
      // ...and a longer prefix never holds fewer points.
      if points.count < previous { shrinking.append(length) }
      if length < Self.smallBytes.count - 1 && !read.isDamaged { undamaged.append(length) }
      previous = points.count
    }
    #expect(inventing.isEmpty)
    #expect(shrinking.isEmpty)
    #expect(undamaged.isEmpty)
    #expect(previous == all.count)
  }

  @Test(arguments: [1, 2, 3, 7, 64, 4096])
  func chunkBoundariesChangeNothing(chunkSize: Int) {
    // Every token and every text split across expat calls reads the same as in one piece.
    let whole = GPXReader.read(Self.bytes)
    #expect(whole.diagnostics.isEmpty)
    let chunked = GPXReader.read(Self.bytes, chunkSize: chunkSize)
    #expect(chunked == whole)
    #expect(GPXSamples.trackPoints(chunked).map(\.location) == GPXSamples.trackPoints(whole).map(\.location))
    let torn = Array(Self.bytes.prefix(Self.bytes.count / 2))
    #expect(GPXReader.read(torn, chunkSize: chunkSize) == GPXReader.read(torn))
  }

  @Test func randomDamageNeverCrashesOrInventsPoints() {
    // Flipped bytes, stray markup, deleted and duplicated ranges: whatever the reader makes of
    // them, it returns, and a file only ever loses points to damage that removes markup.
    var random = GPXSamples.Generator(state: 2024)
    let pieces: [[UInt8]] = [
      "<", ">", "&", "]]>", "<!--", "\u{0}", "<trkpt", "</trkseg>", "&#0;", "\u{FFFF}",
    ].map {
      Array($0.utf8)
    }
    for _ in 0..<400 {
      let bytes = GPXSamples.damage(
        Self.bytes, &random, times: 1...4, pieces: pieces, deleting: 200, repeating: 300
      ) { UInt8(truncatingIfNeeded: $0.next()) }
      let read = GPXReader.read(bytes)
      // Every point read is a real one: a position the original file has.
      let real = Set(GPXSamples.trackPoints(Self.document).map { "\($0.latitude),\($0.longitude)" })
      let invented = GPXSamples.trackPoints(read).filter { !real.contains("\($0.latitude),\($0.longitude)") }
      // A flipped digit can change a coordinate without breaking the XML; allow that, not more.
      #expect(invented.count <= 4)
      _ = read.json.serialized()
    }
  }

  @Test func aCutFileKeepsEveryClosedPointAndSaysWhere() throws {
    // Cut in the middle of the 16th track point's <ele>.
    let text = String(decoding: Self.bytes, as: UTF8.self)
    let trackStart = try #require(text.range(of: "<trk>"))
    var cut = trackStart.upperBound
    for _ in 0..<16 { cut = try #require(text.range(of: "<trkpt", range: cut..<text.endIndex)).upperBound }
    let eleRange = try #require(text.range(of: "<ele>", range: cut..<text.endIndex))
    let prefix = Array(text[..<eleRange.upperBound].utf8) + Array("12".utf8)
    let read = GPXReader.read(prefix)
    let points = GPXSamples.trackPoints(read)
    #expect(points.count == 15)
    #expect(read.tracks[0].segments.map(\.points.count) == [12, 3])
    let tear = try #require(read.diagnostics.last)
    #expect(tear.code == .gpxTruncated)
    #expect(tear.severity == .error)
    #expect(tear.message.contains("kept the \(read.pointCount) points"))
    #expect(tear.message.contains("dropped the unfinished one"))
    let lines = text[..<eleRange.upperBound].split(separator: "\n", omittingEmptySubsequences: false)
    #expect(tear.location.line == lines.count)
    #expect(tear.location.column != nil)
  }

  @Test func zerosAfterTheCutAreATearNotMalformedXML() {
    let cut = Array(Self.bytes.prefix(Self.bytes.count * 2 / 3))
    let read = GPXReader.read(cut + [UInt8](repeating: 0, count: 4096))
    #expect(read.diagnostics.last?.code == .gpxTruncated)
    #expect(GPXSamples.trackPoints(read) == GPXSamples.trackPoints(GPXReader.read(cut)))
  }

  @Test func brokenXMLMidFileKeepsWhatCameBefore() {
    var text = String(decoding: Self.bytes, as: UTF8.self)
    let second = text.ranges(of: "<trkpt").dropFirst().first!
    text.replaceSubrange(second, with: "<trkpt <<")
    let read = GPXReader.read(Array(text.utf8))
    #expect(read.diagnostics.last?.code == .gpxMalformed)
    #expect(GPXSamples.trackPoints(read).count == 1)
    #expect(read.diagnostics.last?.message.contains("kept the \(read.pointCount) point") == true)
  }

  @Test func notXMLEmptyAndNotGPXAreSaidPlainly() {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    #expect(GPXReader.read(png).diagnostics.map(\.code) == [.gpxNotXML])
    #expect(
      GPXReader.read(Array("{\"type\": \"FeatureCollection\"}".utf8)).diagnostics.map(\.code) == [
        .gpxNotXML
      ])
    #expect(GPXReader.read([]).diagnostics.map(\.code) == [.gpxEmpty])
    #expect(GPXReader.read(Array("   \n".utf8)).diagnostics.map(\.code) == [.gpxEmpty])
    let kml = GPXReader.read(
      Array(#"<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>"#.utf8))
    #expect(kml.diagnostics.map(\.code) == [.gpxNotGPX])
    #expect(kml.diagnostics[0].message.contains("{http://www.opengis.net/kml/2.2}kml"))
    let wrongNamespace = GPXReader.read(Array(#"<gpx xmlns="urn:other"/>"#.utf8))
    #expect(wrongNamespace.diagnostics.map(\.code) == [.gpxNotGPX])
    for document in [kml, wrongNamespace] { #expect(document.isDamaged && document.pointCount == 0) }
  }

  @Test func bytesAfterTheDocumentAreIgnoredWithAWarning() {
    let read = GPXReader.read(Self.bytes + Array("<gpx>again</gpx>".utf8))
    #expect(read.diagnostics.map(\.code) == [.gpxTrailingData])
    #expect(read.diagnostics[0].severity == .warning)
    #expect(GPXSamples.content(read) == GPXSamples.content(GPXReader.read(Self.bytes)))
  }

  @Test func manyBadPointsGiveTwentyMessagesAndACount() {
    let points = String(repeating: #"<trkpt lat="1" lon="2"><time>soon</time></trkpt>"#, count: 500)
    let read = GPXReader.read(GPXSamples.file("<trk><trkseg>\(points)</trkseg></trk>"))
    #expect(read.diagnostics.count == GPXDiagnosticLog.limit + 1)
    #expect(read.diagnostics.allSatisfy { $0.code == .gpxBadTime })
    #expect(read.diagnostics.last?.message.hasPrefix("480 more") == true)
    #expect(GPXSamples.trackPoints(read).count == 500)
  }
}
