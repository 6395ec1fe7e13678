import StashFormat
import Testing

/// The file-level steps of the W3C WebVTT parser algorithm, and the diagnostics that go with them.
@Suite struct WebVTTParserTests {
  private func codes(_ document: WebVTTDocument) -> [FormatError.Code] { document.diagnostics.map(\.code) }

  @Test func kitchenSinkReadsEveryBlockAndSettingCleanly() throws {
    let document = WebVTTParser.parse(WebVTTFixtures.kitchenSink)
    #expect(document.diagnostics == [])
    #expect(document.headerText == "Kitchen sink - all of it")
    #expect(document.regions.map(\.id) == ["fred", "bill"])
    let fred = document.regions[0]
    #expect(fred.width == 40 && fred.lines == 3 && fred.regionAnchorX == 0 && fred.regionAnchorY == 100)
    #expect(fred.viewportAnchorX == 10 && fred.viewportAnchorY == 90 && fred.scroll == .up)
    #expect(
      document.regions[1].width == 40.5 && document.regions[1].lines == 10
        && document.regions[1].scroll == .none)
    #expect(
      document.styles.count == 1 && document.styles[0].hasPrefix("::cue {")
        && document.styles[0].hasSuffix("}"))
    #expect(
      document.notes == [
        WebVTTNote(text: "a comment\nover two lines", cuesBefore: 0),
        WebVTTNote(text: "between cues", cuesBefore: 4),
      ])
    #expect(document.cues.count == 5)
    let intro = document.cues[0]
    #expect(
      intro.id == "intro" && intro.startTime == 0 && intro.endTime == 2 && intro.region == "fred"
        && intro.align == .left)
    #expect(intro.text == "<v Fred>Hi, my name is Fred")
    let third = document.cues[2]
    #expect(third.vertical == .rl && third.line == -1 && third.lineAlign == .end && third.snapToLines)
    #expect(
      third.position == 10 && third.positionAlign == .lineLeft && third.size == 35.5 && third.align == .start)
    #expect(third.region == nil)
    let fourth = document.cues[3]
    #expect(
      fourth.line == 50 && !fourth.snapToLines && fourth.lineAlign == .center
        && fourth.positionAlign == .lineRight)
    let last = document.cues[4]
    #expect(
      last.id == "ref-test" && last.startTime == 3607 && last.endTime == 3609 && last.vertical == .lr
        && last.line == 0)
    #expect(last.text.hasSuffix("second line with <01:00:08.000>timed words"))
    #expect(document.cueLines == [19, 22, 25, 28, 34])
  }

  @Test func signatureMustBeWEBVTTThenSpaceTabOrLineBreak() {
    for good in [
      "WEBVTT", "WEBVTT\n", "WEBVTT \n", "WEBVTT\tx\n", "\u{FEFF}WEBVTT\n\n00:00.000 --> 00:01.000\nx",
    ] {
      let document = WebVTTParser.parse(good)
      #expect(!codes(document).contains(.vttNoSignature), "\(good.debugDescription)")
    }
    for bad in [
      "", "WEBVT", "WEBVTTX\n", "webvtt\n", " WEBVTT\n", "1\n00:00:01,000 --> 00:00:02,000\nan SRT file\n",
    ] {
      let document = WebVTTParser.parse(bad)
      #expect(codes(document) == [.vttNoSignature], "\(bad.debugDescription)")
      #expect(document.cues.isEmpty)
    }
    // The message quotes the first line so a person sees what the file is.
    let srt = WebVTTParser.parse("1\n00:00:01,000 --> 00:00:02,000\n")
    #expect(srt.diagnostics[0].message.contains("\"1\""))
    #expect(srt.diagnostics[0].location.line == 1 && srt.diagnostics[0].location.column == 1)
    // A BOM is dropped; the offset still counts it.
    let bom = WebVTTParser.parse("\u{FEFF}WEBVTT\n00:00.000 --> 00:01.000\nx")
    #expect(bom.cues.count == 1)
    #expect(bom.diagnostics.first?.location.offset == 10)
  }

  @Test func headerLinesAndAMissingBlankLine() {
    let withHeader = WebVTTParser.parse(
      "WEBVTT title\nKind: captions\nLanguage: en\n\n00:01.000 --> 00:02.000\nhi\n")
    #expect(withHeader.headerText == "title\nKind: captions\nLanguage: en")
    // YouTube's header lines are info naming the writer (issue 16); other header text still warns.
    #expect(codes(withHeader) == [.vttHeaderMetadata])
    #expect(withHeader.diagnostics.first?.message.contains("YouTube") == true)
    #expect(withHeader.diagnostics.first?.severity == .info)
    #expect(withHeader.cues.count == 1)
    let hls = WebVTTParser.parse(
      "WEBVTT\nX-TIMESTAMP-MAP=LOCAL:00:00.000,MPEGTS:0\n\n00:01.000 --> 00:02.000\nhi\n")
    #expect(codes(hls) == [.vttHeaderMetadata])
    #expect(hls.diagnostics.first?.message.contains("HLS") == true)
    let unknown = WebVTTParser.parse("WEBVTT\nsome header\n\n00:01.000 --> 00:02.000\nhi\n")
    #expect(codes(unknown) == [.vttHeaderNoBlankLine])
    // A line of only white space is described, not quoted in full.
    let wide = WebVTTParser.parse(
      "WEBVTT\n\n" + String(repeating: " ", count: 90) + "x\n" + String(repeating: " ", count: 90) + "\n")
    #expect(wide.diagnostics.allSatisfy { !$0.message.contains(String(repeating: " ", count: 20)) })
    // A timing line right after the signature still makes a cue (the header block gives it back).
    let noBlank = WebVTTParser.parse("WEBVTT\n00:01.000 --> 00:02.000\nhi\n")
    #expect(noBlank.cues.map(\.text) == ["hi"])
    #expect(codes(noBlank) == [.vttHeaderNoBlankLine])
    #expect(noBlank.diagnostics[0].location.line == 2)
  }

  @Test func lineTerminatorsAndNullsAreNormalized() {
    let text = "WEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\na\u{0}b\rsecond\n\n"
    let document = WebVTTParser.parse(text)
    #expect(document.cues.map(\.text) == ["a\u{FFFD}b\nsecond"])
    #expect(codes(document) == [.vttNullCharacter])
    #expect(document.diagnostics[0].location.line == 4 && document.diagnostics[0].location.column == 2)
    // Rewritten text has no file offsets to give.
    #expect(document.diagnostics[0].location.offset == nil)
  }

  @Test func invalidUTF8IsReplacedAndReported() {
    var bytes = Array("WEBVTT\n\n00:01.000 --> 00:02.000\nab".utf8)
    bytes += [0xFF, 0xC3, 0x28, 0xE2, 0x82]  // a stray byte, a cut two-byte and a cut three-byte sequence
    let document = WebVTTParser.parse(bytes)
    #expect(document.cues.map(\.text) == ["ab\u{FFFD}\u{FFFD}(\u{FFFD}"])
    #expect(codes(document) == [.vttNotUTF8])
    #expect(document.diagnostics[0].location.line == 4 && document.diagnostics[0].location.column == 3)
    #expect(document.diagnostics[0].message.contains("3 byte sequences"))
  }

  @Test func cueIdentifiersAndBlocksFollowTheAlgorithm() {
    let text = """
      WEBVTT

      id with spaces & more
      00:01.000 --> 00:02.000
      one

      00:02.000 --> 00:03.000
      two
      00:03.000 --> 00:04.000
      three (no blank line before this cue)

      just some text

      an id
      without timing

      """
    let document = WebVTTParser.parse(text)
    #expect(document.cues.map(\.id) == ["id with spaces & more", "", ""])
    #expect(document.cues.map(\.text) == ["one", "two", "three (no blank line before this cue)"])
    #expect(codes(document) == [.vttMissingBlankLine, .vttStrayText, .vttStrayText])
    #expect(document.diagnostics.map { $0.location.line } == [9, 12, 14])
  }

  @Test func badTimingsDropTheCueWithAPreciseDiagnostic() {
    let cases: [(String, FormatError.Code, Int)] = [
      ("00:01.000 x --> 00:02.000", .vttBadArrow, 11),
      ("00:01.00 --> 00:02.000", .vttBadTimestamp, 7),
      ("00:01,000 --> 00:02.000", .vttBadTimestamp, 6),
      ("0:01.000 --> 00:02.000", .vttBadTimestamp, 5),
      ("00:60.000 --> 01:02.000", .vttBadTimestamp, 7),
      ("00:01.000 --> 00:02.0000", .vttBadTimestamp, 21),
      ("00:01.000 --> 61:02.000", .vttBadTimestamp, 20),
      ("x00:01.000 --> 00:02.000", .vttBadTimestamp, 1),
    ]
    for (line, code, column) in cases {
      let document = WebVTTParser.parse("WEBVTT\n\n\(line)\ntext\n")
      #expect(document.cues.isEmpty, "\(line)")
      #expect(codes(document) == [code], "\(line)")
      #expect(document.diagnostics.first?.location.line == 3, "\(line)")
      #expect(document.diagnostics.first?.location.column == column, "\(line)")
    }
  }

  @Test func timestampFormsAndValues() {
    let document = WebVTTParser.parse(
      "WEBVTT\n\n00:00:01.250 --> 123:04:05.678\na\n\n59:59.999 --> 60:00:00.000\nb\n\n1:00:00.000 --> 1:00:01.000\nc\n"
    )
    #expect(document.cues.map(\.startTime) == [1.25, 3599 + 0.999, 3600])
    #expect(document.cues.map(\.endTime) == [443045 + 0.678, 216000, 3601])
    #expect(codes(document) == [.vttTimestampForm])
  }

  @Test func arrowSpacingOrderAndEndTimes() {
    let document = WebVTTParser.parse(
      "WEBVTT\n\n00:05.000-->00:06.000\na\n\n00:04.000 --> 00:04.000\nb\n\n00:03.000 --> 00:02.000\nc\n")
    #expect(document.cues.count == 3)
    #expect(
      codes(document) == [
        .vttArrowSpacing, .vttEndNotAfterStart, .vttCueOutOfOrder, .vttEndNotAfterStart,
        .vttCueOutOfOrder,
      ])
  }

  @Test func settingsFollowTheSpecForInvalidAndRepeatedValues() {
    func cue(_ settings: String, regions: String = "") -> (WebVTTCue, [FormatError.Code]) {
      let document = WebVTTParser.parse("WEBVTT\n\n\(regions)00:00.000 --> 00:01.000 \(settings)\nx\n")
      return (document.cues[0], document.diagnostics.map(\.code))
    }
    #expect(cue("align:middle").0.align == .center)
    #expect(cue("align:middle").1 == [.vttBadSetting])
    #expect(cue("align:left align:right").0.align == .right)
    #expect(cue("align:left align:right").1 == [.vttDuplicateSetting])
    #expect(cue("line:5% line:bogus").0.line == 5)
    #expect(cue("line:-3").0.line == -3 && cue("line:-3").0.snapToLines)
    #expect(cue("line:1.5").0.line == 1.5)
    // HTML's number rules: -0 is 0, a number past the largest double is an error, no exponents.
    #expect(cue("line:-0").0.line?.sign == .plus)
    let largest = "179769313486231570" + String(repeating: "0", count: 291)
    #expect(cue("line:" + largest).0.line == .greatestFiniteMagnitude)
    #expect(cue("line:-" + largest).0.line == -.greatestFiniteMagnitude)
    #expect(cue("line:179769313486231590" + String(repeating: "0", count: 291)).0.line == nil)
    #expect(cue("line:0." + String(repeating: "0", count: 323) + "5").0.line == .leastNonzeroMagnitude)
    #expect(cue("line:1e2").0.line == nil)
    // An alignment the spec does not know drops the whole setting (w3c/webvtt#336).
    #expect(cue("line:100%,middle").0.line == nil)
    #expect(cue("position:1%,middle").0.position == nil)
    #expect(cue("position:1%, center").0.position == nil)
    for bad in [
      "line:1.", "line:.5", "line:1-2", "line:--1", "line:101%", "line:5,top", "line:abc", "line:1.2.3",
    ] {
      let (parsed, diagnostics) = cue(bad)
      #expect(parsed.line == nil && parsed.lineAlign == .start, "\(bad)")
      #expect(diagnostics == [.vttBadSetting], "\(bad)")
    }
    #expect(cue("position:50%,line-left").0.positionAlign == .lineLeft)
    for bad in [
      "position:50", "position:-1%", "position:50%,left", "position:50%,auto", "size:101%", "size:1e2%",
      "vertical:up", ":x", "x:", "foo:bar", "nocolon",
    ] {
      let (parsed, diagnostics) = cue(bad)
      #expect(parsed.position == nil && parsed.size == 100 && parsed.vertical == .horizontal, "\(bad)")
      #expect(diagnostics == [.vttBadSetting], "\(bad)")
    }
    let region = "REGION\nid:r\n\n"
    #expect(cue("region:r", regions: region).0.region == "r")
    #expect(cue("region:q", regions: region).1 == [.vttUnknownRegion])
    // Line, size and vertical take a cue out of its region, in setting order.
    #expect(cue("region:r line:1", regions: region).0.region == nil)
    #expect(cue("line:1 region:r", regions: region).0.region == "r")
    #expect(cue("region:r size:50%", regions: region).0.region == nil)
    #expect(cue("region:r size:100%", regions: region).0.region == "r")
    #expect(cue("region:r vertical:lr", regions: region).0.region == nil)
    #expect(cue("region:r vertical:lr", regions: region).1 == [.vttRegionConflict])
  }

  @Test func regionsAndStylesOnlyBeforeTheFirstCue() {
    let text = """
      WEBVTT

      REGION
      id:a width:50% lines:2 bogus regionanchor:10% scroll:down
      id:b

      STYLE
      ::cue { color: red }

      00:00.000 --> 00:01.000
      x

      STYLE
      ::cue { color: blue }

      REGION
      id:c

      """
    let document = WebVTTParser.parse(text)
    #expect(document.regions.count == 1)
    // The id setting given twice: the last counts.
    #expect(
      document.regions[0].id == "b" && document.regions[0].width == 50 && document.regions[0].lines == 2)
    #expect(document.styles == ["::cue { color: red }"])
    #expect(
      codes(document) == [
        .vttBadRegionSetting, .vttBadRegionSetting, .vttBadRegionSetting,
        .vttDuplicateRegionSetting,
        .vttStyleAfterCue, .vttRegionAfterCue,
      ])
  }

  @Test func stashNotesAreReadIntoTheModel() {
    let memo = WebVTTParser.parse(WebVTTFixtures.stashMemo)
    #expect(memo.diagnostics == [])
    #expect(memo.missingSpeech == [WebVTTTimeSpan(start: 60, end: 102.5)])
    #expect(memo.notes.isEmpty)
    let part = WebVTTParser.parse(WebVTTFixtures.stashPart)
    #expect(part.partSpan == WebVTTTimeSpan(start: 60, end: 120))
    let odd = WebVTTParser.parse(
      """
      WEBVTT

      NOTE stash missing-speech 00:02:00.000

      NOTE stash flying 1 2

      00:00.000 --> 00:01.000
      x

      NOTE stash missing-speech 00:05.000 00:06.000

      """)
    #expect(odd.missingSpeech == [WebVTTTimeSpan(start: 5, end: 6)])
    #expect(odd.notes.count == 2)
    #expect(codes(odd) == [.vttBadStashNote, .vttBadStashNote, .vttStashNoteAfterCue])
  }

  @Test(arguments: [
    ("stash part 00:00:01.000 00:00:02.000", WebVTTTimeSpan(start: 1, end: 2), [FormatError.Code]()),
    ("stash\tpart\n00:00:01.000  00:00:02.000", WebVTTTimeSpan(start: 1, end: 2), []),
    ("stash part 00:00:01.000 00:00:02.000 more", nil, [.vttBadStashNote]),
    ("stash part 00:00:03.000 00:00:02.000", nil, [.vttBadStashNote]),
    ("stash part 00:00:01.000 00:00:0x.000", nil, [.vttBadStashNote]),
    ("stash part", nil, [.vttBadStashNote]),
    ("stash", nil, [.vttBadStashNote]),
    ("stashy part 00:00:01.000 00:00:02.000", nil, []),
  ])
  func aStashPartNoteIsReadWordByWord(note: String, span: WebVTTTimeSpan?, expected: [FormatError.Code]) {
    let document = WebVTTParser.parse("WEBVTT\n\nNOTE \(note)\n\n00:00:01.000 --> 00:00:02.000\nx\n")
    #expect(document.partSpan == span)
    #expect(codes(document) == expected)
    #expect(document.notes.count == (span == nil ? 1 : 0))
  }

  @Test func aNoteWithAnArrowBecomesACue() {
    let document = WebVTTParser.parse("WEBVTT\n\nNOTE\n00:00.000 --> 00:01.000\nsurprise\n")
    #expect(document.cues.map(\.id) == ["NOTE"])
    #expect(codes(document) == [.vttNoteWithArrow])
  }

  /// Only an identifier that is a NOTE line (NOTE alone, or then a space or tab) is reported; an
  /// identifier that merely starts with the letters is an ordinary one.
  @Test func onlyANoteLineAsIdentifierIsReported() {
    for (id, reported) in [
      ("NOTE x", true), ("NOTE\tx", true), ("NOTES", false), ("NOT", false), ("note", false),
    ] {
      let document = WebVTTParser.parse("WEBVTT\n\n\(id)\n00:00.000 --> 00:01.000\nsurprise\n")
      #expect(document.cues.map(\.id) == [id])
      #expect(codes(document) == (reported ? [.vttNoteWithArrow] : []), "\(id.debugDescription)")
    }
  }

  @Test func everyCodeIsStableAndPrefixed() {
    let codes = FormatError.Code.webVTT.map(\.rawValue)
    #expect(codes.count == 37)
    #expect(Set(codes).count == codes.count)
    #expect(codes.allSatisfy { $0.hasPrefix("vtt-") })
  }
}
