/// A JSON value whose objects keep their keys in the order they were built, so output is stable.
package enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.int(let a), .int(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b || (a.isNaN && b.isNaN)
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: return false
    }
  }

  /// A value or null.
  package static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
  /// A value or null.
  package static func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
  /// A value or null.
  package static func optional(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }

  /// Seconds to the microsecond, or null: what a length or a time measured from samples or GPS
  /// fixes carries (a sum of sample durations over a rate, or of instants near 1.7e9 s, carries
  /// float noise below that).
  package static func seconds(_ value: Double?) -> JSONValue {
    value.map { .double(($0 * 1e6).rounded() / 1e6) } ?? .null
  }
  /// Metres (or metres per second) to the millimetre, or null.
  package static func metres(_ value: Double?) -> JSONValue {
    value.map { .double(($0 * 1e3).rounded() / 1e3) } ?? .null
  }

  /// The member named `key` of an object, or nil.
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// The text of this value; `pretty` indents by two spaces.
  package func serialized(pretty: Bool = false) -> String {
    // Built as bytes: appending small pieces to a byte array costs a fraction of String appends,
    // and a listing serializes ten thousand objects. A memo's object is some 700 bytes.
    var out: [UInt8] = []
    out.reserveCapacity(1024)
    write(to: &out, pretty: pretty, indent: 0)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends the text of this value, as `serialized()` gives it, to `out`.
  package func serialize(to out: inout [UInt8]) {
    write(to: &out, pretty: false, indent: 0)
  }

  private func write(to out: inout [UInt8], pretty: Bool, indent: Int) {
    switch self {
    case .null: out += "null".utf8
    case .bool(let b): out += (b ? "true" : "false").utf8
    case .int(let i): out += String(i).utf8
    case .double(let d): out += JSONValue.format(d).utf8
    case .string(let s): JSONValue.writeString(s, to: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]".utf8
        return
      }
      out.append(UInt8(ascii: "["))
      for (n, item) in items.enumerated() {
        if n > 0 { out.append(UInt8(ascii: ",")) }
        if pretty { Self.newline(&out, indent: indent + 2) }
        item.write(to: &out, pretty: pretty, indent: indent + 2)
      }
      if pretty { Self.newline(&out, indent: indent) }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      if members.isEmpty {
        out += "{}".utf8
        return
      }
      out.append(UInt8(ascii: "{"))
      for (n, (key, value)) in members.enumerated() {
        if n > 0 { out.append(UInt8(ascii: ",")) }
        if pretty { Self.newline(&out, indent: indent + 2) }
        JSONValue.writeString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        if pretty { out.append(UInt8(ascii: " ")) }
        value.write(to: &out, pretty: pretty, indent: indent + 2)
      }
      if pretty { Self.newline(&out, indent: indent) }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// A line break and `indent` spaces.
  private static func newline(_ out: inout [UInt8], indent: Int) {
    out.append(UInt8(ascii: "\n"))
    out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
  }

  /// Numbers print without a trailing `.0` when whole; JSON has no NaN or infinity, so those are null.
  static func format(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
  }

  /// Whether a byte of UTF-8 may need an escape: a control character, `"`, `\\`, DEL, or the lead
  /// byte of U+2028/U+2029 (0xE2, which other characters share; those are checked scalar by scalar).
  private static func mayNeedEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2
  }

  static func writeString(_ s: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most strings need no escape: copying them whole is many times faster than scalar by scalar.
    let copied =
      s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
        guard !bytes.contains(where: mayNeedEscape) else { return false }
        out.append(contentsOf: bytes)
        return true
      } ?? false
    if !copied { writeEscaped(s, to: &out) }
    out.append(UInt8(ascii: "\""))
  }

  /// The characters of `s`, escaped where JSON (or a JavaScript reader) needs it.
  private static func writeEscaped(_ s: String, to out: inout [UInt8]) {
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
  }
}
