#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Byte order, as `lexicographicallyPrecedes` gives it, by `memcmp`: for names sorted by the
/// hundred thousand.
package enum ByteOrder {
  /// Whether `a` sorts before `b`, byte by byte (a prefix before what it begins).
  package static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    let common = min(a.count, b.count)
    let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
    return order != 0 ? order < 0 : a.count < b.count
  }
}
