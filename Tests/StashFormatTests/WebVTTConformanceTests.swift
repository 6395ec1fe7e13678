import StashFormat
import Testing

/// Points where the current W3C text and older conformance expectations part ways; each test pins
/// the reading of the spec we follow (docs/inspect-transcript.md, "Conformance"), so that a change
/// towards the older behaviour fails here first.
@Suite struct WebVTTConformanceTests {
  private func codes(_ document: WebVTTDocument) -> [FormatError.Code] { document.diagnostics.map(\.code) }

  /// "WebVTT parser algorithm": CR LF is one line break, but LF followed by CR is two, so the CR
  /// makes an empty line and that empty line ends the block.
  @Test func lineFeedThenCarriageReturnIsTwoLineBreaks() {
    let document = WebVTTParser.parse(
      "WEBVTT\n\nfirst\n00:01.000 --> 00:02.000\none\n\r00:02.000 --> 00:03.000\n\rtwo\n")
    #expect(document.cues.map(\.id) == ["first", ""])
    #expect(document.cues.map(\.text) == ["one", ""])
    // The empty line after the second timing line leaves "two" as a block of its own, ignored.
    #expect(codes(document) == [.vttStrayText])
    #expect(document.diagnostics[0].location.line == 9)
  }

  /// "Collect a WebVTT block": a `-->` line after the cue text starts the next cue, and the line
  /// just before it stays in the earlier cue's text rather than becoming the next cue's identifier.
  @Test func anArrowLineInsideCueTextStartsACueWithoutAnIdentifier() {
    let document = WebVTTParser.parse(
      "WEBVTT\n\n00:01.000 --> 00:02.000\nwords\nlooks-like-an-id\n00:02.000 --> 00:03.000\nmore\n")
    #expect(document.cues.map(\.text) == ["words\nlooks-like-an-id", "more"])
    #expect(document.cues.map(\.id) == ["", ""])
    #expect(codes(document) == [.vttMissingBlankLine])
  }

  /// "Collect WebVTT cue timings and settings", `region`: the cue takes the last region whose
  /// identifier matches, even when an earlier REGION block used the same identifier.
  @Test func aCueTakesTheLastRegionWithItsIdentifier() {
    let text = """
      WEBVTT

      REGION
      id:left
      lines:2

      REGION
      id:left
      lines:5

      00:01.000 --> 00:02.000 region:left
      hello

      """
    let document = WebVTTParser.parse(text)
    #expect(document.regions.map(\.lines) == [2, 5])
    #expect(document.region(of: document.cues[0])?.lines == 5)
    #expect(codes(document) == [.vttBadRegionID])
    #expect(document.diagnostics[0].location.line == 8)  // the second `id:left`
  }

  /// "WebVTT region settings parsing", `lines`: any run of digits is a line count; one too big
  /// for 64 bits is held as the largest count rather than dropped or wrapped.
  @Test func hugeRegionLineCountsSaturate() {
    let document = WebVTTParser.parse(
      "WEBVTT\n\nREGION\nid:r\nlines:18446744073709551616\n\nREGION\nid:s\nlines:-1\n")
    #expect(document.regions.map(\.lines) == [Int.max, 3])
  }

  /// The web-platform tests' regions-lines.vtt: counts past 2^63 come through as the numbers
  /// written (18446744073709551616, and 1e34 from 35 digits), not clamped.
  @Test func hugeRegionLineCountsKeepTheirValue() {
    let digits = "1" + String(repeating: "0", count: 34)
    let document = WebVTTParser.parse(
      "WEBVTT\n\nREGION\nid:r\nlines:18446744073709551616\n\nREGION\nid:s\nlines:\(digits)\n\nREGION\nid:t\nlines:7\n"
    )
    #expect(document.regions.map(\.linesBeyondInt) == ["18446744073709551616", digits, nil])
    #expect(
      document.regions.compactMap(\.linesBeyondInt).compactMap(Double.init) == [18446744073709551616, 1e34])
    #expect(WebVTTWriter.serialize(document).contains("lines:18446744073709551616"))
  }

  /// The parser replaces only NUL; other control characters are cue text like any other.
  @Test func controlCharactersOtherThanNullStayInTheText() {
    let document = WebVTTParser.parse("WEBVTT\n\n00:01.000 --> 00:02.000\na\u{3}b\u{0}c\n")
    #expect(document.cues.map(\.text) == ["a\u{3}b\u{FFFD}c"])
  }
}
