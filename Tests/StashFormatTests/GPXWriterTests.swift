import Foundation
import Testing

@testable import StashFormat

@Suite struct GPXWriterTests {
  @Test(arguments: 1...40)
  func readingWhatWasWrittenGivesTheDocumentBack(seed: UInt64) {
    let document = GPXSamples.walk(seed: seed, segments: Int(seed % 3) + 1, points: 15, sparse: seed % 2 == 0)
    let read = GPXReader.read(Array(GPXWriter.serialize(document).utf8))
    #expect(read.diagnostics.isEmpty)
    #expect(read == document)
  }

  @Test func writtenFilesValidateAgainstTheSchemas() throws {
    guard let validator = try GPXSchemaValidator.make() else { return }
    for seed: UInt64 in [1, 2, 3, 4] {
      let text = GPXWriter.serialize(
        GPXSamples.walk(seed: seed, segments: 2, points: 5, sparse: seed % 2 == 0))
      #expect(try validator.problems(text) == nil, "seed \(seed)")
    }
    // Everything the writer can write at once, including values it must leave out or adjust.
    var point = GPXPoint(
      latitude: -90, longitude: 180, elevation: -12.5, time: 1e-7, speed: -1, course: 400,
      horizontalAccuracy: -3, hdop: 1.5, name: "a \"b\" <c> & d\r\n\u{1}", description: "]]>")
    point.timeHadZone = false
    let full = GPXDocument(
      creator: "quote \" and & <tag>",
      metadata: GPXMetadata(
        name: "m", description: "d", time: 0,
        bounds: GPXBounds(minLatitude: -1, minLongitude: -180, maxLatitude: 1, maxLongitude: 180)),
      tracks: [
        GPXTrack(
          name: "t", description: "d", type: "walking", segments: [GPXSegment(points: [point]), GPXSegment()])
      ],
      routes: [GPXRoute(name: "r", description: "d", points: [point])], waypoints: [point])
    let text = GPXWriter.serialize(full)
    #expect(try validator.problems(text) == nil)
    #expect(!text.contains("speed") && !text.contains("course") && !text.contains("horizontalAccuracy"))
    #expect(text.contains(#"lon="-180""#))
  }

  @Test func theValidatorReallyChecksEachSchema() throws {
    guard let validator = try GPXSchemaValidator.make() else { return }
    let good = GPXWriter.serialize(GPXSamples.walk(seed: 9, segments: 1, points: 2, sparse: false))
    #expect(try validator.problems(good) == nil)
    // A broken document of each kind must be caught, or the tests above prove nothing.
    let course = good.replacingOccurrences(
      of: #"<gpxtpx:course>[0-9.]+</gpxtpx:course>"#, with: "<gpxtpx:course>400</gpxtpx:course>",
      options: .regularExpression)
    let accuracy = good.replacingOccurrences(
      of: #"<stash:horizontalAccuracy>[0-9.]+<"#, with: "<stash:horizontalAccuracy>-1<",
      options: .regularExpression)
    let order = good.replacingOccurrences(
      of: #"(<ele>[0-9.-]+</ele>)\s*(<time>[^<]+</time>)"#, with: "$2$1", options: .regularExpression)
    for (label, broken) in [("course", course), ("accuracy", accuracy), ("order", order)] {
      #expect(broken != good, "\(label) edit did not apply")
      #expect(try validator.problems(broken) != nil, "\(label) should be invalid")
    }
  }

  @Test func leavesOutWhatThePhoneMarksInvalid() {
    var point = GPXPoint(latitude: 1, longitude: 2, speed: -1, course: -1, horizontalAccuracy: -1)
    point.elevation = .infinity
    let text = GPXWriter.serialize(GPXDocument(tracks: [GPXTrack(segments: [GPXSegment(points: [point])])]))
    #expect(text.contains(#"<trkpt lat="1" lon="2"/>"#))
    #expect(text.contains(#"creator="stash""#))
    let read = GPXReader.read(Array(text.utf8))
    #expect(GPXSamples.trackPoints(read) == [GPXPoint(latitude: 1, longitude: 2)])
  }

  @Test func textSurvivesEscapingAndForbiddenCharactersAreReplaced() {
    let name = "a \"b\" <c> & d\r\ne\tf ]]> ü 🚶"
    let document = GPXDocument(
      creator: "x\"y\n\tz", metadata: GPXMetadata(name: name, description: "bell\u{7}"),
      waypoints: [GPXPoint(latitude: 0, longitude: 0, name: name)])
    let read = GPXReader.read(Array(GPXWriter.serialize(document).utf8))
    #expect(read.diagnostics.isEmpty)
    #expect(read.creator == "x\"y\n\tz")
    #expect(read.metadata.name == name)
    #expect(read.waypoints.first?.name == name)
    #expect(read.metadata.description == "bell\u{FFFD}")
  }

  @Test func timesKeepTheirFractionAndALocalTimeStaysLocal() {
    var local = GPXPoint(latitude: 0, longitude: 0, time: 1_777_620_600.25)
    local.timeHadZone = false
    let utc = GPXPoint(latitude: 0, longitude: 0, time: 1_777_620_600.123456)
    let text = GPXWriter.serialize(GPXDocument(waypoints: [local, utc]))
    #expect(text.contains("<time>2026-05-01T07:30:00.25</time>"))
    #expect(text.contains("<time>2026-05-01T07:30:00.123456Z</time>"))
    let read = GPXReader.read(Array(text.utf8))
    #expect(read.waypoints.map(\.timeHadZone) == [false, true])
    #expect(read.diagnostics.map(\.code) == [.gpxTimeWithoutZone])
  }
}
