import StashFormat
import Testing

/// The one roff escaper, as both man pages use it.
@Suite struct RoffTests {
  @Test func escapesBackslashesHyphensAndALeadingControlCharacter() {
    #expect(Roff.escaped("a\\b") == "a\\eb")
    #expect(Roff.escaped("--no-cache") == "\\-\\-no\\-cache")
    #expect(Roff.escaped(".hidden") == "\\&.hidden")
    #expect(Roff.escaped("'quoted'") == "\\&'quoted'")
    #expect(Roff.escaped("a.b 'c'") == "a.b 'c'")
    #expect(Roff.escaped("plain text") == "plain text")
  }

  @Test func namesGlyphsOnlyWhenAsked() {
    #expect(Roff.escaped("[start → end] Straße") == "[start → end] Straße")
    #expect(Roff.escaped("↑ ↓ ← → ß…", namingGlyphs: true) == "\\(ua \\(da \\(<- \\(-> \\[u00DF]\\[u2026]")
    #expect(Roff.escaped("🎙", namingGlyphs: true) == "\\[u1F399]")
  }
}
