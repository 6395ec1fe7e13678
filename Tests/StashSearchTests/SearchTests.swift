import StashFormat
import Testing

@testable import StashSearch

/// Folding, matching and the spoken text, in-process.
@Suite struct SearchFoldingTests {
  /// The ranges (in scalars of `text`) where `pattern` is found, searched as a title.
  func found(
    _ pattern: String, in text: String, caseSensitive: Bool = false, exact: Bool = false, word: Bool = false,
    regex: Bool = false
  ) throws -> [Range<Int>] {
    let folding = SearchFolding(caseSensitive: caseSensitive || exact, keepAccents: exact)
    let compiled = try SearchPattern(pattern, regex: regex, wholeWords: word, folding: folding)
    return MemoSearch.hits(compiled, title: text, document: nil).map(\.match)
  }

  @Test func accentsAndCaseFoldByDefault() throws {
    #expect(try found("cafe", in: "Le Café du coin") == [3..<7])
    #expect(try found("CAFÉ", in: "le cafe") == [3..<7])
    #expect(try found("cafe", in: "Le Café", exact: true).isEmpty)
    #expect(try found("Café", in: "Le Café", exact: true) == [3..<7])
    #expect(try found("café", in: "LE CAFÉ", caseSensitive: true).isEmpty)
    #expect(try found("CAFE", in: "LE CAFÉ", caseSensitive: true) == [3..<7])
  }

  @Test func canonicalSpellingsAreOne() throws {
    let composed = "r\u{E9}sum\u{E9}"
    let decomposed = "re\u{301}sume\u{301}"
    #expect(try found(composed, in: "my \(decomposed) here", exact: true) == [3..<11])
    #expect(try found(decomposed, in: "my \(composed) here", exact: true) == [3..<9])
  }

  /// A match never ends inside a character: `--exact cafe` does not find `café` written with a
  /// combining accent (it once did), nor does a lone accent find anything; a folded match takes
  /// in the accents after its last letter.
  @Test func aMatchHoldsWholeCharacters() throws {
    let decomposed = "le cafe\u{301} noir"
    #expect(try found("cafe", in: decomposed, exact: true).isEmpty)
    #expect(try found("cafe", in: "le caf\u{E9} noir", exact: true).isEmpty)
    #expect(try found("\u{301}", in: decomposed, exact: true).isEmpty)
    #expect(try found("cafe\u{301}", in: decomposed, exact: true) == [3..<8])
    #expect(try found("cafe", in: decomposed) == [3..<8])
    #expect(try found("caf", in: decomposed, regex: true) == [3..<6])
    #expect(try found("cafe", in: decomposed, regex: true) == [3..<8])
  }

  @Test func fullCaseFoldingAndTheDotlessI() throws {
    #expect(try found("STRASSE", in: "Die Straße") == [4..<10])
    #expect(try found("straße", in: "DIE STRASSE") == [4..<11])
    // Locale-independent: I folds to i, İ to i (its dot is an accent), dotless ı stays itself.
    #expect(try found("istanbul", in: "İstanbul") == [0..<8])
    #expect(try found("ISTANBUL", in: "istanbul") == [0..<8])
    #expect(try found("ıstanbul", in: "istanbul").isEmpty)
  }

  @Test func hebrewJapaneseAndEmoji() throws {
    // Niqqud are points on the letters: a search without them finds the pointed word.
    #expect(try found("שלום", in: "אמרתי שָׁלוֹם לכולם") == [6..<13])
    // Japanese voicing marks change the letter: か does not find が.
    #expect(try found("かき", in: "がき").isEmpty)
    #expect(try found("がき", in: "ひらがき") == [2..<4])
    #expect(try found("猫の名前", in: "猫の名前を考える") == [0..<4])
    #expect(try found("🌱 garden", in: "My 🌱 Garden plan 🌻") == [3..<11])
  }

  @Test func wholeWordsAndWhiteSpace() throws {
    #expect(try found("river", in: "the riverbank by the river", word: true) == [21..<26])
    #expect(try found("river", in: "the riverbank").count == 1)
    #expect(try found("the   river", in: "by the\triver") == [3..<12])
  }

  @Test func regularExpressionsOverTheFoldedText() throws {
    #expect(try found("caf[eé]s?", in: "Deux CAFÉS", regex: true) == [5..<10])
    #expect(try found(#"\bbr\w+"#, in: "over the Bridge", regex: true) == [9..<15])
    // Letters beyond ASCII are folded in the pattern as in the text: ß is ss, Σ is σ.
    #expect(try found("straße", in: "DIE STRASSE", regex: true) == [4..<11])
    #expect(try found("stra(ß|x)e", in: "die Straße", regex: true) == [4..<10])
    #expect(try found("ΣΟΦΙΑ", in: "σοφια", regex: true) == [0..<5])
    #expect(try found("straße", in: "DIE STRASSE", caseSensitive: true, regex: true).isEmpty)
    #expect(throws: SearchPattern.Problem.self) { try found("(unclosed", in: "x", regex: true) }
    #expect(throws: SearchPattern.Problem.self) { try found("   ", in: "x") }
  }
}

@Suite struct SpokenTextTests {
  func document(_ body: String) -> WebVTTDocument { WebVTTParser.parse(Array(("WEBVTT\n\n" + body).utf8)) }
  func hits(_ pattern: String, _ body: String) throws -> [SearchHit] {
    MemoSearch.hits(
      try SearchPattern(pattern, regex: false, wholeWords: false, folding: SearchFolding()), title: nil,
      document: document(body))
  }

  /// A regular expression's match that starts on the space joining two cues (`\sc`, or the space
  /// alone) lies inside the text shown with it, at the time of the words it holds. It once lay
  /// one scalar before that text, and `stash search` crashed printing it.
  @Test func aMatchStartingBetweenCuesLiesInItsText() throws {
    let body = "00:01.000 --> 00:02.000\nab\n\n00:03.000 --> 00:04.000\ncd\n\n"
    for (pattern, matched, start) in [
      (#"\sc"#, " c", 3.0), (" ", " ", 3.0), (#"b\s"#, "b ", 1.0), (".", "a", 1.0),
    ] {
      let found = MemoSearch.hits(
        try SearchPattern(pattern, regex: true, wholeWords: false, folding: SearchFolding()), title: nil,
        document: document(body))
      let hit = try #require(found.first, "\(pattern)")
      let scalars = Array(hit.text.unicodeScalars)
      #expect(hit.match.lowerBound >= 0 && hit.match.upperBound <= scalars.count, "\(pattern): \(hit)")
      #expect(String(String.UnicodeScalarView(scalars[hit.match])) == matched, "\(pattern): \(hit)")
      #expect(hit.start == start, "\(pattern): \(hit)")
    }
  }

  @Test func aPhraseAcrossTwoAndThreeCuesIsFoundAtTheFirstCuesTime() throws {
    let body = """
      00:01.000 --> 00:02.000
      we walked to the

      00:02.500 --> 00:03.000
      old

      00:03.500 --> 00:05.000
      bridge by the river

      """
    let two = try hits("the old", body)
    #expect(two.count == 1)
    #expect(two.first?.place == .cues(first: 0, last: 1))
    #expect(two.first?.start == 1.0 && two.first?.cueEnd == 3.0)
    #expect(two.first?.text == "we walked to the old")
    #expect(two.first.map { Array($0.text.unicodeScalars)[$0.match].map(String.init).joined() } == "the old")
    let three = try hits("to the old bridge", body)
    #expect(three.first?.place == .cues(first: 0, last: 2))
    #expect(try hits("river", body).first?.start == 3.5)
  }

  /// White space in a cue's text is a space in the spoken text, one for one (so offsets hold),
  /// in text that is all ASCII (appended whole) and in text that is not (scalar by scalar).
  @Test func whiteSpaceInACueIsASpaceOneForOne() {
    for (line, spoken) in [
      ("we\twalked to\u{0B}the", "we walked to the"), ("caf\u{E9}\tby\u{0C}the", "café by the"),
    ] {
      let text = SpokenText(document("00:01.000 --> 00:02.000\n\(line)\nold  bridge\n")).text
      #expect(text == spoken + " old  bridge", "\(line.debugDescription)")
    }
  }

  @Test func markupTimestampsAndReferencesAreNotText() throws {
    let body = """
      00:00.000 --> 00:04.000 align:start
      <v Speaker>So <00:00:00.400>the <i>path</i> <00:00:01.100>goes &amp; turns</v>

      """
    let found = try hits("path goes & turns", body)
    #expect(found.count == 1)
    // The words start at the timestamp before "the path"… the match starts at "path", whose run
    // began at 0.4.
    #expect(found.first?.start == 0.4)
    #expect(try hits("speaker", body).isEmpty && hits("00:00", body).isEmpty && hits("align", body).isEmpty)
    #expect(try hits("amp", body).isEmpty)
    #expect(try hits("goes", body).first?.start == 1.1)
  }

  @Test func aTitleHitIsATitle() throws {
    let pattern = try SearchPattern("plan", regex: false, wholeWords: false, folding: SearchFolding())
    let found = MemoSearch.hits(
      pattern, title: "Garden plan", document: document("00:00.000 --> 00:01.000\nthe plan\n"))
    #expect(found.map(\.place) == [.title, .cues(first: 0, last: 0)])
    #expect(found.first?.start == nil)
  }
}

/// The pass that skips a transcript without parsing it never skips one that holds a match.
@Suite struct SearchPrefilterTests {
  func pattern(_ text: String, caseSensitive: Bool = false) throws -> SearchPattern {
    try SearchPattern(
      text, regex: false, wholeWords: false, folding: SearchFolding(caseSensitive: caseSensitive))
  }

  @Test func itSkipsOnlyWhatCannotMatch() throws {
    let plain = Array("WEBVTT\n\n00:00.000 --> 00:01.000\nthe Old bridge\n".utf8)
    #expect(try pattern("old bridge").mayMatch(plain))
    #expect(try !pattern("zebra").mayMatch(plain))
    #expect(try !pattern("old", caseSensitive: true).mayMatch(plain))
    // A tag inside a word: the word is whole once the tags are gone.
    #expect(try pattern("bridge").mayMatch(Array("WEBVTT\n\n00:00.000 --> 00:01.000\nbri<b>dge</b>\n".utf8)))
    func cue(_ text: String) -> [UInt8] { Array("WEBVTT\n\n00:00.000 --> 00:01.000\n\(text)\n".utf8) }
    // Runs of tags inside a word, and ruby text (left out, so what is around it joins).
    #expect(try pattern("mill").mayMatch(cue("mi</c><00:00:00.500><c.x>ll")))
    #expect(try pattern("mill").mayMatch(cue("mi<rt> </rt>ll")))
    #expect(try pattern("mill").mayMatch(cue("<ruby>mi<rt>zz</rt></ruby>ll")))
    // Tags between words: no word is made of two.
    #expect(try !pattern("mill").mayMatch(cue("mi</c> <c.x>ll <i>m</i>")))
    // A reference to a letter or a byte above ASCII: not decided here, so parsed.
    #expect(try pattern("café").mayMatch(Array("WEBVTT\n\n00:00.000 --> 00:01.000\ncaf&eacute;\n".utf8)))
    // A reference to ASCII punctuation is decoded and decided.
    let amp = Array("WEBVTT\n\n00:00.000 --> 00:01.000\nsalt &amp; pepper&nbsp;mill\n".utf8)
    #expect(try pattern("salt & pepper mill").mayMatch(amp))
    #expect(try !pattern("zebra").mayMatch(amp))
    #expect(try !pattern("amp").mayMatch(amp))
    #expect(try pattern("zebra").mayMatch(Array("WEBVTT\n\n00:00.000 --> 00:01.000\ncafé\n".utf8)))
    // A file whose last line has no line break (the scan's output is then a byte longer).
    #expect(try pattern("bridge").mayMatch(Array("WEBVTT\n\n00:00.000 --> 00:01.000\nthe bridge".utf8)))
    #expect(
      try pattern("a b").mayMatch(
        Array("WEBVTT\n\n1\n00:00.000 --> 00:01.000\na\n\n00:01.000 --> 00:02.000\nb".utf8)))
    // A pattern that folds to more than ASCII cannot be in an ASCII file.
    #expect(try !pattern("猫").mayMatch(plain))
    // Whatever it says, a skipped file gives no hit when parsed.
    let marks = Array("WEBVTT\n\n00:00.000 --> 00:01.000\nsalt &amp; pepper&nbsp;mill&lrm;x\n".utf8)
    for word in ["salt & pepper", "pepper mill", "amp", "nbsp", "millx", "mill", "x"] {
      let compiled = try pattern(word)
      let hits = MemoSearch.hits(compiled, title: nil, document: WebVTTParser.parse(marks))
      #expect(compiled.mayMatch(marks) || hits.isEmpty, "\(word)")
      #expect(!hits.isEmpty || word == "amp" || word == "nbsp" || word == "millx", "\(word) is in the text")
    }
    for word in ["the", "old", "bridge", "zebra", "00:00", "webvtt"] {
      let compiled = try pattern(word)
      let hits = MemoSearch.hits(compiled, title: nil, document: WebVTTParser.parse(plain))
      #expect(compiled.mayMatch(plain) || hits.isEmpty, "\(word)")
    }
  }
}

/// The prefilter against the parse, over generated transcripts with the markup the phone and other
/// writers use: it may say "may match" too often, never "cannot match" for a pattern the parse
/// finds. Every phrase drawn from a transcript's spoken text (across cues too) is tried.
@Suite struct SearchPrefilterAgreementTests {
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state
    }
  }

  @Test func neverSkipsWhatTheParseFinds() throws {
    var random = Generator(state: 20_261_204)
    let words = ["the", "Old", "bridge", "river", "MILL", "walk", "bread", "a", "to", "café"]
    let wrap: [(String, String)] = [
      ("", ""), ("<i>", "</i>"), ("<b>", "</b>"), ("<v Anna>", "</v>"), ("<c.unconfirmed>", "</c>"),
      ("<00:00:01.500>", ""), ("&amp;", ""), ("&nbsp;", ""), ("&lt;", ""), ("caf&eacute;", ""),
      ("<ruby>", "<rt> x </rt></ruby>"), ("<b>", "</b><00:00:02.000><i>"),
    ]
    var tried = 0
    var decided = 0
    for _ in 0..<300 {
      let newline = Int.random(in: 0..<4, using: &random) == 0 ? "\r\n" : "\n"
      var text = "WEBVTT" + newline + newline
      if Bool.random(using: &random) { text += "NOTE a note" + newline + newline }
      for cue in 0..<Int.random(in: 1...6, using: &random) {
        if Bool.random(using: &random) { text += "\(cue + 1)" + newline }
        text +=
          "00:00:0\(cue).000 --> 00:00:0\(cue).900" + (Bool.random(using: &random) ? " align:start" : "")
          + newline
        for line in 0..<Int.random(in: 1...2, using: &random) {
          if line > 0 { text += newline }
          for w in 0..<Int.random(in: 1...5, using: &random) {
            let (open, close) = wrap.randomElement(using: &random)!
            // Now and then no space: tags then join two words into one.
            let space = ["", " ", " ", "  "].randomElement(using: &random)!
            text += (w > 0 ? space : "") + open + words.randomElement(using: &random)! + close
          }
        }
        text += newline + newline
      }
      let bytes = Array(text.utf8)
      let document = WebVTTParser.parse(bytes)
      let full = SpokenText(document)
      // Each run of each cue (`WebVTTCue.runs`) starts where the spoken text says, at its time.
      var offset = 0
      for (index, cue) in document.cues.enumerated() {
        offset += index > 0 ? 1 : 0
        for run in cue.runs {
          #expect(full.time(at: offset) == run.startTime, "\(run) in \(text.debugDescription)")
          offset += run.text.unicodeScalars.count
        }
      }
      #expect(offset == full.text.unicodeScalars.count, "\(text.debugDescription)")
      let spoken = full.text.split(separator: " ").map(String.init)
      for _ in 0..<10 where !spoken.isEmpty {
        let start = Int.random(in: 0..<spoken.count, using: &random)
        let end = min(spoken.count, start + Int.random(in: 1...4, using: &random))
        let phrase = spoken[start..<end].joined(separator: " ")
        guard
          let pattern = try? SearchPattern(phrase, regex: false, wholeWords: false, folding: SearchFolding())
        else { continue }
        let hits = MemoSearch.hits(pattern, title: nil, document: document)
        #expect(!hits.isEmpty, "\(phrase) in \(text)")
        #expect(
          pattern.mayMatch(bytes), "skipped '\(phrase)' that the parse finds in \(text.debugDescription)")
        tried += 1
      }
      if SearchPattern.spokenASCII(bytes.withUnsafeBufferPointer { $0 }, foldingCase: true) != nil {
        decided += 1
      }
    }
    // Both kinds met: files the quick scan reads, and files it leaves to the parse.
    #expect(tried > 1_000 && decided > 10 && decided < 290, "\(tried) \(decided)")
  }

  /// The scan that looks beside each place the piece is for the rest of the pattern (a phrase's
  /// other words) against the parse: random cues of a few words, with tags, timestamps,
  /// punctuation, references, doubled spaces and line breaks between them, and random phrases of
  /// those words, typed with punctuation or not. A file is passed over only when the parse finds
  /// the phrase nowhere in it; and the scan does pass over files holding the piece.
  @Test func theScanBesideThePieceNeverSkipsWhatTheParseFinds() throws {
    var random = Generator(state: 49_226)
    let words = ["mill", "Turned", "turned", "buy", "we", "returned", "Mill", "w"]
    let between = [
      " ", " ", "  ", ", ", ". ", "-", " - ", "' ", "\t", " <00:00:01.500>", "<i>", "</i> ", " &amp; ", "\n",
      "…", "; ", "&lt;", "&nbsp;", " > ", "<b>&</b>", "\r\n",
    ]
    let queries = [
      "mill turned buy we", "turned buy", "mill turned", "Mill, turned", "turned-buy we", "we mill",
      "<turned buy", "mill > turned", "w&turned",
    ]
    var (skipped, tried, titlesSkipped) = (0, 0, 0)
    for _ in 0..<4_000 {
      var text = "WEBVTT\n\n"
      for cue in 0..<Int.random(in: 1...5, using: &random) {
        // Now and then a note, an id, a cue with no words, a second blank line, a broken timing.
        if Int.random(in: 0..<6, using: &random) == 0 { text += "NOTE turned buy we\n\n" }
        if Bool.random(using: &random) { text += "c\(cue)\n" }
        text +=
          Int.random(in: 0..<12, using: &random) == 0
          ? "00:0x.000 --> 00:00:0\(cue).900\n" : "00:00:0\(cue).000 --> 00:00:0\(cue).900\n"
        for w in 0..<Int.random(in: 0...8, using: &random) {
          if w > 0 { text += between.randomElement(using: &random)! }
          text += words.randomElement(using: &random)!
        }
        text += Int.random(in: 0..<5, using: &random) == 0 ? "\n\n\n" : "\n\n"
      }
      let bytes = Array(text.utf8)
      let document = WebVTTParser.parse(bytes)
      for query in queries {
        let pattern = try #require(SearchPattern.typed(query))
        let found = !MemoSearch.hits(pattern, title: nil, document: document).isEmpty
        let may = pattern.mayMatch(bytes)
        #expect(!found || may, "skipped '\(query)' that the parse finds in \(text.debugDescription)")
        tried += 1
        if !may && text.lowercased().contains("turned") { skipped += 1 }
        // The same text as a title, where `<`, `&` and a line break are text.
        let title = String(text.dropFirst(8))
        let inTitle = !MemoSearch.hits(pattern, title: title, document: nil).isEmpty
        #expect(
          !inTitle || pattern.mayMatch(title: title),
          "skipped '\(query)' in the title \(title.debugDescription)")
        if !pattern.mayMatch(title: title) && title.lowercased().contains("turned") { titlesSkipped += 1 }
      }
    }
    #expect(titlesSkipped > 1_000, "\(titlesSkipped) titles passed over beside the piece")
    #expect(skipped > 1_000, "\(skipped) of \(tried) passed over beside the piece")
  }

  /// The quick reading of an ASCII transcript (`spokenASCII`) against the parse: the same words,
  /// folded, with one space between them and none doubled, over cues whose lines hold long runs
  /// of plain words (read sixteen bytes at a time) broken by every kind of byte it must look at
  /// one by one: tags, references, upper case, tabs, spaces doubled, a line ending at any place.
  @Test func theQuickReadingIsTheParsesSpokenText() {
    var random = Generator(state: 7_102_026)
    let pieces = [
      "the old mill by the river", "walked", "bread", "x", " ", "  ", "\t", "Old MILL", "<i>", "</i>",
      "<00:00:01.500>", "<v Anna>", "<v Somebody with a long name>", "<c.unconfirmed.loud>", "</v>",
      "<c.loud>", "</c>", "&amp;", "&lt;", "&gt;", "&nbsp;",
      "1234567890.,;:!?'\"()-_/", "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    ]
    var read = 0
    for round in 0..<400 {
      let newline = round % 5 == 0 ? "\r\n" : "\n"
      var text = "WEBVTT" + newline + newline
      for cue in 0..<Int.random(in: 1...4, using: &random) {
        text += "00:00:0\(cue).000 --> 00:00:0\(cue).900" + newline
        for line in 0..<Int.random(in: 1...3, using: &random) {
          if line > 0 { text += newline }
          for _ in 0..<Int.random(in: 0...12, using: &random) {
            text += pieces.randomElement(using: &random)!
          }
        }
        text += newline + newline
      }
      let bytes = Array(text.utf8)
      for foldingCase in [true, false] {
        guard
          let quick = SearchPattern.spokenASCII(
            bytes.withUnsafeBufferPointer { $0 }, foldingCase: foldingCase)
        else { continue }
        read += 1
        var folding = SearchFolding(caseSensitive: !foldingCase)
        let parsed = folding.fold(SpokenText(WebVTTParser.parse(bytes)).text)
        let words = { (scalars: [UInt32]) in
          scalars.split(separator: 0x20, omittingEmptySubsequences: true).map { Array($0) }
        }
        let quickText = String(decoding: quick, as: UTF8.self)
        #expect(
          words(quick.map(UInt32.init)) == words(parsed),
          "\(quickText.debugDescription) in \(text.debugDescription)")
        #expect(!quickText.contains("  "), "a space doubled: \(quickText.debugDescription)")
      }
    }
    #expect(read > 600, "\(read) of 800 read quickly")
  }

  /// The one-pass scan against a plain search of every place and each `<` and `&` looked at in
  /// turn: texts of 0 to 80 bytes (so the piece, a tag and a reference fall on and across each of
  /// the sixteen-byte steps and in the tail), pieces shorter and longer than a step, the piece in
  /// either case or not at all, a byte above ASCII or a NUL now and then.
  @Test func theScanFindsWhatAPlainSearchFinds() {
    var random = Generator(state: 4_122_026)
    // Each text from one of these: letters of the pieces, tags, references; then fewer kinds, so
    // that a text with one way of joining words and no other is common.
    let alphabets = ["abeimnrtBEAM .<>&", "abeimnrtBEAM .<>", "ab .<>r&", "ab .<>r", " <>rb."].map {
      Array($0.utf8)
    }
    var outcomes: [PieceProbe.ScanResult: Int] = [:]
    for _ in 0..<40_000 {
      let letters = alphabets.randomElement(using: &random)!
      // Some pieces, and a third of the time one of 1 to 40 letters: longer than a step too, so
      // the last step that may hold one starts before some texts' last step does.
      let piece =
        Int.random(in: 0..<3, using: &random) == 0
        ? (0..<Int.random(in: 1...40, using: &random)).map { _ in
          Array("abeimnrt".utf8).randomElement(using: &random)!
        }
        : Array(["bamine", "am", "b", "mine9", "2026"].randomElement(using: &random)!.utf8)
      var text = (0..<Int.random(in: 0...80, using: &random)).map { _ in
        letters.randomElement(using: &random)!
      }
      if Bool.random(using: &random), text.count >= piece.count {
        let at = Int.random(in: 0...(text.count - piece.count), using: &random)
        for (m, byte) in piece.enumerated() {
          text[at + m] = Bool.random(using: &random) && byte >= 0x61 ? byte - 0x20 : byte
        }
      }
      if Int.random(in: 0..<8, using: &random) == 0, !text.isEmpty {
        text[Int.random(in: 0..<text.count, using: &random)] = [0, 0xC3, 0x80].randomElement(using: &random)!
      }
      let folding = Bool.random(using: &random)
      let seen = folding ? text.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 } : text
      let expected: PieceProbe.ScanResult =
        text.contains { $0 >= 0x80 || $0 == 0 }
        ? .notASCII
        : (seen.count >= piece.count
          && (0...(seen.count - piece.count)).contains { seen[$0..<$0 + piece.count].elementsEqual(piece) })
          ? .found : text.withUnsafeBufferPointer(Self.mayJoin) ? .joined : .absent
      let result = text.withUnsafeBytes {
        PieceProbe(piece, foldingCase: folding).scan(
          $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: text.count)
      }
      // A text with the piece and another byte may give either, as the first met decides.
      if expected == .notASCII && result == .found {
        outcomes[.found, default: 0] += 1
        continue
      }
      #expect(result == expected, "\(String(decoding: piece, as: UTF8.self)) in \(text) folding \(folding)")
      outcomes[result, default: 0] += 1
    }
    #expect(outcomes.count == 4 && outcomes.values.allSatisfy { $0 > 500 }, "\(outcomes)")
  }

  /// Folding ASCII text a byte at a time against the scalar-by-scalar fold it stands in for (made
  /// to run by a last scalar above ASCII, whose own output is then left off): random text of
  /// letters in both cases, digits, punctuation and white space, folded after what an earlier
  /// text left (ending in a space or not), with and without folding case.
  @Test func theASCIIFoldIsTheScalarFold() {
    var random = Generator(state: 51_226)
    let bytes = Array("aZ9 \t\n\r.<&Mq  ".utf8)
    var spaceAfter: [Bool: Int] = [:]
    for _ in 0..<3_000 {
      let text = String(
        decoding: (0..<Int.random(in: 0...40, using: &random)).map { _ in bytes.randomElement(using: &random)!
        },
        as: UTF8.self)
      let before = ["", "x", "x "].randomElement(using: &random)!
      var folding = SearchFolding(caseSensitive: Bool.random(using: &random))
      var (quick, quickOrigin, slow, slowOrigin) = ([UInt32](), [Int32](), [UInt32](), [Int32]())
      folding.fold(before, into: &quick, origin: &quickOrigin)
      folding.fold(before, into: &slow, origin: &slowOrigin)
      folding.fold(text, into: &quick, origin: &quickOrigin, offset: 7)
      folding.fold(text + "é", into: &slow, origin: &slowOrigin, offset: 7)
      let last = folding.fold("é").count
      #expect(quick == Array(slow.dropLast(last)), "\(before.debugDescription) + \(text.debugDescription)")
      #expect(quickOrigin == Array(slowOrigin.dropLast(last)), "\(text.debugDescription)")
      spaceAfter[before.hasSuffix(" ") && text.first?.isWhitespace == true, default: 0] += 1
    }
    #expect(spaceAfter.count == 2 && spaceAfter.values.allSatisfy { $0 > 100 }, "\(spaceAfter)")
  }

  /// A title is passed over only when it cannot match: random titles of words, the pattern's among
  /// them in either case or not, some with a letter above ASCII, against the folded title's
  /// matches.
  @Test func aTitleIsPassedOverOnlyWhenItCannotMatch() throws {
    var random = Generator(state: 9_941)
    let words = ["Old", "bridge", "MILL", "walk", "Brid", "ge", "café", "&", "<b>", "  "]
    var outcomes: [String: Int] = [:]
    for _ in 0..<2_000 {
      let title = (0..<Int.random(in: 0...6, using: &random)).map { _ in words.randomElement(using: &random)!
      }
      .joined(separator: Bool.random(using: &random) ? " " : "")
      let pattern = try SearchPattern(
        ["bridge", "old bridge", "mill", "cafe"].randomElement(using: &random)!, regex: false,
        wholeWords: false, folding: SearchFolding(caseSensitive: Bool.random(using: &random)))
      var folding = pattern.folding
      let matches = pattern.matches(in: folding.fold(title))
      let may = pattern.mayMatch(title: title)
      #expect(may || matches.isEmpty, "\(title.debugDescription)")
      #expect(MemoSearch.hits(pattern, title: title, document: nil).count == matches.count)
      outcomes["\(may) \(matches.isEmpty)", default: 0] += 1
    }
    // Passed over, read and matching, read and not matching (a letter above ASCII, or the piece
    // without the rest).
    #expect(outcomes.count == 3 && outcomes.values.allSatisfy { $0 > 50 }, "\(outcomes)")
  }

  /// Whether any tag or reference might join words, each `<` and `&` looked at in turn: what
  /// `PieceProbe.scan` finds sixteen bytes at a time.
  static func mayJoin(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
    if Joins.tagLeftOpen(raw) { return true }
    return raw.indices.contains { (raw[$0] == 0x3C || raw[$0] == 0x26) && Joins.at($0, in: raw) }
  }
}

/// `stash search --json`'s text: bounded context around the match, the match moved with it.
@Suite struct SearchHitContextTests {
  func hit(_ text: String, _ match: Range<Int>) -> SearchHit {
    SearchHit(place: .cues(first: 0, last: 0), text: text, match: match, cueStart: 0, cueEnd: 1, start: 0)
  }

  @Test func aShortTextIsLeftWholeAndALongOneCutAtSpaces() {
    let short = hit("we walked to the bridge", 17..<23)
    #expect(short.bounded(context: 80) == short)
    let words = (0..<100).map { "w\($0)" }
    let text = words.joined(separator: " ")
    let scalars = Array(text.unicodeScalars)
    let at = text.range(of: "w50")!
    let lower = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: at.lowerBound)
    let cut = hit(text, lower..<lower + 3).bounded(context: 20)
    let cutScalars = Array(cut.text.unicodeScalars)
    #expect(cut.text.hasPrefix("…") && cut.text.hasSuffix("…"), "\(cut.text)")
    #expect(String(String.UnicodeScalarView(cutScalars[cut.match])) == "w50")
    #expect(cutScalars.count <= 2 * 20 + 3 + 2 && cutScalars.count < scalars.count)
    // Cut at spaces: no word is broken at either end.
    let inner = cut.text.dropFirst().dropLast()
    #expect(inner.split(separator: " ").allSatisfy { words.contains(String($0)) }, "\(cut.text)")
    // At the very start, only the end is cut.
    let first = hit(text, 0..<2).bounded(context: 20)
    #expect(!first.text.hasPrefix("…") && first.text.hasSuffix("…") && first.match == 0..<2)
  }
}
