@testable import StashFormat

/// Synthetic routes for the GPX tests: a deterministic generator (no real places or people) and
/// small hand-written files in the shapes real exporters produce.
enum GPXSamples {
  /// A small, seedable generator (SplitMix64) so a failing case can be reproduced.
  struct Generator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }

    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func chance(_ p: Double) -> Bool { unit() < p }
    mutating func int(_ range: ClosedRange<Int>) -> Int {
      range.lowerBound + Int(next() % UInt64(range.count))
    }
  }

  /// A walk of `segments` segments of `points` points each, one point a second, with every
  /// field the phone writes; some fields left out at random when `sparse`.
  static func walk(seed: UInt64, segments: Int = 2, points: Int = 20, sparse: Bool = true) -> GPXDocument {
    var random = Generator(state: seed)
    var latitude = Double(random.int(-60_000_000...60_000_000)) / 1e6
    var longitude = Double(random.int(-179_000_000...179_000_000)) / 1e6
    var elevation = Double(random.int(0...2000))
    var second = 1_780_000_000 + random.int(0...10_000_000)
    var track = GPXTrack(name: "Generated walk \(seed)", description: sparse ? nil : "synthetic <&> \"walk\"")
    for _ in 0..<segments {
      var segment = GPXSegment()
      for _ in 0..<points {
        latitude += Double(random.int(-200...200)) / 1e6
        longitude += Double(random.int(-200...200)) / 1e6
        elevation += Double(random.int(-30...30)) / 10
        second += 1
        let millis = random.int(0...999)
        var point = GPXPoint(
          latitude: (latitude * 1e7).rounded() / 1e7, longitude: (longitude * 1e7).rounded() / 1e7)
        if !sparse || random.chance(0.9) { point.elevation = (elevation * 10).rounded() / 10 }
        if !sparse || random.chance(0.9) { point.time = Double(second) + Double(millis) / 1000 }
        if !sparse || random.chance(0.8) { point.speed = Double(random.int(0...400)) / 100 }
        if !sparse || random.chance(0.8) { point.course = Double(random.int(0...3600)) / 10 }
        if !sparse || random.chance(0.8) { point.horizontalAccuracy = Double(random.int(10...650)) / 10 }
        if sparse && random.chance(0.1) { point.hdop = Double(random.int(5...50)) / 10 }
        segment.points.append(point)
      }
      track.segments.append(segment)
      second += random.int(30...600)
    }
    var document = GPXDocument(creator: "stash tests", tracks: [track])
    document.metadata = GPXMetadata(name: "Walk \(seed)", time: Double(1_780_000_000 + random.int(0...1000)))
    if random.chance(0.5) {
      document.waypoints = [
        GPXPoint(latitude: 10.5, longitude: 20.25, elevation: 3, name: "Bench", description: "a & b")
      ]
      document.routes = [
        GPXRoute(
          name: "Plan",
          points: [
            GPXPoint(latitude: 10, longitude: 20),
            GPXPoint(latitude: 10.001, longitude: 20.001, name: "turn"),
          ])
      ]
    }
    return document
  }

  /// `bytes` damaged a number of times in `times`: a byte replaced by `replacement`, one of
  /// `pieces` inserted, up to `deleting` bytes deleted, or up to `repeating` bytes repeated in
  /// place. Never empty: an emptied file becomes `<`.
  static func damage(
    _ bytes: [UInt8], _ random: inout Generator, times: ClosedRange<Int>, pieces: [[UInt8]], deleting: Int,
    repeating: Int, replacement: (inout Generator) -> UInt8
  ) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<random.int(times) {
      let at = random.int(0...bytes.count - 1)
      switch random.int(0...3) {
      case 0: bytes[at] = replacement(&random)
      case 1: bytes.insert(contentsOf: pieces[random.int(0...pieces.count - 1)], at: at)
      case 2: bytes.removeSubrange(at..<min(bytes.count, at + random.int(1...deleting)))
      default:
        let end = min(bytes.count, at + random.int(1...repeating))
        bytes.insert(contentsOf: bytes[at..<end], at: end)
      }
      if bytes.isEmpty { bytes = [0x3C] }
    }
    return bytes
  }

  /// A document with its reading-time facts (diagnostics) cleared, for comparisons.
  static func content(_ document: GPXDocument) -> GPXDocument {
    var copy = document
    copy.diagnostics = []
    return copy
  }

  /// A GPX 1.1 file of one track point per `<time>` given, in the phone's shape.
  static func file(_ body: String, namespaces: String = "") -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" \(namespaces)>
      \(body)
      </gpx>
      """.utf8)
  }

  /// The points of every track segment, in order.
  static func trackPoints(_ document: GPXDocument) -> [GPXPoint] {
    document.tracks.flatMap { $0.segments.flatMap(\.points) }
  }
}
