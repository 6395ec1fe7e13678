import Foundation
import StashTestSupport
import Testing

@testable import StashFormat

/// `GPXScanner` reads a document held whole in place of expat and gives up on anything outside
/// the XML it takes. Every test compares it with expat alone: whatever it reads must be exactly
/// what expat reads, with the same points in the same places and the same diagnostics; and what
/// it gives up must still be read, by expat.
@Suite struct GPXScannerTests {
  static func expat(_ bytes: [UInt8]) -> GPXDocument {
    GPXReader.read(bytes, chunkSize: max(1, bytes.count), scan: false)
  }

  static func scanned(_ bytes: [UInt8]) -> GPXDocument? {
    bytes.withUnsafeBufferPointer { GPXScanner.read($0) }
  }

  /// What differs between the two readings, or nil when nothing does.
  static func difference(_ scanned: GPXDocument, _ expat: GPXDocument) -> String? {
    if scanned.diagnostics != expat.diagnostics {
      return "diagnostics: \(scanned.diagnostics) against expat's \(expat.diagnostics)"
    }
    if GPXPositionTests.locations(scanned) != GPXPositionTests.locations(expat) {
      return "point locations differ"
    }
    return scanned == expat ? nil : "content: \(scanned) against expat's \(expat)"
  }

  static let gpx = "xmlns=\"http://www.topografix.com/GPX/1/1\""

  /// Documents in the XML writers use, each with something a reader must get exactly right.
  static let taken: [(String, String)] = [
    (
      "comments, standalone, single quotes, lower-case utf-8",
      """
      <?xml version='1.0' encoding='utf-8' standalone='yes'?>
      <!-- before -->
      <gpx version='1.1' creator='a &amp; b' \(gpx)><!-- in -->
      <trk><name>x<!-- mid -->y</name><trkseg><trkpt lat='1' lon='2'><ele>3</ele></trkpt></trkseg></trk>
      </gpx>
      <!-- after -->

      """
    ),
    (
      "no declaration, a prefix for GPX's namespace, spaces in tags",
      """
      <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" version = "1.1" creator="p" >
        <g:trk ><g:trkseg><g:trkpt  lat = "1.5"
          lon="2.5" ><g:time >2025-01-01T00:00:00Z</g:time ></g:trkpt></g:trkseg></g:trk>
      </g:gpx >
      """
    ),
    (
      "namespaces declared, redeclared and undeclared below the root",
      """
      <?xml version="1.0"?>
      <gpx version="1.1" creator="n" \(gpx) xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
        xsi:schemaLocation="http://www.topografix.com/GPX/1/1 gpx.xsd">
      <trk><trkseg><trkpt lat="1" lon="2"><extensions>
        <e:TrackPointExtension xmlns:e="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
          <e:speed>1.5</e:speed><e:course>90</e:course></e:TrackPointExtension>
        <speed xmlns="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">2.5</speed>
        <other xmlns=""><speed>9</speed></other>
        <a:horizontalAccuracy xmlns:a="urn:stash:gpx:1" a:x="1">4.5</a:horizontalAccuracy>
        <gpx:ele xmlns:gpx="http://www.topografix.com/GPX/1/1">7</gpx:ele>
      </extensions></trkpt></trkseg></trk></gpx>
      """
    ),
    (
      "references and line ends in text and attributes",
      "<gpx \(gpx) version=\"1.1\" creator=\"tab\tline\nCR LF\r\nCR\rref&#9;&#10;&#x41;&lt;&gt;&quot;&apos;\">"
        + "<metadata><name>a&amp;b &lt;c&gt; &#233;&#x1F600; \"q\" 'a' ></name>"
        + "<desc>one\r\ntwo\rthree\nfour</desc></metadata>"
        + "<wpt lat=\"&#49;\" lon=\"2\"><name>é😀 ünï</name></wpt></gpx>"
    ),
    (
      "GPX 1.0, empty elements, a waypoint and a route",
      """
      <gpx xmlns="http://www.topografix.com/GPX/1/0" version="1.0"><wpt lat="1" lon="2"/>
      <rte><name>r</name><rtept lat="3" lon="4"><ele/></rtept><rtept lat="5" lon="6"/></rte>
      <bounds minlat="1" minlon="2" maxlat="3" maxlon="4"/></gpx>
      """
    ),
    (
      "no namespace, and content the reader has words for",
      """
      <gpx version="1.1"><metadata><bounds minlat="x"/></metadata>
      <trkpt lat="1" lon="2"/><trk><trkseg><trkpt lat="95" lon="2"><speed>-1</speed></trkpt>
      <trkpt lon="2"/><trkpt lat="a" lon="b"/><trkpt lat="1" lon="2"><ele>high</ele>
      <time>yesterday</time><course>400</course></trkpt></trkseg></trk></gpx>
      """
    ),
    (
      "a field's text cut at 64 KiB, and nested elements inside a field",
      "<gpx \(gpx)><metadata><name>" + String(repeating: "long ", count: 14_000)
        + "</name><desc>a<b>bold</b>c</desc></metadata></gpx>"
    ),
    ("a byte-order mark", "\u{FEFF}<?xml version=\"1.0\"?><gpx \(gpx)><wpt lat=\"1\" lon=\"2\"/></gpx>"),
    ("]] and > in text", "<gpx \(gpx)><metadata><name>a]]b]>c>d]</name></metadata></gpx>"),
    (
      "attributes in a namespace are not GPX's, even with GPX's names",
      """
      <gpx \(gpx) xmlns:p="urn:p" p:version="1.0" p:creator="not this" creator="this">
      <wpt p:lat="5" lat="1" lon="2" p:lon="6"/><wpt p:lat="1" lon="2"/>
      <metadata><bounds p:minlat="0" minlat="1" minlon="2" maxlat="3" maxlon="4"/></metadata></gpx>
      """
    ),
  ]

  @Test(arguments: 0..<taken.count)
  func readsWhatWritersWriteAsExpatDoes(index: Int) throws {
    let (name, text) = Self.taken[index]
    let bytes = Array(text.utf8)
    let scanned = try #require(Self.scanned(bytes), "\(name): the scanner gave it up")
    #expect(Self.difference(scanned, Self.expat(bytes)) == nil, "\(name)")
    #expect(GPXReader.read(bytes) == scanned)
  }

  @Test func readsEveryFixtureAndGeneratedRouteAsExpatDoes() throws {
    var files: [(String, [UInt8])] = GPXPositionTests.layouts
    for seed in 1...6 {
      files.append(("walk \(seed)", Array(GPXWriter.serialize(GPXSamples.walk(seed: UInt64(seed))).utf8)))
    }
    let root = Fixtures.repositoryRoot.appendingPathComponent("SyntheticFixtures")
    let paths = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".gpx") }
    #expect(paths.count >= 20)
    for path in paths.sorted() {
      files.append((path, Array(try Data(contentsOf: root.appendingPathComponent(path)))))
    }
    var takenCount = 0
    for (name, bytes) in files {
      guard let scanned = Self.scanned(bytes) else { continue }
      takenCount += 1
      #expect(Self.difference(scanned, Self.expat(bytes)) == nil, "\(name)")
    }
    // The fixtures include broken routes on purpose; most are whole, and those the scanner takes.
    #expect(takenCount * 3 >= files.count * 2, "taken \(takenCount) of \(files.count)")
  }

  /// XML the scanner does not take, valid or not: expat reads each.
  static let givenUp: [(String, String)] = [
    ("a DOCTYPE", "<!DOCTYPE gpx><gpx \(gpx)/>"),
    ("CDATA", "<gpx \(gpx)><metadata><name><![CDATA[x]]></name></metadata></gpx>"),
    ("a processing instruction", "<?xml-stylesheet href=\"a\"?><gpx \(gpx)/>"),
    ("a processing instruction inside", "<gpx \(gpx)><?pi x?></gpx>"),
    ("a declaration not at the start", " <?xml version=\"1.0\"?><gpx \(gpx)/>"),
    ("version 1.1", "<?xml version=\"1.1\"?><gpx \(gpx)/>"),
    ("another encoding", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><gpx \(gpx)/>"),
    ("a name outside ASCII", "<gpx \(gpx)><naïve/></gpx>"),
    ("an undefined entity", "<gpx \(gpx)><metadata><name>&nbsp;</name></metadata></gpx>"),
    ("a reference to NUL", "<gpx \(gpx)><metadata><name>&#0;</name></metadata></gpx>"),
    ("a reference to a surrogate", "<gpx \(gpx)><metadata><name>&#xD800;</name></metadata></gpx>"),
    ("a huge reference", "<gpx \(gpx)><metadata><name>&#99999999999;</name></metadata></gpx>"),
    ("a bare ampersand", "<gpx \(gpx)><metadata><name>a & b</name></metadata></gpx>"),
    ("an unbound prefix", "<gpx \(gpx)><x:a/></gpx>"),
    ("an unbound attribute prefix", "<gpx \(gpx) x:a=\"1\"/>"),
    ("a repeated attribute", "<gpx \(gpx)><wpt lat=\"1\" lat=\"1\" lon=\"2\"/></gpx>"),
    (
      "one attribute under two prefixes",
      "<gpx \(gpx) xmlns:a=\"urn:x\" xmlns:b=\"urn:x\"><wpt a:k=\"1\" b:k=\"2\" lat=\"1\" lon=\"2\"/></gpx>"
    ),
    ("the xml prefix", "<gpx \(gpx) xml:lang=\"en\"/>"),
    ("a reserved prefix declared", "<gpx \(gpx) xmlns:xmlns=\"urn:x\"/>"),
    ("a prefix undeclared", "<gpx \(gpx) xmlns:a=\"\"/>"),
    ("the xml namespace bound", "<gpx \(gpx) xmlns:a=\"http://www.w3.org/XML/1998/namespace\"/>"),
    ("no space between attributes", "<gpx \(gpx)><wpt lat=\"1\"lon=\"2\"/></gpx>"),
    ("< in an attribute", "<gpx \(gpx) creator=\"a<b\"/>"),
    ("an unquoted attribute", "<gpx \(gpx) creator=a/>"),
    ("a mismatched end tag", "<gpx \(gpx)><trk></trkseg></gpx>"),
    ("]]> in text", "<gpx \(gpx)><metadata><name>a]]>b</name></metadata></gpx>"),
    ("-- in a comment", "<gpx \(gpx)><!-- a -- b --></gpx>"),
    ("a control character", "<gpx \(gpx)><metadata><name>a\u{1}b</name></metadata></gpx>"),
    ("U+FFFE", "<gpx \(gpx)><metadata><name>a\u{FFFE}b</name></metadata></gpx>"),
    ("text before the root", "x<gpx \(gpx)/>"),
    ("an element after the root", "<gpx \(gpx)/><gpx \(gpx)/>"),
    ("text after the root", "<gpx \(gpx)/>x"),
    ("a root that is not GPX", "<kml xmlns=\"http://www.opengis.net/kml/2.2\"/>"),
    ("a cut file", "<gpx \(gpx)><trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkpt><trkpt lat="),
    ("zeros after a cut", "<gpx \(gpx)><trk><trkseg><trkpt lat=\"1\" lon=\"2\">\0\0\0\0"),
    ("elements nested too deep", "<gpx \(gpx)>" + String(repeating: "<a>", count: 1100)),
    ("nothing", ""),
    ("only whitespace", " \n\t"),
  ]

  static let badBytes: [(String, [UInt8])] = [
    (
      "invalid UTF-8",
      Array("<gpx \(gpx)><metadata><name>a".utf8) + [0xC3, 0x28] + Array("</name></metadata></gpx>".utf8)
    ),
    (
      "an overlong form",
      Array("<gpx \(gpx)><metadata><name>".utf8) + [0xC0, 0xAF] + Array("</name></metadata></gpx>".utf8)
    ),
    (
      "an encoded surrogate",
      Array("<gpx \(gpx)><metadata><name>".utf8) + [0xED, 0xA0, 0x80] + Array("</name></metadata></gpx>".utf8)
    ),
    ("a sequence cut at the end", Array("<gpx \(gpx)/><!--".utf8) + [0xE2, 0x82]),
    ("UTF-16", [0xFF, 0xFE] + Array("<gpx/>".utf8).flatMap { [$0, 0] }),
  ]

  @Test(arguments: 0..<(givenUp.count + badBytes.count))
  func givesUpWhatItDoesNotTakeAndExpatReadsIt(index: Int) {
    let (name, bytes) =
      index < Self.givenUp.count
      ? (Self.givenUp[index].0, Array(Self.givenUp[index].1.utf8)) : Self.badBytes[index - Self.givenUp.count]
    #expect(Self.scanned(bytes) == nil, "\(name): the scanner took it")
    let read = GPXReader.read(bytes)
    #expect(read == Self.expat(bytes), "\(name)")
    #expect(read.diagnostics == Self.expat(bytes).diagnostics, "\(name)")
  }

  @Test func randomDamageIsReadAsExpatReadsIt() {
    // Bytes flipped, markup and characters inserted, ranges deleted and repeated: each document
    // either is given up or reads exactly as expat reads it.
    var random = GPXSamples.Generator(state: 2026)
    let seeds = [
      Array(GPXWriter.serialize(GPXSamples.walk(seed: 3, segments: 2, points: 6)).utf8),
      Array(Self.taken[2].1.utf8), Array(Self.taken[3].1.utf8), GPXPositionTests.layouts[3].1,
    ]
    let pieces: [[UInt8]] =
      [
        "<", ">", "&", ";", "\"", "'", "=", "/", ":", "!", "?", "-", "]]>", "<!--", "-->", "\r", "\n", " ",
        "&amp;", "&#", "&#x", "xmlns", "xmlns:a=\"urn:a\"", " a:b=\"1\"", "<a>", "</a>", "<?x?>", "é",
      ].map { Array($0.utf8) } + [[0], [0x80], [0xC3], [0xFF], [0xEF, 0xBF, 0xBE]]
    var takenCount = 0
    var givenUpCount = 0
    var failures: [String] = []
    for round in 0..<4000 {
      let bytes = GPXSamples.damage(
        seeds[round % seeds.count], &random, times: 1...2, pieces: pieces, deleting: 8, repeating: 40
      ) { pieces[$0.int(0...pieces.count - 1)].first! }
      guard let scanned = Self.scanned(bytes) else {
        givenUpCount += 1
        continue
      }
      takenCount += 1
      if let difference = Self.difference(scanned, Self.expat(bytes)), failures.count < 5 {
        failures.append("round \(round): \(difference)\n\(String(decoding: bytes, as: UTF8.self))")
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    // Both outcomes happen often, so both are tested.
    #expect(takenCount >= 400 && givenUpCount >= 400, "taken \(takenCount), given up \(givenUpCount)")
  }
}
