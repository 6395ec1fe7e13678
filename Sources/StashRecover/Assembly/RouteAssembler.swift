import StashFormat

/// Joins route parts into one GPX 1.1 track. Each part is a whole GPX document; the parts' points
/// continue one segment, and a new segment starts wherever parts are missing or unreadable, or a
/// part was torn before its end, so a partial route cannot be read as a whole one. A torn part
/// gives every point that closed before the tear.
public enum RouteAssembler {
  /// Assembles `parts` (ascending by number).
  public static func assemble(_ parts: [Part]) -> Assembly {
    var segments: [GPXSegment] = []
    var waypoints: [GPXPoint] = []
    var routes: [GPXRoute] = []
    var gaps: [Gap] = []
    var damage: [(number: Int, reason: String)] = []
    var metadata = GPXMetadata()
    var trackName: String?
    var creator: String?
    var expected = 1
    var missing: [Int] = []
    var breakBefore = false
    var lastTime: Double?
    var haveRead = false
    var lastNumber = 0

    let documents = parts.map { GPXReader.read($0.bytes) }
    for (part, document) in zip(parts, documents) {
      missing += Array(expected..<part.number)
      expected = part.number + 1
      let points = document.tracks.flatMap { $0.segments.flatMap(\.points) }
      if document.isDamaged {
        let error = document.diagnostics.first { $0.severity == .error }
        let reason =
          points.isEmpty && document.waypoints.isEmpty
          ? "not a readable GPX file" : "torn: \(points.count) points read before the damage"
        damage.append(
          (part.number, reason + (error.map { " (\(position($0.location))\($0.message))" } ?? "")))
        if points.isEmpty {
          missing.append(part.number)
          continue
        }
      }
      if !missing.isEmpty || (breakBefore && haveRead) {
        let next = points.first?.time
        let torn = breakBefore && haveRead ? [lastNumber] : []
        gaps.append(Gap(start: lastTime ?? next ?? 0, end: next ?? lastTime ?? 0, parts: torn + missing))
        breakBefore = true
      }
      missing = []
      if !haveRead {
        metadata = document.metadata
        creator = document.creator
        trackName = document.tracks.first?.name
      }
      for (trackIndex, track) in document.tracks.enumerated() {
        for (segmentIndex, segment) in track.segments.enumerated() where !segment.points.isEmpty {
          let continues =
            haveRead && !breakBefore && trackIndex == 0 && segmentIndex == 0 && !segments.isEmpty
          if continues {
            segments[segments.count - 1].points += segment.points
          } else {
            segments.append(segment)
          }
          breakBefore = false
          haveRead = true
        }
      }
      waypoints += document.waypoints
      routes += document.routes
      lastTime = points.last(where: { $0.time != nil })?.time ?? lastTime
      // A torn part lost its end: whatever comes next starts a new segment.
      breakBefore = document.isDamaged
      lastNumber = part.number
    }
    var document = GPXDocument(
      creator: creator, metadata: metadata, tracks: [GPXTrack(name: trackName, segments: segments)],
      routes: routes, waypoints: waypoints)
    if segments.isEmpty { document.tracks = [] }
    let runsFromOne = parts.map(\.number) == Array(1...max(1, parts.count)) && !parts.isEmpty
    return Assembly(
      bytes: GPXWriter.bytes(document), unbroken: runsFromOne && damage.isEmpty, gaps: gaps,
      items: segments.reduce(0) { $0 + $1.points.count }, segments: segments.count, damage: damage)
  }

  /// `damaged at line N, column C: ` where the reader knows the place (libexpat gives both), so a
  /// person can open the part at the damage; empty when it does not.
  static func position(_ location: SourceLocation) -> String {
    guard let line = location.line else { return "" }
    return "damaged at line \(line)" + (location.column.map { ", column \($0)" } ?? "") + ": "
  }

  /// Each track point of `document` as position and time, for telling which points a file holds.
  private static func keys(_ document: GPXDocument) -> [String] {
    document.tracks.flatMap { $0.segments.flatMap(\.points) }.map {
      "\($0.latitude),\($0.longitude),\($0.time ?? -1)"
    }
  }

  /// True when `finished` and every part read cleanly and `finished` holds every track point of
  /// the parts (same position and time).
  public static func finished(_ finished: [UInt8], holdsAllOf parts: [Part]) -> Bool {
    let document = GPXReader.read(finished)
    guard !document.isDamaged else { return false }
    let held = Set(keys(document))
    return parts.allSatisfy { part in
      let read = GPXReader.read(part.bytes)
      return !read.isDamaged && keys(read).allSatisfy(held.contains)
    }
  }

  /// True when `finished` reads cleanly and holds every track point (position and time) that
  /// assembling `parts` gives, the points closed before a tear included.
  public static func finished(_ finished: [UInt8], holdsAllReadableOf parts: [Part]) -> Bool {
    let document = GPXReader.read(finished)
    guard !document.isDamaged else { return false }
    let held = Set(keys(document))
    return keys(GPXReader.read(assemble(parts).bytes)).allSatisfy(held.contains)
  }
}
