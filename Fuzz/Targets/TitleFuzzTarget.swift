/// Fuzzes the title reader: what it shows is one bounded line, and reading from a file agrees with
/// parsing the bytes.
enum TitleFuzzTarget {
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
    let input = Array(bytes)
    let title = Title.parse(input)
    if let display = title.displayText {
      fuzzRequire(!display.isEmpty, "empty display text")
      fuzzRequire(
        !display.unicodeScalars.contains(where: Text.isLineBreak),
        "display text spans lines: \(display.debugDescription)")
      // Shown escaped, it holds no control character at all.
      fuzzRequire(
        !PathText.escaped(display).unicodeScalars.contains {
          $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
        },
        "escaped display text holds a control character")
      fuzzRequire(display.count <= Title.maximumCharacters + 1, "display text of \(display.count) characters")
    }
    if let count = title.byteCount {
      fuzzRequire(count == input.count, "byteCount \(count) of \(input.count)")
    }
    for problem in title.problems {
      if let offset = problem.location.offset {
        fuzzRequire(offset >= 0 && offset <= input.count, "offset \(offset)")
      }
    }
    FuzzScratch.write(bytes)
    let read = Title.read(path: FuzzScratch.path)
    if input.count <= Title.maximumBytes {
      fuzzRequire(read == title, "read(path) differs from parse(bytes)")
    } else {
      fuzzRequire(read.byteCount == input.count, "read(path) byteCount \(String(describing: read.byteCount))")
    }
  }
}
