import Testing

@testable import StashSearch

/// The pattern over texts shown one after another (the browser's cues): where each match is, in
/// each text it touches.
@Suite struct SearchPlacesTests {
  func places(_ query: String, _ texts: [String]) throws -> [[(Int, Range<Int>)]] {
    let pattern = try #require(SearchPattern.typed(query))
    return pattern.places(in: texts).map { $0.parts.map { ($0.text, $0.scalars) } }
  }

  func same(_ a: [[(Int, Range<Int>)]], _ b: [[(Int, Range<Int>)]]) -> Bool {
    a.elementsEqual(b) { x, y in x.elementsEqual(y) { $0.0 == $1.0 && $0.1 == $1.1 } }
  }

  @Test func aPhraseAcrossTwoAndThreeTextsIsOneMatchInEach() throws {
    let texts = ["on the cupboard door.", "Measure the door", "first. Then the shelf."]
    // "door." ends the first text; the space that joins them is in neither.
    #expect(try same(places("door. measure", texts), [[(0, 16..<21), (1, 0..<7)]]))
    #expect(try same(places("door first. then", texts), [[(1, 12..<16), (2, 0..<11)]]))
    #expect(
      try same(places("door. measure the door first", texts), [[(0, 16..<21), (1, 0..<16), (2, 0..<5)]]))
    #expect(try same(places("door", texts), [[(0, 16..<20)], [(1, 12..<16)]]))
    #expect(try same(places("shelves", texts), []))
  }

  @Test func placesAreInScalarsOfTheTextsAsGiven() throws {
    // Folded for case and accents, NFD and NFC alike (the accent after the last letter is part
    // of its character); ß is two letters folded.
    let texts = ["Le Cafe\u{301} du coin", "Die STRASSE", "Die Straße"]
    #expect(try same(places("café", texts), [[(0, 3..<8)]]))
    #expect(try same(places("strasse", texts), [[(1, 4..<11)], [(2, 4..<10)]]))
    #expect(try same(places("coin die", texts), [[(0, 12..<16), (1, 0..<3)]]))
    // White space runs are one space, in the texts and across them.
    #expect(try same(places("du coin", ["du  coin"]), [[(0, 0..<8)]]))
  }

  @Test func nothingToFindFindsNothing() throws {
    #expect(SearchPattern.typed("   ") == nil)
    #expect(try same(places("door", []), []))
    let pattern = try #require(SearchPattern.typed("door"))
    #expect(pattern.isFound(in: "The DOOR"))
    #expect(!pattern.isFound(in: "The floor"))
  }

  /// The quick answer for plain ASCII names is the fold's answer, and it leaves to the fold what
  /// it cannot decide (white space the fold would change, bytes above ASCII).
  @Test func theQuickASCIIAnswerIsTheFoldsAnswer() throws {
    var random = SystemRandomNumberGenerator()
    let alphabet = Array("aAbBcC zZ-1\t\u{E9}ß".unicodeScalars)
    var decided = 0
    for _ in 0..<3000 {
      let text = String(
        String.UnicodeScalarView(
          (0..<Int.random(in: 0...12, using: &random)).map { _ in
            alphabet.randomElement(using: &random)!
          }))
      let query = String(
        String.UnicodeScalarView(
          (0..<Int.random(in: 1...3, using: &random)).map { _ in
            alphabet.randomElement(using: &random)!
          }))
      for caseSensitive in [false, true] {
        guard
          let pattern = try? SearchPattern(
            query, regex: false, wholeWords: false, folding: SearchFolding(caseSensitive: caseSensitive))
        else { continue }
        var folding = pattern.folding
        let folded = !pattern.matches(in: folding.fold(text)).isEmpty
        #expect(pattern.isFound(in: text) == folded, "\(query) in \(text)")
        guard case .words(let needle) = pattern.kind else { continue }
        let quick = text.utf8.withContiguousStorageIfAvailable {
          SearchPattern.find(
            needle, inASCII: $0, foldingCase: !caseSensitive,
            droppingPunctuation: pattern.folding.dropsPunctuation)
        }
        if let quick, let quick {
          decided += 1
          #expect(quick == folded, "\(query) in \(text)")
        }
      }
    }
    #expect(decided > 1000, "the quick answer decided only \(decided)")
  }

  @Test func aMatchOfOnlyAJoiningSpaceIsNowhere() throws {
    let pattern = try SearchPattern("t a", regex: true, wholeWords: false, folding: SearchFolding())
    #expect(pattern.places(in: ["cat", "at"]).map { $0.parts.map(\.text) } == [[0, 1]])
    let space = try SearchPattern(" ", regex: true, wholeWords: false, folding: SearchFolding())
    #expect(space.places(in: ["cat", "at"]).isEmpty)
  }
}
