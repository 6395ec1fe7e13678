#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Splits expat's `namespace<U+0001>local` element names and recognises the few the reader acts
/// on, comparing bytes in place (no String is made on the hot path).
struct GPXElementNames {
  /// A local name the reader acts on; `other` for everything else.
  enum Local: UInt8 {
    case other, gpx, metadata, name, desc, time, bounds, trk, trkseg, trkpt, rte, rtept, wpt, ele
    case speed, course, hdop, type, horizontalAccuracy
  }

  private static let topografix: StaticString = "http://www.topografix.com/GPX/1/"
  private static let garmin: StaticString = "http://www.garmin.com/xmlschemas/TrackPointExtension/v"
  private static let stash: StaticString = "urn:stash:gpx:1"
  private static let horizontalAccuracy: StaticString = "horizontalAccuracy"

  private let gpx = key("gpx")
  private let trk = key("trk")
  private let rte = key("rte")
  private let wpt = key("wpt")
  private let ele = key("ele")
  private let name = key("name")
  private let desc = key("desc")
  private let time = key("time")
  private let hdop = key("hdop")
  private let type = key("type")
  private let trkpt = key("trkpt")
  private let rtept = key("rtept")
  private let speed = key("speed")
  private let bounds = key("bounds")
  private let trkseg = key("trkseg")
  private let course = key("course")
  private let metadata = key("metadata")

  /// Up to the first eight bytes of a name packed into one integer; exact for names that short.
  private static func key(_ text: StaticString) -> UInt64 {
    key(UnsafeRawPointer(text.utf8Start), min(text.utf8CodeUnitCount, 8))
  }

  @inline(__always) private static func key(_ bytes: UnsafeRawPointer, _ count: Int) -> UInt64 {
    var value: UInt64 = 0
    var i = 0
    while i < count {
      value |= UInt64(bytes.load(fromByteOffset: i, as: UInt8.self)) << (8 * i)
      i += 1
    }
    return value
  }

  /// The namespace and local name of an expat element name.
  @inline(__always) func classify(_ name: UnsafePointer<CChar>) -> (GPXNamespace.Known, Local) {
    // strchr and strlen are vectorised and never read past the terminator.
    guard let found = strchr(name, 1) else {
      return (.none, local(UnsafeRawPointer(name), strlen(name)))
    }
    let raw = UnsafeRawPointer(name)
    let separator = UnsafePointer(found) - name
    let localStart = UnsafePointer(found) + 1
    let space: GPXNamespace.Known
    switch separator {
    case 33 where memcmp(raw, Self.topografix.utf8Start, 32) == 0:
      switch raw.load(fromByteOffset: 32, as: UInt8.self) {
      case UInt8(ascii: "1"): space = .gpx11
      case UInt8(ascii: "0"): space = .gpx10
      default: space = .other
      }
    case 55 where memcmp(raw, Self.garmin.utf8Start, 54) == 0:
      let version = raw.load(fromByteOffset: 54, as: UInt8.self)
      space = version == UInt8(ascii: "2") || version == UInt8(ascii: "1") ? .trackPointExtension : .other
    case 15 where memcmp(raw, Self.stash.utf8Start, 15) == 0:
      space = .stash
    default:
      space = .other
    }
    if space == .other { return (.other, .other) }
    return (space, local(UnsafeRawPointer(localStart), strlen(localStart)))
  }

  @inline(__always) private func local(_ bytes: UnsafeRawPointer, _ count: Int) -> Local {
    if count > 8 {
      if count == 18, memcmp(bytes, Self.horizontalAccuracy.utf8Start, 18) == 0 {
        return .horizontalAccuracy
      }
      return .other
    }
    let k = Self.key(bytes, count)
    switch count {
    case 3:
      if k == ele { return .ele }
      if k == trk { return .trk }
      if k == gpx { return .gpx }
      if k == rte { return .rte }
      if k == wpt { return .wpt }
    case 4:
      if k == time { return .time }
      if k == name { return .name }
      if k == desc { return .desc }
      if k == hdop { return .hdop }
      if k == type { return .type }
    case 5:
      if k == trkpt { return .trkpt }
      if k == speed { return .speed }
      if k == rtept { return .rtept }
    case 6:
      if k == course { return .course }
      if k == trkseg { return .trkseg }
      if k == bounds { return .bounds }
    case 8:
      if k == metadata { return .metadata }
    default: break
    }
    return .other
  }
}
