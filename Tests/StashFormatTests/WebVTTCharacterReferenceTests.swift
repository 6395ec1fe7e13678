import Testing

@testable import StashFormat

/// Named character references: the few common ones are known without the table, and must read
/// exactly as the table reads them.
@Suite struct WebVTTCharacterReferenceTests {
  /// The longest-prefix rule straight from the table, as the reference to compare against.
  private func fromTable(_ text: String) -> WebVTTCharacterReference.Match? {
    let bytes = Array(text.utf8)
    var end = 0
    while end < bytes.count, end < WebVTTCharacterReference.longestName,
      bytes[end] < 0x80,
      Character(Unicode.Scalar(bytes[end])).isLetter || Character(Unicode.Scalar(bytes[end])).isNumber
    {
      end += 1
    }
    if end < bytes.count, end < WebVTTCharacterReference.longestName, bytes[end] == UInt8(ascii: ";") {
      end += 1
    }
    for length in stride(from: end, to: 0, by: -1) {
      if let value = WebVTTCharacterReference.names[String(decoding: bytes[0..<length], as: UTF8.self)] {
        return .init(text: value, next: length, wellFormed: bytes[length - 1] == UInt8(ascii: ";"))
      }
    }
    return nil
  }

  @Test func theCommonNamesAreWhatTheTableSays() {
    #expect(WebVTTCharacterReference.commonNames.count == 8)
    for entry in WebVTTCharacterReference.commonNames {
      #expect(WebVTTCharacterReference.names["\(entry.name)"] == entry.text, "\(entry.name)")
    }
  }

  @Test func namesReadAsTheTableReadsThem() {
    var texts: [String] = []
    for entry in WebVTTCharacterReference.commonNames {
      let name = "\(entry.name)"
      let bare = String(name.dropLast())
      texts += [
        name, bare, name + "x", bare + "x;", bare + "x", name + ";", bare.uppercased() + ";", bare + " ;",
      ]
    }
    texts += [
      "ampamp;", "notin;", "notit;", "not", "ltlt;", "AMP;", "AMP", "amp", "lt", "gt", "nbsp", "xyz;", ";",
    ]
    for text in texts {
      let got = Array(text.utf8).withUnsafeBufferPointer {
        WebVTTCharacterReference.consume($0, at: 0, end: $0.count)
      }
      let expected = fromTable(text)
      #expect(got?.text == expected?.text, "\(text)")
      #expect(got?.next == expected?.next, "\(text)")
      #expect(got?.wellFormed == expected?.wellFormed, "\(text)")
    }
  }
}
