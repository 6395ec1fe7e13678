import Testing

@testable import StashFormat

/// The number and time texts GPX carries, parsed from bytes and printed back.
@Suite struct GPXValueTextTests {
  @Test func parsesDecimalsExactly() {
    let cases: [(String, Double?)] = [
      ("0", 0), ("-0", -0.0), ("12.5", 12.5), ("+3", 3), ("-0.1", -0.1), (".5", 0.5), ("5.", 5),
      ("  51.4778123 \n", 51.4778123), ("1e3", 1000), ("1.5E-2", 0.015), ("00012", 12),
      ("0.000000000000000000001", 1e-21), ("123456789012345678901234", 123456789012345678901234.0),
      ("51.123456789012345", 51.123456789012345), ("1e400", nil), ("", nil), ("   ", nil), ("-", nil),
      (".", nil), ("1.2.3", nil), ("NaN", nil), ("INF", nil), ("0x10", nil), ("1e", nil), ("1 2", nil),
      ("12a", nil), ("١٢", nil),
    ]
    for (text, expected) in cases {
      let parsed = DecimalText.parse(text)
      #expect(parsed == expected, "\(text)")
      if let parsed, let expected { #expect(parsed.sign == expected.sign, "\(text)") }
    }
  }

  /// `parse` reads plain decimals in a pass of its own and leaves the rest to `general`: on every
  /// text, edge cases of that split and many random ones, both must give the same answer, to the
  /// bit (and the sign of zero), and agree with the standard library on what is a number.
  @Test func plainDecimalsReadAsTheGeneralReaderReadsThem() {
    var texts = [
      "0", "-0", "+0", "0.0", "-0.000", "00", "007", ".5", "5.", "-.5", "+.5", "-5.", ".", "-", "+", "-.",
      "1", "9", "10", "0.1", "0.2", "0.3", "-47.3119789", "-129.1050000", "51.4778123", "12.3", "166.8",
      "9007199254740992", "9007199254740993", "9007199254740991.", "900719925474099.3", "90071992547409.93",
      "1234567890123456789", "12345678901234567890", "0.1234567890123456789", "0.12345678901234567891",
      "9999999999999999999", "99999999999999999999", "18446744073709551615", "18446744073709551616",
      "0.0000000000000000000001", "0.00000000000000000000001", "1.0000000000000000000001",
      "0000000000000000000001", "00000000000000000000001", "1.5e3", "1e-5", "1E5", "1e", "1.2.3", "1-2",
      "--1", "+-1", "1 2", " 1", "1 ", "\t-2.5\n", "12a", "a12", "0x1", "NaN", "inf", "1,5", "١٢", "",
    ]
    var random = GPXSamples.Generator(state: 2_026_1202)
    let alphabet = Array("0123456789.-+eE 1234567890")
    for _ in 0..<20_000 {
      let length = random.int(1...24)
      texts.append(String((0..<length).map { _ in alphabet[random.int(0...(alphabet.count - 1))] }))
      // And numbers as GPX writes them: a sign, up to 20 digits, a point somewhere or nowhere.
      let digits = String((0..<random.int(1...20)).map { _ in alphabet[random.int(0...9)] })
      let point = random.int(0...digits.count + 1)
      var number = digits
      if point <= digits.count { number.insert(".", at: number.index(number.startIndex, offsetBy: point)) }
      texts.append((random.chance(0.3) ? "-" : "") + number)
    }
    for text in texts {
      let fast = DecimalText.parse(text)
      var trimmed = Array(text.utf8)
      while let last = trimmed.last, DecimalText.isSpace(last) { trimmed.removeLast() }
      while let first = trimmed.first, DecimalText.isSpace(first) { trimmed.removeFirst() }
      let slow = trimmed.withUnsafeBufferPointer { DecimalText.general($0) }
      #expect(fast?.bitPattern == slow?.bitPattern, "\(text)")
      // The standard library reads the same texts (it also takes a few that XML Schema does not:
      // hex, inf, nan, and no digit before an exponent's sign, none of them generated here).
      let plain = String(decoding: trimmed, as: UTF8.self)
      if let fast, !plain.isEmpty { #expect(Double(plain) == fast, "\(text)") }
    }
  }

  /// The reader's initializer for a new point leaves every field as the general one does.
  @Test func aPointMadeForReadingIsAPointWithOnlyItsPosition() {
    for (latitude, longitude) in [(0.0, 0.0), (-47.3119789, -129.105), (90, 180), (-0.0, 1e-7)] {
      let fast = GPXPoint(reading: latitude, longitude)
      let general = GPXPoint(latitude: latitude, longitude: longitude)
      #expect(fast == general)
      #expect(fast.latitude.bitPattern == latitude.bitPattern)
      #expect(fast.longitude.bitPattern == longitude.bitPattern)
      #expect(fast.elevation == nil && fast.time == nil && fast.timeHadZone == nil && fast.speed == nil)
      #expect(fast.course == nil && fast.horizontalAccuracy == nil && fast.hdop == nil)
      #expect(fast.name == nil && fast.description == nil && fast.location == nil)
    }
  }

  @Test func printsShortestDecimalsWithoutExponents() {
    let cases: [(Double, String)] = [
      (0, "0"), (-0.0, "-0"), (12.5, "12.5"), (5, "5"), (0.00001, "0.00001"), (1.5e-7, "0.00000015"),
      (1e16, "10000000000000000"), (1.25e17, "125000000000000000"), (-51.4778123, "-51.4778123"),
      (0.1 + 0.2, "0.30000000000000004"),
    ]
    for (value, text) in cases { #expect(DecimalText.format(value) == text, "\(value)") }
    // Whatever is printed reads back as the same Double.
    var random = GPXSamples.Generator(state: 42)
    for _ in 0..<2000 {
      let value = Double(bitPattern: random.next() >> 2) * (random.chance(0.5) ? 1 : -1)
      guard value.isFinite else { continue }
      #expect(DecimalText.parse(DecimalText.format(value)) == value, "\(value)")
    }
  }

  @Test func parsesDateTimesIntoAbsoluteSeconds() {
    let cases: [(String, Double?, Bool?)] = [
      ("1970-01-01T00:00:00Z", 0, true), ("2026-05-01T07:30:00Z", 1_777_620_600, true),
      ("2026-05-01T07:30:00.125Z", 1_777_620_600.125, true),
      ("2026-05-01T09:30:00+02:00", 1_777_620_600, true), ("2026-05-01T02:00:00-05:30", 1_777_620_600, true),
      ("2026-05-01T07:30:00", 1_777_620_600, false), ("2026-05-01t07:30:00z", 1_777_620_600, true),
      ("2024-02-29T12:00:00Z", 1_709_208_000, true), ("1969-12-31T23:59:59Z", -1, true),
      ("2026-05-01T24:00:00Z", 1_777_680_000, true),
      ("2026-05-01T07:30:00.123456789Z", 1_777_620_600.123456789, true),
      (" 2026-05-01T07:30:00Z\n", 1_777_620_600, true),
      ("2023-02-29T12:00:00Z", nil, nil), ("2026-13-01T00:00:00Z", nil, nil),
      ("2026-05-01 07:30:00Z", nil, nil),
      ("2026-05-01T07:30Z", nil, nil), ("2026-05-01T07:30:00.Z", nil, nil),
      ("2026-05-01T24:00:01Z", nil, nil),
      ("2026-05-01T07:30:00+15:00", nil, nil), ("2026-05-01T07:30:00Zjunk", nil, nil), ("", nil, nil),
      ("yesterday", nil, nil), ("2026-05-01", nil, nil),
    ]
    for (text, seconds, hadZone) in cases {
      let parsed = ISO8601Time.parse(text)
      #expect(parsed?.seconds == seconds, "\(text)")
      #expect(parsed?.hadZone == hadZone, "\(text)")
    }
  }

  @Test func printsUTCWithTheFractionKept() {
    #expect(ISO8601Time.format(0) == "1970-01-01T00:00:00Z")
    #expect(ISO8601Time.format(1_777_620_600.125) == "2026-05-01T07:30:00.125Z")
    #expect(ISO8601Time.format(1_777_620_600.5, zone: false) == "2026-05-01T07:30:00.5")
    #expect(ISO8601Time.format(1_777_620_600.123456) == "2026-05-01T07:30:00.123456Z")
    #expect(ISO8601Time.format(1_777_620_599.9999999) == "2026-05-01T07:30:00Z")
    #expect(ISO8601Time.format(-0.5) == "1969-12-31T23:59:59.5Z")
    #expect(ISO8601Time.format(951_782_400) == "2000-02-29T00:00:00Z")
    // Every millisecond time prints and parses back to the same Double.
    var random = GPXSamples.Generator(state: 7)
    for _ in 0..<2000 {
      let time = Double(random.int(-2_000_000_000...4_000_000_000)) + Double(random.int(0...999)) / 1000
      #expect(ISO8601Time.parse(ISO8601Time.format(time))?.seconds == time, "\(time)")
    }
    // The calendar arithmetic agrees with itself across four centuries, day by day.
    for day in stride(from: -146_097, through: 146_097, by: 1) {
      let (year, month, dayOfMonth) = ISO8601Time.civilFromDays(day)
      if ISO8601Time.daysFromCivil(year: year, month: month, day: dayOfMonth) != day {
        Issue.record("day \(day) does not round-trip")
        break
      }
    }
  }
}
