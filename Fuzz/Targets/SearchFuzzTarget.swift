/// Fuzzes the search of one transcript: the input is a pattern (up to the first NUL, at most 64
/// bytes) and a transcript's bytes (the rest). The quick pass that skips a transcript without
/// parsing it (`SearchPattern.mayMatch`) never skips one the parse finds a match in, so the hits
/// are the same with and without it; and each hit's range lies in its text.
enum SearchFuzzTarget {
  static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
    let split = bytes.prefix(65).firstIndex(of: 0) ?? min(bytes.count, 8)
    let query = String(decoding: bytes[..<split], as: UTF8.self)
    let transcript = Array(bytes[min(bytes.count, split + 1)...])
    for folding in [
      SearchFolding(), SearchFolding(caseSensitive: true),
      SearchFolding(caseSensitive: true, keepAccents: true),
    ] {
      for wholeWords in [false, true] {
        guard let pattern = try? SearchPattern(query, regex: false, wholeWords: wholeWords, folding: folding)
        else { continue }
        let quick = MemoSearch.hits(pattern, title: nil, transcript: transcript).hits
        let whole = MemoSearch.hits(pattern, title: nil, document: WebVTTParser.parse(transcript))
        fuzzRequire(
          quick == whole, "the quick pass changed the hits for '\(query)': \(quick.count) of \(whole.count)")
        for hit in whole {
          let count = hit.text.unicodeScalars.count
          fuzzRequire(
            hit.match.lowerBound >= 0 && hit.match.upperBound <= count && !hit.match.isEmpty,
            "match \(hit.match) in a text of \(count) scalars")
        }
      }
    }
  }
}
