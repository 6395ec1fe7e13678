import Foundation
import StashFormat
import Testing

@Suite struct JSONValueTests {
  @Test func keepsKeyOrderAndEscapes() throws {
    let value = JSONValue.object([
      ("b", .string("line\nbreak \"quoted\" \u{1b}")), ("a", .array([.int(1), .double(1.5), .null])),
    ])
    let text = value.serialized()
    #expect(text == #"{"b":"line\nbreak \"quoted\" \u001b","a":[1,1.5,null]}"#)
    // Foundation's parser must accept what we write, with the same values.
    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    #expect(parsed?["b"] as? String == "line\nbreak \"quoted\" \u{1b}")
  }

  @Test func nonFiniteNumbersBecomeNull() {
    #expect(JSONValue.array([.double(.nan), .double(.infinity), .double(2)]).serialized() == "[null,null,2]")
  }

  @Test func pathTextEscapesControlsAndInvalidUTF8() {
    #expect(PathText.escaped("a\nb\u{1b}c") == #"a\nb\x1bc"#)
    #expect(PathText.escaped("a\\b") == #"a\\b"#)
    // A right-to-left override or an isolate would turn the rest of the line around; marks stay.
    #expect(PathText.escaped("abc\u{202E}fed") == #"abc\u{202E}fed"#)
    #expect(
      PathText.escaped("\u{2067}שלום\u{2069} \u{200F}x “y” – z") == #"\u{2067}שלום\u{2069} "#
        + "\u{200F}x “y” – z")
    #expect(PathText.escaped("del\u{7f} c1\u{85} nbsp\u{a0}") == #"del\x7f c1\x85 nbsp"# + "\u{a0}")
    // Names with nothing to escape come back whole, whatever their script.
    for name in ["2026-04-01T09-00-00_audio.m4a", "散歩 メモ", "שלום 🎙️", "café ¡olé!"] {
      #expect(PathText.escaped(name) == name)
    }
    #expect(PathText.decode([0x61, 0xFF, 0x62]) == #"a\xffb"#)
    #expect(PathText.decode(Array("é".utf8)) == "é")
  }
}
