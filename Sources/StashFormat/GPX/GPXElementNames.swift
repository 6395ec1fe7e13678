#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Recognises the few namespaces and local names the reader acts on, comparing bytes in place (no
/// String is made on the hot path).
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

  /// Up to the first eight bytes of a name packed into one integer; exact for names that short.
  /// Inlined with a literal, it folds to a constant: the comparisons below cost no loads.
  @inline(__always) private static func key(_ text: StaticString) -> UInt64 {
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

  /// Which of the namespaces acted on the `count` bytes at `uri` name (not empty): each has a
  /// fixed length, so the length decides which one to compare.
  @inline(__always) static func namespace(_ uri: UnsafeRawPointer, _ count: Int) -> GPXNamespace.Known {
    switch count {
    case 33:
      guard memcmp(uri, topografix.utf8Start, 32) == 0 else { return .other }
      switch uri.load(fromByteOffset: 32, as: UInt8.self) {
      case UInt8(ascii: "1"): return .gpx11
      case UInt8(ascii: "0"): return .gpx10
      default: return .other
      }
    case 55:
      let version = uri.load(fromByteOffset: 54, as: UInt8.self)
      guard version == UInt8(ascii: "2") || version == UInt8(ascii: "1"),
        memcmp(uri, garmin.utf8Start, 54) == 0
      else { return .other }
      return .trackPointExtension
    case 15:
      return memcmp(uri, stash.utf8Start, 15) == 0 ? .stash : .other
    default:
      return .other
    }
  }

  /// The local name of the `count` bytes at `bytes`.
  @inline(__always) static func local(_ bytes: UnsafeRawPointer, _ count: Int) -> Local {
    if count > 8 {
      if count == 18, memcmp(bytes, Self.horizontalAccuracy.utf8Start, 18) == 0 {
        return .horizontalAccuracy
      }
      return .other
    }
    let k = Self.key(bytes, count)
    switch count {
    case 3:
      if k == Self.key("ele") { return .ele }
      if k == Self.key("trk") { return .trk }
      if k == Self.key("gpx") { return .gpx }
      if k == Self.key("rte") { return .rte }
      if k == Self.key("wpt") { return .wpt }
    case 4:
      if k == Self.key("time") { return .time }
      if k == Self.key("name") { return .name }
      if k == Self.key("desc") { return .desc }
      if k == Self.key("hdop") { return .hdop }
      if k == Self.key("type") { return .type }
    case 5:
      if k == Self.key("trkpt") { return .trkpt }
      if k == Self.key("speed") { return .speed }
      if k == Self.key("rtept") { return .rtept }
    case 6:
      if k == Self.key("course") { return .course }
      if k == Self.key("trkseg") { return .trkseg }
      if k == Self.key("bounds") { return .bounds }
    case 8:
      if k == Self.key("metadata") { return .metadata }
    default: break
    }
    return .other
  }
}
