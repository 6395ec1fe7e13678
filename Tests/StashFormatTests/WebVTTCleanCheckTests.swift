import Testing

@testable import StashFormat

/// The quick pass that lets clean cue text skip the full check: whenever it says "clean", the full
/// check must find nothing, or the linter would miss problems.
@Suite struct WebVTTCleanCheckTests {
  /// What clean Stash cue text is made of, and what is not (or not always).
  static let usual = [
    "so ", "the path", " ", "<c>", "<c.unconfirmed>", "<c.a.b>", "</c>", "<i>", "</i>", "<b>", "</b>", "<u>",
    "</u>", "<00:00:01.000>", "<00:00:02.500>", "<00:01.500>", "\u{C}", "\n",
  ]
  static let unusual = [
    "<00:00:00.000>", "<00:00:03.000>", "<0:00:01.000>", "<100:00:01.000>", "<00:00:02.50>",
    "<00:00:02.500x>", "&amp;", "&", "<v Ana>", "</v>", "<c .x>", "<c.a b>", "<", ">", "<>", "</>", "</ c>",
    "<cc>", "<ruby>", "<rt>", "</ruby>", "<lang en>", "<c.a&b>", "<00:00:02.500",
  ]

  func isClean(_ text: String, start: Double = 0, end: Double = 3) -> (quick: Bool, full: [WebVTTIssue]) {
    var text = text
    return text.withUTF8 { bytes in
      let range = 0..<bytes.count
      let quick = WebVTTCueTextParser.isCertainlyClean(bytes, range, cueStart: start, cueEnd: end)
      var checker = WebVTTCueTextParser.checker(for: bytes)
      checker.check(range, cueStart: start, cueEnd: end)
      return (quick, checker.issues)
    }
  }

  @Test func whatThePassCallsCleanTheFullCheckFindsClean() {
    var random = WebVTTRandom(seed: 20_261_130)
    var clean = 0
    var unsure = 0
    for _ in 0..<20_000 {
      let text = (0..<(1 + random.next(8))).map { _ in
        random.chance(8) ? random.pick(Self.unusual) : random.pick(Self.usual)
      }.joined()
      let (quick, full) = isClean(text)
      if quick {
        clean += 1
        #expect(full.isEmpty, "\(text.debugDescription): \(full.map(\.message))")
      } else {
        unsure += 1
      }
    }
    // Both ways are taken often enough for the comparison to mean something.
    #expect(clean > 1000 && unsure > 1000, "\(clean) clean, \(unsure) unsure")
  }

  @Test func typicalStashCueTextIsClean() {
    #expect(isClean("so <00:00:01.000>the <00:00:02.000>path").quick)
    #expect(isClean("we turned <c.unconfirmed>left at</c>").quick)
    #expect(isClean("<i>a <b>b</b></i> &lt;").quick == false)  // References: left to the full check.
    #expect(isClean("so <00:00:02.000>the <00:00:01.000>path").quick == false)
    #expect(isClean("so <00:00:03.000>the").quick == false)
    #expect(isClean("<c>open").quick == false)
    #expect(isClean("<i>misnested</b>").quick == false)
  }
}
