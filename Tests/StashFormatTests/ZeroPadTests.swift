import StashFormat
import Testing

/// The one zero-pad, as text and as bytes.
@Suite struct ZeroPadTests {
  func bytes(_ value: Int, _ width: Int) -> String {
    var out = Array("=".utf8)
    Text.appendZeroPadded(value, width: width, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  @Test func padsToTheWidthAndNoFurther() {
    #expect(Text.zeroPadded(7, width: 2) == "07")
    #expect(Text.zeroPadded(999, width: 4) == "0999")
    #expect(Text.zeroPadded(0, width: 3) == "000")
    #expect(Text.zeroPadded(12_345, width: 4) == "12345")
    #expect(Text.zeroPadded(5, width: 0) == "5")
    #expect(Text.zeroPadded("f", width: 2) == "0f")
    #expect(Text.zeroPadded("abc", width: 2) == "abc")
  }

  @Test func aNegativeValueKeepsItsSignFirst() {
    #expect(Text.zeroPadded(-5, width: 2) == "-05")
    #expect(Text.zeroPadded(-123, width: 2) == "-123")
    #expect(Text.zeroPadded(Int.min, width: 2) == String(Int.min))
    #expect(Text.zeroPadded(Int.max, width: 2) == String(Int.max))
  }

  @Test func appendsTheSameBytesAfterWhatIsThere() {
    for (value, width) in [(7, 2), (999, 4), (0, 3), (12_345, 4), (-5, 2), (Int.min, 4), (Int.max, 30)] {
      #expect(bytes(value, width) == "=" + Text.zeroPadded(value, width: width))
    }
    #expect(bytes(3, 3) == "=003")
  }
}
