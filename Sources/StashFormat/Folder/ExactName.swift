#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A name compared byte for byte, as the file system compares it. `String`'s own equality is
/// canonical equivalence, which would make the NFC and NFD spellings of a base one memo.
struct ExactName: Hashable, Sendable {
  var text: String

  static func == (lhs: ExactName, rhs: ExactName) -> Bool {
    let (left, right) = (lhs.text.utf8, rhs.text.utf8)
    guard left.count == right.count else { return false }
    // The grouping compares every name with a dictionary's: memcmp over the stored bytes rather
    // than a byte-by-byte walk of two UTF-8 views.
    let compared = left.withContiguousStorageIfAvailable { a in
      right.withContiguousStorageIfAvailable { b in
        a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
      }
    }
    return (compared ?? nil) ?? left.elementsEqual(right)
  }

  func hash(into hasher: inout Hasher) {
    var copy = text
    copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
