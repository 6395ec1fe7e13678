import Foundation
import StashFormat
import Testing

/// `JSONWriter`, the one JSON encoder, against the tree encoder it replaced (kept here, as it was,
/// as the reference): the same bytes for awkward strings, numbers and nesting, compact and pretty;
/// and a memo written straight to bytes as its tree is written.
@Suite struct JSONWriterTests {
  /// Strings that take every way through the escaping: controls, DEL, U+2028/U+2029 and other
  /// characters whose UTF-8 starts with 0xE2, quotes, backslashes, NFC and NFD, emoji sequences,
  /// names that were not valid UTF-8 (as `PathText.decode` gives them), and long runs.
  static let awkwardStrings: [String] = {
    var strings = [
      "", "plain", "quote \" and backslash \\", "line\nbreak\rreturn\ttab\u{08}back\u{0C}feed",
      "\u{00}nul \u{01}\u{1f} esc \u{1b}[31m red", "del \u{7f}", "separators \u{2028} \u{2029}",
      "e2 lead: € … ‘’ “” ⁂ \u{2027} \u{202A}", "café", "cafe\u{301}", "한국어", "\u{1100}\u{1161}\u{11A8}",
      "🎙️ 👩‍👩‍👧 🇫🇷 🏳️‍🌈", "\u{FEFF}bom", "\u{FFFD}", "\u{10FFFF}",
      PathText.decode([0x61, 0xFF, 0x62, 0xC0, 0x80, 0xED, 0xA0, 0x80]),
      String(repeating: "long ", count: 400) + "\u{1b}",
    ]
    for byte in 0..<0x20 { strings.append("a" + String(UnicodeScalar(UInt8(byte))) + "b") }
    return strings
  }()

  static let numbers: [JSONValue] = [
    .int(0), .int(-1), .int(Int.max), .int(Int.min), .int(1_000_000_000_000_000),
    .double(0), .double(-0.0), .double(1), .double(-2.5), .double(0.1), .double(1e-7), .double(123456.789),
    .double(1e15), .double(1e15 - 1), .double(-1e15), .double(9.007_199_254_740_993e15), .double(1.7e308),
    .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude), .double(.nan), .double(.infinity),
    .double(-.infinity), .seconds(1234.5678905), .seconds(1e-7), .metres(12.3456),
  ]

  static var awkwardValue: JSONValue {
    .object([
      ("strings", .array(awkwardStrings.map(JSONValue.string))),
      ("numbers", .array(numbers)),
      ("empty object", .object([])), ("empty array", .array([])),
      (
        "nested",
        .array([.array([]), .object([("a", .object([]))]), .array([.null, .bool(true), .bool(false)])])
      ),
      ("keys", .object(awkwardStrings.enumerated().map { ("\($0.offset) \($0.element)", .int($0.offset)) })),
    ])
  }

  @Test(arguments: [false, true]) func treesWriteAsTheOldEncoderWroteThem(pretty: Bool) {
    #expect(!Self.awkwardStrings.isEmpty && !Self.numbers.isEmpty)
    let value = Self.awkwardValue
    #expect(value.serialized(pretty: pretty) == ReferenceEncoder.serialized(value, pretty: pretty))
    for string in Self.awkwardStrings {
      #expect(
        JSONValue.string(string).serialized() == ReferenceEncoder.serialized(.string(string), pretty: false))
    }
    for number in Self.numbers {
      #expect(number.serialized() == ReferenceEncoder.serialized(number, pretty: false), "\(number)")
    }
    for scalar in [JSONValue.null, .bool(true), .string("top"), .array([]), .object([])] {
      #expect(scalar.serialized(pretty: pretty) == ReferenceEncoder.serialized(scalar, pretty: pretty))
    }
  }

  /// What is written reads back as what was written (Foundation's parser).
  @Test func awkwardStringsReadBack() throws {
    // Foundation's parser drops a U+FEFF at the start of a string value (the old encoder's text
    // and ours keep it, as the test above shows), so that string is left out here.
    let strings = Self.awkwardStrings.filter { !$0.hasPrefix("\u{FEFF}") }
    let text = JSONValue.array(strings.map(JSONValue.string)).serialized()
    let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String])
    #expect(parsed == strings)
  }

  /// The calls a listing makes, written straight to bytes, give the text of the tree they build.
  @Test(arguments: [false, true]) func writerAndTreeAgree(pretty: Bool) {
    func describe(_ out: inout some JSONOutput) {
      out.beginObject()
      out.key("a")
      out.beginArray()
      for string in Self.awkwardStrings.prefix(8) { out.string(string) }
      out.int(nil as Int?)
      out.seconds(1.0000004)
      out.double(.nan)
      out.endArray()
      out.key("empty")
      out.beginObject()
      out.endObject()
      out.key("strings")
      out.strings([] as [String])
      out.key("tree")
      out.value(Self.awkwardValue)
      out.key("last")
      out.bool(false)
      out.endObject()
    }
    var tree = JSONTree()
    describe(&tree)
    var writer = JSONWriter(pretty: pretty)
    describe(&writer)
    #expect(
      String(decoding: writer.bytes, as: UTF8.self) == ReferenceEncoder.serialized(tree.value, pretty: pretty)
    )
  }

  /// Dates in UTC are the text ISO 8601 gives them (Python's `datetime` for the whole seconds):
  /// whole and fractional seconds (milliseconds that round to 0 or 1000 are left out), before
  /// 1970, years below 1000 and 100 and 10, and the far future; a JSON writer writes the same text
  /// quoted, and a tree holds it.
  @Test func datesAreISO8601() {
    let utc: [(Double, String)] = [
      (0, "1970-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"), (-0.5, "1969-12-31T23:59:59.500Z"),
      (1_741_939_512, "2025-03-14T08:05:12Z"), (1_741_939_512.25, "2025-03-14T08:05:12.250Z"),
      (1_741_939_512.0004, "2025-03-14T08:05:12Z"), (1_741_939_512.9996, "2025-03-14T08:05:12Z"),
      (1_741_939_512.999, "2025-03-14T08:05:12.999Z"), (1_741_939_512.001, "2025-03-14T08:05:12.001Z"),
      (978_307_200, "2001-01-01T00:00:00Z"), (-2_208_988_800, "1900-01-01T00:00:00Z"),
      (-30_610_224_000, "1000-01-01T00:00:00Z"), (-59_011_459_200, "0100-01-01T00:00:00Z"),
      (-61_851_600_000, "0010-01-01T00:00:00Z"), (-62_135_596_800, "0001-01-01T00:00:00Z"),
      (253_402_300_799, "9999-12-31T23:59:59Z"), (4_102_444_800.5, "2100-01-01T00:00:00.500Z"),
    ]
    for (seconds, expected) in utc {
      #expect(RecordingDate.isoUTC(seconds) == expected, "\(seconds)")
    }
    var instants = utc.map(\.0)
    var random = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      instants.append(Double.random(in: -62_000_000_000...253_000_000_000, using: &random))
    }
    for seconds in instants {
      for local in [false, true] {
        var writer = JSONWriter()
        writer.recordingDate(seconds, local: local)
        let expected = local ? RecordingDate.isoLocal(seconds) : RecordingDate.isoUTC(seconds)
        #expect(
          String(decoding: writer.bytes, as: UTF8.self) == "\"\(expected)\"", "\(seconds) local \(local)")
        var tree = JSONTree()
        tree.recordingDate(seconds, local: local)
        #expect(tree.value == .string(expected))
      }
    }
  }

  /// Each memo of a folder with every kind of memo, written as the listing writes it, gives the
  /// bytes its tree gave through the old encoder.
  @Test func memosWriteAsTheirTreesDid() throws {
    let folder = try FolderScratch("json-writer")
    defer { folder.remove() }
    try folder.write("2026-03-14T08-05-12Z_audio.m4a")
    try folder.write("2026-03-14T08-05-12Z_transcription.vtt", "not webvtt")
    try folder.write("2026-03-14T08-05-12Z_track.gpx", "<gpx>")
    try folder.write("2026-03-14T08-05-12Z_title.txt", "quote \" \u{1b} 🎙️\nsecond line")
    try folder.write("cafe\u{301} walk_audio.m4a", "")
    try folder.folder("2024-01-01T00-00-00Z.parts")
    try folder.write("2024-01-01T00-00-00Z.parts/transcription.0001.vtt", "WEBVTT\n")
    try folder.write("2024-01-01T00-00-00Z.parts/stranger \u{7}", "x")
    let memos = try MemoFolder.read(path: folder.path).memos
    #expect(memos.count == 3)
    for memo in memos {
      var writer = JSONWriter()
      memo.writeJSON(to: &writer)
      #expect(
        String(decoding: writer.bytes, as: UTF8.self) == ReferenceEncoder.serialized(memo.json, pretty: false)
      )
    }
    // Between them they take every branch: a title, problems, a parts folder with a stranger, a
    // capture. (A name that is not UTF-8 is no memo's: the folder lists it among the others.)
    #expect(memos.contains { $0.title != nil } && memos.contains { !$0.problems.isEmpty })
    #expect(memos.contains { $0.parts?.strangers.isEmpty == false } && memos.contains { !$0.hasAudio })
  }
}

/// The tree encoder `JSONValue` had before `JSONWriter`, unchanged: the reference the writer must match.
private enum ReferenceEncoder {
  static func serialized(_ value: JSONValue, pretty: Bool) -> String {
    var out: [UInt8] = []
    write(value, to: &out, pretty: pretty, indent: 0)
    return String(decoding: out, as: UTF8.self)
  }

  static func write(_ value: JSONValue, to out: inout [UInt8], pretty: Bool, indent: Int) {
    switch value {
    case .null: out += "null".utf8
    case .bool(let b): out += (b ? "true" : "false").utf8
    case .int(let i): out += String(i).utf8
    case .double(let d): out += format(d).utf8
    case .string(let s): writeString(s, to: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]".utf8
        return
      }
      out.append(UInt8(ascii: "["))
      for (n, item) in items.enumerated() {
        if n > 0 { out.append(UInt8(ascii: ",")) }
        if pretty { newline(&out, indent: indent + 2) }
        write(item, to: &out, pretty: pretty, indent: indent + 2)
      }
      if pretty { newline(&out, indent: indent) }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      if members.isEmpty {
        out += "{}".utf8
        return
      }
      out.append(UInt8(ascii: "{"))
      for (n, (key, member)) in members.enumerated() {
        if n > 0 { out.append(UInt8(ascii: ",")) }
        if pretty { newline(&out, indent: indent + 2) }
        writeString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        if pretty { out.append(UInt8(ascii: " ")) }
        write(member, to: &out, pretty: pretty, indent: indent + 2)
      }
      if pretty { newline(&out, indent: indent) }
      out.append(UInt8(ascii: "}"))
    }
  }

  static func newline(_ out: inout [UInt8], indent: Int) {
    out.append(UInt8(ascii: "\n"))
    out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
  }

  static func format(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
  }

  static func writeString(_ s: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\"".utf8
      case "\\": out += "\\\\".utf8
      case "\n": out += "\\n".utf8
      case "\r": out += "\\r".utf8
      case "\t": out += "\\t".utf8
      case "\u{08}": out += "\\b".utf8
      case "\u{0C}": out += "\\f".utf8
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value) {
          let hex = String(scalar.value, radix: 16)
          out += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8
        } else {
          UTF8.encode(scalar) { out.append($0) }
        }
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
