/// Fuzzes the folder's name rules: the classification of one name, the timestamp in a base, and
/// the escaping used to print a name.
enum FolderNameFuzzTarget {
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
    // Names hold any bytes but `/` and NUL, at most 255 of them.
    guard bytes.count <= 255, !bytes.contains(0), !bytes.contains(UInt8(ascii: "/")) else { return }
    let text = String(validating: bytes, as: UTF8.self)
    let kind = FolderName.classify(text)
    switch kind {
    case .memoFile(let base, let kind):
      fuzzRequire(text != nil && !base.isEmpty, "memo file with an empty base or invalid UTF-8")
      fuzzRequire(Array((base + kind.suffix).utf8) == Array(bytes), "base + suffix is not the name")
      _ = RecordingDate.parse(base: base).map { fuzzRequire($0.isFinite, "date \($0)") }
    case .nearMiss(let intended, let base, let kind, let reason):
      fuzzRequire(!reason.isEmpty && !base.isEmpty, "near miss without a reason or base")
      fuzzRequire(
        intended.utf8.elementsEqual((base + kind.suffix).utf8), "intended \(intended) is not base + suffix")
      fuzzRequire(
        FolderName.classify(intended) == .memoFile(base: base, kind: kind),
        "intended name \(intended.debugDescription) is not a memo file name")
      fuzzRequire(!intended.utf8.elementsEqual(bytes), "a near miss whose intended name is itself")
    case .hidden:
      fuzzRequire(bytes.first == UInt8(ascii: "."), "hidden without a dot")
    case .unrecognised:
      fuzzRequire(bytes.first != UInt8(ascii: ".") || text == nil, "dot name not hidden")
    }
    if let text { _ = RecordingDate.parse(base: text).map { fuzzRequire($0.isFinite, "date \($0)") } }
    // Printing a name never lets a control character or line break through.
    let shown = PathText.escaped(PathText.decode(bytes))
    fuzzRequire(
      !shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
      "escaped name holds a control character: \(shown.debugDescription)")
  }
}
