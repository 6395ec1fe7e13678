import StashFormat
import Testing

/// `WebVTTParser.check`, lint's reading of a transcript: the same problems, cue times, settings
/// and lines as `parse`, with no identifier or text kept for any cue.
@Suite struct WebVTTCheckTests {
  /// Whole documents, some with every kind of block and setting, then the same bytes damaged.
  static func inputs() -> [[UInt8]] {
    var texts = [WebVTTFixtures.kitchenSink, WebVTTFixtures.stashMemo, WebVTTFixtures.stashPart]
    var random = WebVTTRandom(seed: 20)
    for _ in 0..<150 { texts.append(WebVTTWriter.serialize(random.document())) }
    var inputs = texts.map { Array($0.utf8) }
    // Damage: bytes dropped, swapped for `-->`, a CR, a NUL, a broken UTF-8 sequence.
    let damage: [[UInt8]] = [[], Array("-->".utf8), [0x0D], [0], [0xC3], Array("\n\n".utf8)]
    for index in inputs.indices where !inputs[index].isEmpty {
      var bytes = inputs[index]
      for _ in 0..<4 {
        let at = random.next(bytes.count)
        bytes.replaceSubrange(at..<min(bytes.count, at + random.next(4)), with: random.pick(damage))
      }
      inputs.append(bytes)
    }
    return inputs
  }

  @Test func checkFindsWhatParseFindsWithoutTheCueTexts() {
    var texts = 0
    for bytes in Self.inputs() {
      let parsed = WebVTTParser.parse(bytes)
      let checked = WebVTTParser.check(bytes)
      #expect(checked.diagnostics == parsed.diagnostics)
      #expect(checked.cueLines == parsed.cueLines)
      #expect(checked.cues.count == parsed.cues.count)
      // With the identifiers and texts put back, every cue is the one parse gives.
      var restored = checked.cues
      for index in restored.indices where index < parsed.cues.count {
        #expect(restored[index].id.isEmpty && restored[index].text.isEmpty)
        restored[index].id = parsed.cues[index].id
        restored[index].text = parsed.cues[index].text
      }
      #expect(restored == parsed.cues)
      texts += parsed.cues.filter { !$0.text.isEmpty }.count
    }
    // The inputs have cue texts to leave out.
    #expect(texts > 500)
  }
}
