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

  /// The namespace and local name of an expat element name.
  @inline(__always) func classify(_ name: UnsafePointer<CChar>) -> (GPXNamespace.Known, Local) {
    let raw = UnsafeRawPointer(name)
    // strlen is vectorised and never reads past the terminator; every index read is below it.
    let length = strlen(name)
    // A namespace name cannot hold U+0001, so the one separator is at the URI's length: the
    // namespaces acted on have fixed lengths, and their separator is looked for there first.
    let separator: Int
    let space: GPXNamespace.Known
    if length > 33, raw.load(fromByteOffset: 33, as: UInt8.self) == 1 {
      separator = 33
      if memcmp(raw, Self.topografix.utf8Start, 32) != 0 { return (.other, .other) }
      switch raw.load(fromByteOffset: 32, as: UInt8.self) {
      case UInt8(ascii: "1"): space = .gpx11
      case UInt8(ascii: "0"): space = .gpx10
      default: return (.other, .other)
      }
    } else if length > 55, raw.load(fromByteOffset: 55, as: UInt8.self) == 1 {
      separator = 55
      let version = raw.load(fromByteOffset: 54, as: UInt8.self)
      guard version == UInt8(ascii: "2") || version == UInt8(ascii: "1"),
        memcmp(raw, Self.garmin.utf8Start, 54) == 0
      else { return (.other, .other) }
      space = .trackPointExtension
    } else if length > 15, raw.load(fromByteOffset: 15, as: UInt8.self) == 1 {
      separator = 15
      if memcmp(raw, Self.stash.utf8Start, 15) != 0 { return (.other, .other) }
      space = .stash
    } else {
      // Another namespace, or none at all (a GPX file without xmlns).
      return memchr(raw, 1, length) == nil ? (.none, local(raw, length)) : (.other, .other)
    }
    return (space, local(raw + separator + 1, length - separator - 1))
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
