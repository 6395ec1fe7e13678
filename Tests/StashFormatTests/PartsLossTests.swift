import StashFormat
import Testing

/// `PartsLoss`: what a killed recording's parts lost, read from their bytes (FORMAT.md §6.6).
@Suite struct PartsLossTests {
  /// A transcript part covering `span` with one cue per entry of `cues` (start, end, words).
  static func vtt(_ span: (Double, Double)?, _ cues: [(Double, Double, String)]) -> String {
    func stamp(_ t: Double) -> String {
      let ms = Int((t * 1000).rounded())
      func pad(_ n: Int, _ width: Int) -> String {
        String(repeating: "0", count: max(0, width - String(n).count)) + String(n)
      }
      return
        "\(pad(ms / 3_600_000, 2)):\(pad(ms / 60000 % 60, 2)):\(pad(ms / 1000 % 60, 2)).\(pad(ms % 1000, 3))"
    }
    var text = "WEBVTT\n\n"
    if let span { text += "NOTE stash part \(stamp(span.0)) \(stamp(span.1))\n\n" }
    for cue in cues { text += "\(stamp(cue.0)) --> \(stamp(cue.1))\n\(cue.2)\n\n" }
    return text
  }

  static func parts(_ texts: [Int: String]) -> [(number: Int, bytes: [UInt8])] {
    texts.keys.sorted().map { (number: $0, bytes: Array(texts[$0]!.utf8)) }
  }

  static let one = vtt((0, 60), [(1, 5, "The path starts at the gate."), (50, 58, "Left at the old well.")])
  static let two = vtt((60, 120), [(61, 70, "Past the two oak trees."), (110, 118, "The bench is broken.")])
  static let three = vtt(
    (120, 180), [(121, 130, "Back along the stream."), (150, 158, "Home before the rain.")])

  @Test func aLastPartTornMidCueLosesTheWordsAfterThatCuesStartAndIsNoGap() {
    // Cut inside the words of the cue at 2:30.
    let torn = String(Self.three.dropLast(12))
    #expect(!torn.hasSuffix("\n"))
    let loss = PartsLoss.read(.transcript, parts: Self.parts([1: Self.one, 2: Self.two, 3: torn]))
    #expect(loss.stretches == [.init(cause: .tornEnd(part: 3, insideItem: true), start: 150, end: nil)])
    #expect(
      loss.sentences == [
        "the last transcript part (transcription.0003.vtt) ends mid-cue at 2:30: the transcript after that is lost"
      ])
  }

  @Test func aLastPartTornInsideATimingLineLosesWhatCameAfterTheLastWholeCue() {
    let torn = Self.vtt((120, 180), [(121, 130, "Back along the stream.")]) + "00:02:30.000 --> 00:02:3"
    let loss = PartsLoss.read(.transcript, parts: Self.parts([1: Self.one, 2: Self.two, 3: torn]))
    #expect(loss.stretches == [.init(cause: .tornEnd(part: 3, insideItem: true), start: 130, end: nil)])
  }

  @Test func aLastPartTornBetweenCuesSaysSoAtTheLastWholeCuesEnd() {
    let torn = Self.vtt((120, 180), [(121, 130, "Back along the stream.")]) + "NOTE half a comm"
    let loss = PartsLoss.read(.transcript, parts: Self.parts([1: Self.one, 2: Self.two, 3: torn]))
    #expect(loss.stretches == [.init(cause: .tornEnd(part: 3, insideItem: false), start: 130, end: nil)])
    #expect(loss.sentences.first?.contains("is torn after its last whole cue, at 2:10") == true)
  }

  @Test func aMissingNumberIsAGapFromThePartBeforeToThePartAfter() {
    let loss = PartsLoss.read(.transcript, parts: Self.parts([1: Self.one, 3: Self.three]))
    #expect(
      loss.stretches == [
        .init(cause: .gap(absent: [2], unreadable: [], tornBefore: nil), start: 60, end: 120)
      ])
    #expect(
      loss.sentences == [
        "transcription.0002.vtt never landed: a gap, the transcript from 1:00 to 2:00 is lost"
      ])
  }

  @Test func aTornPartInTheMiddleIsAGapFromItsTearToTheNextPart() {
    let torn = String(Self.two.dropLast(5))
    let loss = PartsLoss.read(.transcript, parts: Self.parts([1: Self.one, 2: torn, 3: Self.three]))
    #expect(
      loss.stretches == [.init(cause: .gap(absent: [], unreadable: [], tornBefore: 2), start: 110, end: 120)])
  }

  @Test func anUnreadablePartSaysWhy() {
    let loss = PartsLoss.read(.transcript, parts: Self.parts([1: Self.one, 2: "garbage\n", 3: Self.three]))
    #expect(
      loss.stretches == [
        .init(cause: .gap(absent: [], unreadable: [2], tornBefore: nil), start: 60, end: 120)
      ])
    #expect(
      loss.sentences.first?.hasPrefix("transcription.0002.vtt cannot be read (not a WebVTT file)") == true)
  }

  @Test func wholePartsLoseNothing() {
    let loss = PartsLoss.read(.transcript, parts: Self.parts([1: Self.one, 2: Self.two, 3: Self.three]))
    #expect(loss.isEmpty)
    #expect(loss.summary == "every transcript part landed and reads whole")
  }

  static func gpx(_ points: [(Double, String)]) -> String {
    var text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>

      """
    for point in points { text += "<trkpt lat=\"1.0\" lon=\"2.0\"><time>\(point.1)</time></trkpt>\n" }
    return text + "</trkseg></trk></gpx>\n"
  }

  @Test func aLastRoutePartTornMidPointLosesTheWalkAfterItsLastPoint() {
    let one = Self.gpx([(0, "2026-04-03T09:00:00Z"), (0, "2026-04-03T09:00:05Z")])
    let whole = Self.gpx([
      (0, "2026-04-03T09:01:00Z"), (0, "2026-04-03T09:02:38Z"), (0, "2026-04-03T09:02:48Z"),
    ])
    // Torn inside the third point.
    let torn = String(whole[..<whole.range(of: "2026-04-03T09:02:48")!.lowerBound])
    let loss = PartsLoss.read(.route, parts: Self.parts([1: one, 2: torn]))
    #expect(loss.stretches.map(\.cause) == [.tornEnd(part: 2, insideItem: true)])
    #expect(
      loss.sentences == [
        "the last route part (track.0002.gpx) ends mid-point at 09:02:38 UTC: the route after that is lost"
      ])
  }
}
