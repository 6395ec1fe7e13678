import Foundation
import StashTestSupport
import Testing

@testable import StashFormat

/// Transcripts the fuzzer found (SyntheticFixtures/regressions/webvtt/), read again under the
/// WebVTT target's invariant: what was read, written and read again is the same document, and
/// writing it again gives the same text.
@Suite struct WebVTTRegressionTests {
  @Test func thereAreRegressionInputs() {
    #expect(HostileRegressionTests.inputs("webvtt").count >= 4)
  }

  @Test(arguments: HostileRegressionTests.inputs("webvtt"))
  func readsBackAsItWasRead(path: String) throws {
    let document = WebVTTParser.parse(try ReadOnlyFile.contents(of: path))
    let written = WebVTTWriter.serialize(document)
    let again = WebVTTParser.parse(written)
    #expect(again == document, "\(path):\n\(written)")
    #expect(WebVTTWriter.serialize(again) == written, "\(path)")
  }

  /// The smallest form of what the fuzzer found: a NOTE block whose second line has `-->` but is
  /// no timing line. The spec tries it as a timing line, then goes on appending the lines after
  /// it to the block's buffer, never the failed line itself: the note's text skips it.
  @Test func aFailedTimingLineIsNotPartOfANote() {
    let document = WebVTTParser.parse("WEBVTT\n\nNOTE stash part 00:\n0x --> 00:01.000\nafter\n\n")
    #expect(document.notes == [WebVTTNote(text: "stash part 00:\nafter", cuesBefore: 0)])
    #expect(document.partSpan == nil)
    #expect(document.diagnostics.contains { $0.location.line == 4 })
    #expect(WebVTTWriter.serialize(document) == "WEBVTT\n\nNOTE stash part 00:\nafter\n\n")
  }

  @Test func aFailedTimingLineThatEndsTheNoteOrTheFileLeavesTheFirstLine() {
    let atEnd = WebVTTParser.parse("WEBVTT\n\nNOTE\nx --> y")
    #expect(atEnd.notes == [WebVTTNote(text: "", cuesBefore: 0)])
    let beforeBlank = WebVTTParser.parse("WEBVTT\n\nNOTE keep\nx --> y\n\n00:01.000 --> 00:02.000\nhi\n")
    #expect(beforeBlank.notes == [WebVTTNote(text: "keep", cuesBefore: 0)])
    #expect(beforeBlank.cues.map(\.text) == ["hi"])
    let noteOnly = WebVTTParser.parse("WEBVTT\n\nNOTE\nx --> y\nz\n")
    #expect(noteOnly.notes == [WebVTTNote(text: "z", cuesBefore: 0)])
  }

  /// A second line with `-->` after one that already failed ends the block there (the spec
  /// rewinds to that line), so it becomes the next block.
  @Test func aThirdLineWithAnArrowStartsTheNextBlock() {
    let document = WebVTTParser.parse("WEBVTT\n\nNOTE a\nx --> y\nb\n00:01.000 --> 00:02.000\nc\n")
    #expect(document.notes == [WebVTTNote(text: "a\nb", cuesBefore: 0)])
    #expect(document.cues.map(\.text) == ["c"])
  }

  /// "NOTE \ntext" and "NOTE\ntext" are different notes ("\ntext" and "text"): the writer keeps
  /// the space when the first line is empty.
  @Test func aNoteWhoseFirstLineIsEmptyKeepsItsSpace() {
    let spaced = WebVTTParser.parse("WEBVTT\n\nNOTE \nsecond\n")
    #expect(spaced.notes == [WebVTTNote(text: "\nsecond", cuesBefore: 0)])
    #expect(WebVTTWriter.serialize(spaced) == "WEBVTT\n\nNOTE \nsecond\n\n")
    let plain = WebVTTParser.parse("WEBVTT\n\nNOTE\nsecond\n")
    #expect(plain.notes == [WebVTTNote(text: "second", cuesBefore: 0)])
    #expect(WebVTTWriter.serialize(plain) == "WEBVTT\n\nNOTE second\n\n")
    let empty = WebVTTParser.parse("WEBVTT\n\nNOTE \n")
    #expect(WebVTTWriter.serialize(empty) == "WEBVTT\n\nNOTE\n\n")
    #expect(WebVTTParser.parse(WebVTTWriter.serialize(empty)) == empty)
  }

  /// A REGION block whose settings are all unknown is still a region (with the defaults); the
  /// writer cannot write it as a bare REGION line, which reads as stray text.
  @Test func aRegionWithOnlyDefaultsIsStillARegion() {
    let document = WebVTTParser.parse("WEBVTT\n\nREGION\nfoo:bar\n\n00:01.000 --> 00:02.000\nhi\n")
    #expect(document.regions == [WebVTTRegion()])
    let written = WebVTTWriter.serialize(document)
    #expect(written.hasPrefix("WEBVTT\n\nREGION\nwidth:100%\n\n"))
    #expect(WebVTTParser.parse(written) == document)
  }

  /// Hours beyond any real time saturate at 99,999,999, in both the common and the general form,
  /// so every time read writes back as the same time (a huge double did not).
  @Test func hugeHoursSaturateAndRoundTrip() {
    #expect(WebVTTTimestamp.parse("99999999:00:00.001") == 99_999_999 * 3600 + 0.001)
    #expect(WebVTTTimestamp.parse("100000000:00:00.000") == 359_999_996_400.0)
    #expect(WebVTTTimestamp.parse("00999999999999999999:59:59.999") == 99_999_999 * 3600 + 3599.999)
    let document = WebVTTParser.parse("WEBVTT\n\n123456789012:00:00.000 --> 99999999:59:59.999\nx\n")
    #expect(document.cues.map(\.startTime) == [99_999_999 * 3600])
    #expect(WebVTTParser.parse(WebVTTWriter.serialize(document)) == document)
  }
}
