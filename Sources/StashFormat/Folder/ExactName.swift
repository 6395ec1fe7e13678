/// A name compared byte for byte, as the file system compares it. `String`'s own equality is
/// canonical equivalence, which would make the NFC and NFD spellings of a base one memo.
struct ExactName: Hashable, Sendable {
  var text: String

  static func == (lhs: ExactName, rhs: ExactName) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

  func hash(into hasher: inout Hasher) {
    var copy = text
    copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}
