import StashFormat
import Testing

/// Which cue and which word are spoken at a time.
@Suite struct WebVTTLookupTests {
  /// The definition, by brute force: of the cues running at `time`, the latest to start, the later
  /// in the file on a tie.
  private func expected(_ cues: [WebVTTCue], _ time: Double) -> Int? {
    var best: Int? = nil
    for (i, cue) in cues.enumerated() where cue.startTime <= time && time < cue.endTime {
      if let b = best, cues[b].startTime > cue.startTime { continue }
      best = i
    }
    return best
  }

  @Test func matchesTheDefinitionForOverlappingAndUnorderedCues() {
    var random = WebVTTRandom(seed: 99)
    for _ in 0..<200 {
      var cues: [WebVTTCue] = []
      for _ in 0..<random.next(40) {
        let start = random.next(100)
        cues.append(WebVTTCue(startTime: Double(start), endTime: Double(start + random.next(30)), text: "x"))
      }
      if random.chance(50) { cues.sort { $0.startTime < $1.startTime } }
      let document = WebVTTDocument(cues: cues)
      for step in -4..<(140 * 4) {
        let time = Double(step) / 4
        #expect(document.cueIndex(at: time) == expected(cues, time), "t=\(time)")
      }
    }
  }

  @Test func lookupFollowsChangesToTheCues() {
    var document = WebVTTParser.parse(WebVTTFixtures.stashMemo)
    #expect(document.cueIndex(at: 5) == 1)
    #expect(document.cueIndex(at: 50) == nil)
    document.cues[1].endTime = 60
    #expect(document.cueIndex(at: 50) == 1)
    let copy = document
    document.cues.removeAll()
    #expect(document.cueIndex(at: 5) == nil && copy.cueIndex(at: 5) == 1)
  }

  @Test func wordAtTime() throws {
    let document = WebVTTParser.parse(WebVTTFixtures.stashMemo)
    #expect(document.wordPosition(at: 0.5)! == (0, 1))
    #expect(document.wordPosition(at: 2.31)! == (0, 6))
    #expect(document.wordPosition(at: 104.9)! == (2, 5))
    #expect(document.wordPosition(at: 105)! == (2, 6))
    #expect(document.wordPosition(at: 30) == nil)
  }
}
