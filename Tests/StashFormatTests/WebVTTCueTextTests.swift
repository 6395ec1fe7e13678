import StashFormat
import Testing

/// The W3C cue text parsing rules (tokenizer and tree building), plain text, runs and words.
@Suite struct WebVTTCueTextTests {
  private func nodes(_ text: String) -> [WebVTTNode] {
    WebVTTCue(startTime: 0, endTime: 10, text: text).nodes
  }

  private func span(_ kind: WebVTTNode.Kind, _ children: [WebVTTNode]) -> WebVTTNode {
    .span(.init(kind: kind, children: children))
  }

  private func span(_ kind: WebVTTNode.Kind, _ classes: [String], _ children: [WebVTTNode]) -> WebVTTNode {
    .span(.init(kind: kind, classes: classes, children: children))
  }

  private func span(
    _ kind: WebVTTNode.Kind, _ classes: [String] = [], annotation: String?, language: String? = nil,
    _ children: [WebVTTNode]
  ) -> WebVTTNode {
    .span(.init(kind: kind, classes: classes, annotation: annotation, language: language, children: children))
  }

  private func span(_ kind: WebVTTNode.Kind, language: String, _ children: [WebVTTNode]) -> WebVTTNode {
    .span(.init(kind: kind, language: language, children: children))
  }

  /// The problems the parser reports for one cue's text.
  private func problems(_ text: String, start: String = "00:00.000", end: String = "00:10.000")
    -> [FormatError.Code]
  {
    WebVTTParser.parse("WEBVTT\n\n\(start) --> \(end)\n\(text)\n").diagnostics.map(\.code)
  }

  @Test func tagsBecomeSpansWithClassesAndAnnotations() {
    #expect(nodes("<c.a.b>x</c>") == [span(.class, ["a", "b"], [.text("x")])])
    #expect(nodes("<c..a.>x</c>") == [span(.class, ["a"], [.text("x")])])
    #expect(
      nodes("<i>i</i><b>b</b><u>u</u>") == [
        span(.italic, [.text("i")]), span(.bold, [.text("b")]), span(.underline, [.text("u")]),
      ])
    #expect(
      nodes("<v.loud  Bill \t Smith >hi</v>") == [
        span(.voice, ["loud"], annotation: "Bill Smith", [.text("hi")])
      ])
    #expect(nodes("<v>nobody</v>") == [span(.voice, annotation: "", [.text("nobody")])])
    #expect(nodes("<v A&amp;B&gt;>x") == [span(.voice, annotation: "A&B>", [.text("x")])])
    #expect(
      nodes("<lang en><i>x</i></lang>")
        == [span(.language, annotation: "en", language: "en", [span(.italic, language: "en", [.text("x")])])])
    // Annotations on tags that take none are dropped.
    #expect(nodes("<b extra>x</b>") == [span(.bold, [.text("x")])])
  }

  @Test func rubyAndRubyText() {
    #expect(
      nodes("<ruby>漢<rt>かん</rt>字<rt>じ</ruby>")
        == [
          span(
            .ruby, [.text("漢"), span(.rubyText, [.text("かん")]), .text("字"), span(.rubyText, [.text("じ")])])
        ])
    // <rt> only inside <ruby>.
    #expect(nodes("<rt>x</rt>") == [.text("x")])
    #expect(problems("<rt>x</rt>") == [.vttRtOutsideRuby, .vttStrayEndTag])
  }

  @Test func endTagsOnlyCloseTheCurrentNode() {
    #expect(nodes("<b><i>x</b></i>y") == [span(.bold, [span(.italic, [.text("x")]), .text("y")])])
    #expect(problems("<b><i>x</b></i>y") == [.vttUnclosedTag, .vttMisnestedTag])
    #expect(nodes("x</b>") == [.text("x")])
    #expect(problems("x</b>") == [.vttStrayEndTag])
    // An end tag's name runs to ">", spaces and all.
    #expect(nodes("<b>x</b >y") == [span(.bold, [.text("x"), .text("y")])])
  }

  @Test func unknownAndOddTagsAreIgnored() {
    #expect(nodes("<foo>x</foo>") == [.text("x")])
    #expect(nodes("<>x</>") == [.text("x")])
    #expect(nodes("a < b") == [.text("a ")])
    #expect(nodes("a <b") == [.text("a "), span(.bold, [])])
    #expect(nodes("<B>x</B>") == [.text("x")])
    #expect(problems("<foo>x</foo>") == [.vttUnknownTag, .vttStrayEndTag])
  }

  @Test func timestampsInsideCues() {
    #expect(
      nodes("a<00:00:01.500>b<00:02.000>c") == [
        .text("a"), .timestamp(1.5), .text("b"), .timestamp(2), .text("c"),
      ])
    #expect(nodes("<00:01.500 x>b") == [.text("b")])
    #expect(nodes("<1>b") == [.text("b")])
    #expect(problems("a<00:01.500 x>b") == [.vttBadInlineTimestamp])
    #expect(problems("a<00:11.000>b") == [.vttTimestampOutsideCue])
    #expect(problems("a<00:00.000>b") == [.vttTimestampOutsideCue])
    #expect(problems("a<00:05.000>b<00:04.000>c") == [.vttTimestampNotIncreasing])
    #expect(problems("a<00:05.000>b<00:06.000>c") == [])
  }

  @Test func characterReferences() {
    #expect(
      nodes("&lt;&gt;&amp;&nbsp;&#65;&#x42;&#X43;&#0;&#128;&#xD800;&#1114112;&notit;&amp")
        == [.text("<>&\u{A0}ABC\u{FFFD}€\u{FFFD}\u{FFFD}¬it;&")])
    #expect(nodes("& x &; &#x; &# &#;") == [.text("& x &; &#x; &# &#;")])
    #expect(nodes("&NotNestedGreaterGreater;&ngE;&fjlig;") == [.text("\u{2AA2}\u{338}\u{2267}\u{338}fj")])
    #expect(nodes("&AMP &AMPx &aacute") == [.text("& &x á")])
    #expect(problems("fish & chips") == [.vttBadCharacterReference])
    #expect(problems("&amp") == [.vttBadCharacterReference])
    #expect(problems("&amp; &#169; &copy;") == [])
  }

  @Test func voiceEndTagMayBeLeftOutOnlyWhenItIsTheWholeCue() {
    #expect(problems("<v Ana>Hello there") == [])
    #expect(problems("Hi <v Ana>Hello there") == [.vttUnclosedTag])
    #expect(problems("<v>x</v>") == [.vttBadAnnotation])
    #expect(problems("<i x>y</i>") == [.vttBadAnnotation])
  }

  @Test func nestingDepthIsCapped() {
    let depth = 10_000
    let text =
      String(repeating: "<b>", count: depth) + "deep" + String(repeating: "</b>", count: depth) + " after"
    var tree = nodes(text)
    var levels = 0
    while case .span(let span) = tree.first {
      levels += 1
      tree = span.children
    }
    #expect(levels == 64)
    #expect(tree == [.text("deep")])
    #expect(nodes(text).last == .text(" after"))
    #expect(problems(text) == [.vttNestingTooDeep])
    let cue = WebVTTCue(startTime: 0, endTime: 1, text: text)
    #expect(cue.plainText == "deep after")
  }

  @Test func plainTextStripsTagsDecodesReferencesAndSkipsRubyText() {
    let cue = WebVTTCue(
      startTime: 0, endTime: 1, text: "<v Ana>Hello &amp; <ruby>漢<rt>かん</rt></ruby>\n<i>bye</i>")
    #expect(cue.plainText == "Hello & 漢\nbye")
  }

  @Test func runsAndWordsCarryConfirmationAndTiming() throws {
    let memo = WebVTTParser.parse(WebVTTFixtures.stashMemo)
    let third = memo.cues[2]
    #expect(
      third.runs == [
        WebVTTRun(text: "where the old mill ", confirmed: true, startTime: 102.5),
        WebVTTRun(text: "used to ", confirmed: false, startTime: 102.5),
        WebVTTRun(text: "be, I think", confirmed: false, startTime: 105),
      ])
    let words = third.words
    #expect(words.map(\.text) == ["where", "the", "old", "mill", "used", "to", "be,", "I", "think"])
    #expect(words.map(\.confirmed) == [true, true, true, true, false, false, false, false, false])
    #expect(words[5].endTime == 105 && words[6].startTime == 105 && words.last?.endTime == 107)
    #expect(third.hasUnconfirmedText && !memo.cues[0].hasUnconfirmedText)
    let first = memo.cues[0].words
    #expect(first.map(\.startTime) == [0, 0.4, 0.65, 1.1, 1.5, 2, 2.3])
    #expect(first.map(\.text).joined(separator: " ") == "So the path goes along the river.")
  }

  /// Unconfirmed words are marked in plain text, braces around each stretch, so the marking
  /// survives a pipe (`stash show`, `export --to txt`); a stretch's edge spaces stay outside.
  @Test func markedTextBracesEachUnconfirmedStretch() {
    let memo = WebVTTParser.parse(WebVTTFixtures.stashMemo)
    #expect(memo.cues[2].markedText == "where the old mill {used to be, I think}")
    #expect(memo.cues[0].markedText == memo.cues[0].plainText)
    let cue = WebVTTCue(
      startTime: 0, endTime: 9,
      text:
        "<c.unconfirmed>Well</c> then <c.unconfirmed> we <00:00:01.000>walked </c>back<c.unconfirmed.low>wa</c>"
    )
    #expect(cue.markedText == "{Well} then  {we walked} back{wa}")
    #expect(WebVTTCue(startTime: 0, endTime: 1, text: "<c.unconfirmed> </c>x").markedText == " x")
  }

  @Test func settingNodesWritesEscapedText() {
    var cue = WebVTTCue(startTime: 0, endTime: 1, text: "")
    let tree: [WebVTTNode] = [
      .text("a < b & c > d -->"), .timestamp(0.5),
      span(.class, [WebVTTCue.unconfirmedClass], [.text("maybe")]),
      span(.voice, ["x"], annotation: "Ana & <Bo>", [.text("hi")]),
    ]
    cue.nodes = tree
    #expect(
      cue.text
        == "a &lt; b &amp; c &gt; d --&gt;<00:00:00.500><c.unconfirmed>maybe</c><v.x Ana &amp; <Bo&gt;>hi</v>"
    )
    #expect(cue.nodes == tree)
  }
}
