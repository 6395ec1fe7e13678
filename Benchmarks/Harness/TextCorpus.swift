import StashFormat

/// Transcript and route text like the phone writes, made with the project's own writers where a
/// document model exists (routes, parts) and by the same rules as the WebVTT speed script for the
/// large transcript set (karaoke word times, unconfirmed words, the odd character reference).
enum TextCorpus {
  static let words = [
    "so", "the", "path", "goes", "along", "river", "and", "then", "we", "turned", "left", "at",
    "bridge", "where", "old", "mill", "used", "to", "be", "remember", "buy", "bread", "tomorrow", "morning",
  ]

  /// Rarer words than `words`, a hundred made-up place names (`babane` … `vovone`): a memo
  /// folder's corpus says one of them in each memo (`withRareWord`), so each is in about 1 % of
  /// the memos, as a name or a rare word is in real speech.
  static let rareWords: [String] = {
    let syllables = ["ba", "ke", "lo", "mi", "nu", "pa", "ro", "si", "tu", "vo"]
    return (0..<100).map { syllables[$0 / 10] + syllables[$0 % 10] + "ne" }
  }()

  /// `text` (a transcript) with the rare word `seed` picks said first in its first cue.
  static func withRareWord(_ text: String, seed: UInt64) -> String {
    guard let timing = text.range(of: " --> "), let lineEnd = text[timing.upperBound...].firstIndex(of: "\n")
    else { return text }
    var said = text
    said.insert(contentsOf: rareWords[Int(seed &* 2_654_435_761 % 100)] + " ", at: text.index(after: lineEnd))
    return said
  }

  /// A transcript of `seconds` of speech: a cue every few seconds, three in ten with a timestamp
  /// per word, one in ten ending in unconfirmed words. Every cue ends within `seconds`; none falls in
  /// `missingSpeech` (a span the app noted it has no words for, by default minute 10 to 11).
  static func transcript(
    seconds: Double, seed: UInt64, missingSpeech: ClosedRange<Double>? = 600...660
  ) -> String {
    var random = Random(seed: seed)
    var text = "WEBVTT\n\n"
    if let gap = missingSpeech {
      text +=
        "NOTE stash missing-speech \(WebVTTTimestamp.format(gap.lowerBound)) "
        + "\(WebVTTTimestamp.format(gap.upperBound))\n\n"
    }
    var ms = 0
    var index = 1
    while Double(ms) < seconds * 1000 - 5000 {
      if let gap = missingSpeech, Double(ms) + 5000 > gap.lowerBound * 1000,
        Double(ms) < gap.upperBound * 1000
      {
        ms = Int(gap.upperBound * 1000) + 200
        continue
      }
      let start = ms
      let length = 1500 + random.below(3500)
      ms += length + random.below(400)
      let count = 4 + random.below(10)
      let kind = random.below(10)
      var line = ""
      for w in 0..<count {
        if w > 0 { line += " " }
        let word = words[random.below(words.count)]
        if kind < 3 && w > 0 {
          line += "<" + WebVTTTimestamp.format(Double(start + w * length / count) / 1000) + ">"
        }
        if kind == 9 && w >= count / 2 {
          line += w == count / 2 ? "<c.unconfirmed>" + word : word
          if w == count - 1 { line += "</c>" }
        } else {
          line += word
        }
      }
      if random.below(50) == 0 { line += " &amp; more" }
      text +=
        "\(index)\n\(WebVTTTimestamp.format(Double(start) / 1000)) --> "
        + "\(WebVTTTimestamp.format(Double(start + length) / 1000))\n\(line)\n\n"
      index += 1
    }
    return text
  }

  /// A walk of `count` points `step` seconds apart with every field the phone writes (in two
  /// segments when `split`), written by GPXWriter.
  static func route(
    points count: Int, step: Double, seed: UInt64, start: Double = 1_780_000_000, split: Bool = true
  ) -> String {
    var random = Random(seed: seed)
    var latitude = 40 + random.unit() * 20
    var longitude = -10 + random.unit() * 30
    var elevation = random.unit() * 500
    var time = start
    var points: [GPXPoint] = []
    points.reserveCapacity(count)
    for _ in 0..<count {
      latitude += (random.unit() - 0.5) * 0.0002
      longitude += (random.unit() - 0.5) * 0.0002
      elevation += (random.unit() - 0.5) * 2
      time += step
      var point = GPXPoint(
        latitude: (latitude * 1e7).rounded() / 1e7, longitude: (longitude * 1e7).rounded() / 1e7,
        elevation: (elevation * 10).rounded() / 10, time: time + Double(random.below(1000)) / 1000)
      point.speed = (random.unit() * 300).rounded() / 100
      point.course = (random.unit() * 3600).rounded() / 10
      point.horizontalAccuracy = (random.unit() * 200).rounded() / 10 + 3
      points.append(point)
    }
    let half = count / 2
    let segments =
      split && count > 1
      ? [GPXSegment(points: Array(points[..<half])), GPXSegment(points: Array(points[half...]))]
      : [GPXSegment(points: points)]
    let track = GPXTrack(name: "Walk \(seed)", segments: segments)
    return GPXWriter.serialize(
      GPXDocument(
        creator: "stash benchmark", metadata: GPXMetadata(name: "Walk \(seed)", time: start),
        tracks: [track]))
  }

  /// Transcript part `number` (from 1) of a capture: eight cues over its minute, with its
  /// `NOTE stash part` span, written by WebVTTWriter.
  static func transcriptPart(_ number: Int) -> String {
    let start = Double(number - 1) * 60
    var cues: [WebVTTCue] = []
    for cue in 0..<8 {
      let t = start + Double(cue) * 7.5
      var text = "Words spoken in part \(number), sentence \(cue + 1), as a walk goes on."
      if cue == 7 { text = "and then <c.unconfirmed>we turned left</c>" }
      cues.append(WebVTTCue(startTime: t + 0.2, endTime: t + 7, text: text))
    }
    return WebVTTWriter.serialize(
      WebVTTDocument(cues: cues, partSpan: WebVTTTimeSpan(start: start, end: start + 60)))
  }

  /// Route part `number` (from 1): a point every ten seconds over its minute, written by GPXWriter.
  static func routePart(_ number: Int) -> String {
    route(
      points: 6, step: 10, seed: UInt64(number), start: 1_775_034_000 + Double(number - 1) * 60, split: false)
  }
}
