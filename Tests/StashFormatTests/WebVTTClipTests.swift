import StashFormat
import Testing

/// The transcript of a clip: the cues of a span, timed from its start.
@Suite struct WebVTTClipTests {
  static let transcript = WebVTTDocument(cues: [
    WebVTTCue(id: "1", startTime: 0, endTime: 4, text: "Before the span."),
    WebVTTCue(id: "2", startTime: 8, endTime: 12, text: "Straddles <00:09.000>FROM <00:11.000>here."),
    WebVTTCue(id: "3", startTime: 12, endTime: 15, text: "Inside."),
    WebVTTCue(id: "4", startTime: 19, endTime: 23, text: "Straddles TO."),
    WebVTTCue(id: "5", startTime: 25, endTime: 30, text: "After."),
  ])

  @Test func keepsTheSpansCuesClippedAndTimedFromItsStart() {
    let clipped = Self.transcript.clipped(from: 10, to: 20)
    #expect(clipped.cues.map(\.id) == ["2", "3", "4"])
    #expect(clipped.cues.map(\.startTime) == [0, 2, 9])
    #expect(clipped.cues.map(\.endTime) == [2, 5, 10])
    // The timestamp before the span is dropped; the one inside moves with its cue.
    #expect(clipped.cues[0].text == "Straddles FROM <00:00:01.000>here.")
    #expect(clipped.cues[1].text == "Inside.")
  }

  @Test func aSpanBetweenCuesHasNone() {
    #expect(Self.transcript.clipped(from: 15.5, to: 18).cues.isEmpty)
    #expect(Self.transcript.clipped(from: 4, to: 8).cues.isEmpty)
  }
}
