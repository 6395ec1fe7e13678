/// A JSON value whose objects keep their keys in the order they were built, so output is stable.
public enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
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
  public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
  /// A value or null.
  public static func optional(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
  /// A value or null.
  public static func optional(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }

  /// The member named `key` of an object, or nil.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// The text of this value; `pretty` indents by two spaces.
  public func serialized(pretty: Bool = false) -> String {
    var out = ""
    write(to: &out, pretty: pretty, indent: 0)
    return out
  }

  private func write(to out: inout String, pretty: Bool, indent: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .double(let d): out += JSONValue.format(d)
    case .string(let s): JSONValue.writeString(s, to: &out)
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "["
      for (n, item) in items.enumerated() {
        if n > 0 { out += "," }
        if pretty { out += "\n" + String(repeating: " ", count: indent + 2) }
        item.write(to: &out, pretty: pretty, indent: indent + 2)
      }
      if pretty { out += "\n" + String(repeating: " ", count: indent) }
      out += "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      for (n, (key, value)) in members.enumerated() {
        if n > 0 { out += "," }
        if pretty { out += "\n" + String(repeating: " ", count: indent + 2) }
        JSONValue.writeString(key, to: &out)
        out += pretty ? ": " : ":"
        value.write(to: &out, pretty: pretty, indent: indent + 2)
      }
      if pretty { out += "\n" + String(repeating: " ", count: indent) }
      out += "}"
    }
  }

  /// Numbers print without a trailing `.0` when whole; JSON has no NaN or infinity, so those are null.
  static func format(_ d: Double) -> String {
    guard d.isFinite else { return "null" }
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return "\(d)"
  }

  static func writeString(_ s: String, to out: inout String) {
    out += "\""
    // Most strings need no escape: copying them whole is many times faster than scalar by scalar.
    if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }) {
      out += s
      out += "\""
      return
    }
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value) {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}
