import Foundation
import StashFormat
import StashTestSupport
import Testing

@testable import StashSearch

/// Inputs the search fuzzer found (SyntheticFixtures/regressions/search/): a pattern, a NUL, then a
/// transcript's bytes. Each is searched again under the invariant its target checks: the quick pass
/// that skips a transcript without parsing it gives the same hits as the parse (a piece longer than
/// the scan's step once crashed it), and every match lies in its text.
@Suite struct SearchRegressionTests {
  static let inputs: [String] = {
    let folder = Fixtures.folder("regressions").appendingPathComponent("search").path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.sorted().map { folder + "/" + $0 }
  }()

  /// The parameterised test below would pass with no inputs at all.
  @Test func thereAreInputs() { #expect(Self.inputs.count >= 4) }

  @Test(arguments: inputs)
  func quickPassKeepsTheHits(path: String) throws {
    let bytes = try ReadOnlyFile.contents(of: path)
    let split = try #require(bytes.prefix(65).firstIndex(of: 0), "no NUL after the pattern")
    let query = String(decoding: bytes[..<split], as: UTF8.self)
    let transcript = Array(bytes[(split + 1)...])
    for folding in [
      SearchFolding(), SearchFolding(caseSensitive: true),
      SearchFolding(caseSensitive: true, keepAccents: true),
    ] {
      for wholeWords in [false, true] {
        let pattern = try SearchPattern(query, regex: false, wholeWords: wholeWords, folding: folding)
        let quick = MemoSearch.hits(pattern, title: nil, transcript: transcript).hits
        let whole = MemoSearch.hits(pattern, title: nil, document: WebVTTParser.parse(transcript))
        #expect(quick == whole, "\(query.debugDescription) folding \(folding) words \(wholeWords)")
        for hit in whole {
          #expect(hit.match.lowerBound >= 0 && hit.match.upperBound <= hit.text.unicodeScalars.count)
        }
      }
    }
  }
}
