import StashFormat
import Testing

@testable import StashSearch

/// A plain search matches the words, not the punctuation between them (issue 49 §1), in every
/// script stash folds, across cues, typed with or without the punctuation; `-E` still matches the
/// text as written. In-process.
@Suite struct SearchPunctuationTests {
  /// The matched text of each hit of `query` in `text` (as a title).
  func matched(_ query: String, in text: String, word: Bool = false, regex: Bool = false) throws -> [String] {
    let pattern = try SearchPattern(query, regex: regex, wholeWords: word, folding: SearchFolding())
    return MemoSearch.hits(pattern, title: text, document: nil).map {
      String(String.UnicodeScalarView(Array($0.text.unicodeScalars)[$0.match]))
    }
  }

  func document(_ body: String) -> WebVTTDocument { WebVTTParser.parse(Array(("WEBVTT\n\n" + body).utf8)) }

  /// Each kind of punctuation between words, in Latin with accents, Greek, Cyrillic, Japanese and
  /// Arabic: found typed without it, and typed with it; the hit is the text's own span.
  @Test func phrasesAcrossEachPunctuationKindInSeveralScripts() throws {
    let cases: [(text: String, query: String, span: String)] = [
      ("an ill-disposed young man. Unless to be", "young man unless", "young man. Unless"),
      ("a more amiable woman, he might have been", "amiable woman he might", "amiable woman, he might"),
      ("so cold-hearted a man", "cold hearted", "cold-hearted"),
      ("first; then: why? because! now", "first then why because now", "first; then: why? because! now"),
      ("he said—quietly—no", "said quietly no", "said—quietly—no"),
      ("wait… what", "wait what", "wait… what"),
      ("she said “yes” (twice) [sic]", "said yes twice sic", "said “yes” (twice) [sic"),
      ("Le café, très chaud. Merci", "cafe tres chaud merci", "café, très chaud. Merci"),
      ("Η θάλασσα, ήρεμη. Καλημέρα", "θαλασσα ηρεμη καλημερα", "θάλασσα, ήρεμη. Καλημέρα"),
      ("Мы пришли, наконец. Дома!", "пришли наконец дома", "пришли, наконец. Дома"),
      ("今日は。明日は雨、だ", "今日は明日は雨だ", "今日は。明日は雨、だ"),
      ("ذهبنا، ثم عدنا", "ذهبنا ثم", "ذهبنا، ثم"),
    ]
    #expect(!cases.isEmpty)
    for (text, query, span) in cases {
      #expect(try matched(query, in: text) == [span], "\(query) in \(text)")
      // Typed as written, the punctuation in the query is ignored the same way.
      #expect(try matched(span, in: text) == [span], "\(span) in \(text)")
    }
    // A hyphen stands between two words: "illdisposed" is another word.
    #expect(try matched("ill disposed", in: "an ill-disposed man") == ["ill-disposed"])
    #expect(try matched("ill-disposed", in: "an ill disposed man") == ["ill disposed"])
    #expect(try matched("illdisposed", in: "an ill-disposed man").isEmpty)
    // Punctuation alone is nothing to find.
    #expect(throws: SearchPattern.Problem.self) {
      try SearchPattern("...", regex: false, wholeWords: false, folding: SearchFolding())
    }
  }

  @Test func wholeWordsAndRegularExpressionsKeepTheirMeaning() throws {
    // -w: whole words, punctuation a boundary as white space is.
    #expect(try matched("ill", in: "an ill-disposed man", word: true) == ["ill"])
    #expect(try matched("dispose", in: "an ill-disposed man", word: true).isEmpty)
    #expect(try matched("man unless", in: "young man. Unless", word: true) == ["man. Unless"])
    // -E: the text as written, punctuation and all.
    #expect(try matched("man unless", in: "young man. Unless", regex: true).isEmpty)
    #expect(try matched(#"man\. unless"#, in: "young man. Unless", regex: true) == ["man. Unless"])
    #expect(try matched("cold-hearted", in: "so cold-hearted", regex: true) == ["cold-hearted"])
  }

  /// Across cues, the phrase is found at the first word's time (a word timestamp where the cue has
  /// them), its span the words and the punctuation between them.
  @Test func aPhraseAcrossCuesAndPunctuationStartsAtItsFirstWord() throws {
    let body = """
      00:01.000 --> 00:03.000
      He was an ill-disposed <00:02.400>young <00:02.700>man.

      00:03.000 --> 00:05.000
      Unless to be a more amiable woman, he might

      """
    let pattern = try SearchPattern(
      "young man unless", regex: false, wholeWords: false, folding: SearchFolding())
    let hits = MemoSearch.hits(pattern, title: nil, document: document(body))
    let hit = try #require(hits.first)
    #expect(hits.count == 1)
    #expect(hit.place == .cues(first: 0, last: 1))
    #expect(hit.start == 2.4, "\(hit)")
    #expect(
      String(String.UnicodeScalarView(Array(hit.text.unicodeScalars)[hit.match])) == "young man. Unless")
    // The browser's way (texts one after another) marks the same places.
    let places = pattern.places(in: [
      "He was an ill-disposed young man.", "Unless to be a more amiable woman, he might",
    ])
    #expect(places.count == 1 && places[0].parts.map(\.text) == [0, 1], "\(places)")
    #expect(places[0].parts[0].scalars == 23..<33 && places[0].parts[1].scalars == 0..<6)
  }

  /// The quick pass over a transcript's bytes never passes over one whose parse holds a hit: random
  /// transcripts of words joined by punctuation, against phrases typed with and without it.
  @Test func theQuickPassNeverSkipsAPhraseAcrossPunctuation() throws {
    var random = SystemRandomNumberGenerator()
    let words = ["young", "man", "Unless", "cold", "hearted", "ill", "disposed", "woman", "he"]
    let joins = [" ", ". ", ", ", "-", "—", "… ", "; ", " (", ") ", "'", "\" ", "? "]
    let queries = ["young man unless", "cold hearted", "ill-disposed", "man, he", "woman he", "he", "man"]
    var found = 0
    for _ in 0..<400 {
      var text = ""
      for _ in 0..<Int.random(in: 2...10, using: &random) {
        text += words.randomElement(using: &random)! + joins.randomElement(using: &random)!
      }
      let bytes = Array("WEBVTT\n\n00:00.000 --> 00:01.000\n\(text)\n".utf8)
      for query in queries {
        let pattern = try SearchPattern(query, regex: false, wholeWords: false, folding: SearchFolding())
        let hits = MemoSearch.hits(pattern, title: nil, document: WebVTTParser.parse(bytes))
        if !hits.isEmpty {
          found += 1
          #expect(pattern.mayMatch(bytes), "\(query) skipped in \(text.debugDescription)")
        }
      }
    }
    #expect(found > 200, "too few transcripts held a hit: \(found)")
  }
}
