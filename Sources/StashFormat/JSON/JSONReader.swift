/// A strict JSON reader (RFC 8259) for input that comes from other writers, such as the transcript
/// inside an Apple Voice Memos recording. It accepts exactly the grammar: no comments, no trailing
/// commas, no leading zeros, no control characters in strings, no bytes after the value, and
/// UTF-8 only (unpaired surrogate escapes become U+FFFD). Nesting and size are capped, so hostile
/// input costs bounded time and memory; a failure says at which byte.
package struct JSONReader {
  /// Why the bytes are not the JSON this reader accepts, and the byte where that shows.
  package struct Failure: Error, Equatable, Sendable {
    /// The offset of the offending byte from the start of the input.
    package var offset: Int
    /// What is wrong, in plain words.
    package var message: String
  }

  /// Arrays and objects nested deeper than this are refused: no transcript nests more than four.
  package static let depthLimit = 64

  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0
  private var depth = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The value `bytes` holds, or the first place they stop being JSON.
  package static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
    let result: Result<JSONValue, Failure> = bytes.withUnsafeBufferPointer { buffer in
      var reader = JSONReader(buffer)
      do throws(Failure) {
        reader.skipSpace()
        let value = try reader.value()
        reader.skipSpace()
        guard reader.position == buffer.count else {
          throw reader.failure("more bytes follow the JSON value")
        }
        return .success(value)
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private func failure(_ message: String) -> Failure { Failure(offset: position, message: message) }

  private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

  private mutating func skipSpace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
  }

  private mutating func value() throws(Failure) -> JSONValue {
    guard let byte = current else { throw failure("the JSON ends where a value should be") }
    switch byte {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default: throw failure("a value cannot start with \(Self.describe(byte))")
    }
  }

  private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
    let count = word.utf8CodeUnitCount
    let matches =
      position + count <= bytes.count
      && word.withUTF8Buffer { expected in (0..<count).allSatisfy { bytes[position + $0] == expected[$0] } }
    guard matches else { throw failure("not a JSON value (expected \(word))") }
    position += count
    return value
  }

  private mutating func enter() throws(Failure) {
    depth += 1
    guard depth <= Self.depthLimit else {
      throw failure("arrays and objects nest more than \(Self.depthLimit) deep")
    }
  }

  private mutating func array() throws(Failure) -> JSONValue {
    try enter()
    position += 1
    var items: [JSONValue] = []
    skipSpace()
    if current == UInt8(ascii: "]") {
      position += 1
      depth -= 1
      return .array(items)
    }
    while true {
      skipSpace()
      items.append(try value())
      skipSpace()
      switch current {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "]"):
        position += 1
        depth -= 1
        return .array(items)
      case nil: throw failure("the JSON ends inside an array")
      case let byte?: throw failure("expected ',' or ']' in an array, found \(Self.describe(byte))")
      }
    }
  }

  private mutating func object() throws(Failure) -> JSONValue {
    try enter()
    position += 1
    var members: [(String, JSONValue)] = []
    skipSpace()
    if current == UInt8(ascii: "}") {
      position += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard current == UInt8(ascii: "\"") else {
        throw current == nil
          ? failure("the JSON ends inside an object") : failure("an object key must be a string")
      }
      let key = try string()
      skipSpace()
      guard current == UInt8(ascii: ":") else { throw failure("expected ':' after an object key") }
      position += 1
      skipSpace()
      members.append((key, try value()))
      skipSpace()
      switch current {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "}"):
        position += 1
        depth -= 1
        return .object(members)
      case nil: throw failure("the JSON ends inside an object")
      case let byte?: throw failure("expected ',' or '}' in an object, found \(Self.describe(byte))")
      }
    }
  }

  private mutating func number() throws(Failure) -> JSONValue {
    let start = position
    if current == UInt8(ascii: "-") { position += 1 }
    guard let first = current, Self.isDigit(first) else { throw failure("a number needs a digit here") }
    position += 1
    if first == UInt8(ascii: "0"), let next = current, Self.isDigit(next) {
      throw failure("a number cannot start with a leading zero")
    }
    while let byte = current, Self.isDigit(byte) { position += 1 }
    var integral = true
    if current == UInt8(ascii: ".") {
      integral = false
      position += 1
      guard let byte = current, Self.isDigit(byte) else { throw failure("a fraction needs a digit") }
      while let byte = current, Self.isDigit(byte) { position += 1 }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      integral = false
      position += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
      guard let byte = current, Self.isDigit(byte) else { throw failure("an exponent needs a digit") }
      while let byte = current, Self.isDigit(byte) { position += 1 }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    if integral, let whole = Int(text) { return .int(whole) }
    guard let double = Double(text), double.isFinite else {
      position = start
      throw failure("the number \(text.prefix(40)) is out of range")
    }
    return .double(double)
  }

  private mutating func string() throws(Failure) -> String {
    position += 1
    let start = position
    // The common string (no escapes) is decoded in one piece.
    while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 {
      position += 1
    }
    var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
    while true {
      guard let byte = current else { throw failure("the JSON ends inside a string") }
      switch byte {
      case UInt8(ascii: "\""):
        position += 1
        guard let text = String(validating: scalars, as: UTF8.self) else {
          position = start
          throw failure("a string holds bytes that are not UTF-8")
        }
        return text
      case UInt8(ascii: "\\"):
        position += 1
        try escape(into: &scalars)
      case 0..<0x20:
        throw failure("a string holds the control character \(Self.describe(byte)); JSON needs it escaped")
      default:
        scalars.append(byte)
        position += 1
      }
    }
  }

  private mutating func escape(into out: inout [UInt8]) throws(Failure) {
    guard let byte = current else { throw failure("the JSON ends inside a string") }
    position += 1
    let simple: UInt8? =
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
      case UInt8(ascii: "b"): 0x08
      case UInt8(ascii: "f"): 0x0C
      case UInt8(ascii: "n"): 0x0A
      case UInt8(ascii: "r"): 0x0D
      case UInt8(ascii: "t"): 0x09
      default: nil
      }
    if let simple {
      out.append(simple)
      return
    }
    guard byte == UInt8(ascii: "u") else {
      position -= 1
      throw failure("\\\(Self.describe(byte)) is not a JSON escape")
    }
    var scalar = try hex4()
    if (0xD800..<0xDC00).contains(scalar) {
      // A high surrogate pairs with a following \uDC00–\uDFFF; alone it is U+FFFD.
      if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
        bytes[position + 1] == UInt8(ascii: "u")
      {
        let mark = position
        position += 2
        let low = try hex4()
        if (0xDC00..<0xE000).contains(low) {
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else {
          position = mark
          scalar = 0xFFFD
        }
      } else {
        scalar = 0xFFFD
      }
    } else if (0xDC00..<0xE000).contains(scalar) {
      scalar = 0xFFFD
    }
    out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current else { throw failure("the JSON ends inside a \\u escape") }
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure("a \\u escape needs four hex digits")
      }
      value = value << 4 | UInt32(digit)
      position += 1
    }
    return value
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private static func describe(_ byte: UInt8) -> String {
    byte >= 0x21 && byte < 0x7F
      ? "'\(Character(Unicode.Scalar(byte)))'"
      : "byte 0x\(Text.zeroPadded(String(byte, radix: 16), width: 2))"
  }
}
