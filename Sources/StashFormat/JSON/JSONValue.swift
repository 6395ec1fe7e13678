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
    value.map { .double(roundedSeconds($0)) } ?? .null
  }
  /// `seconds` rounded to the microsecond.
  package static func roundedSeconds(_ seconds: Double) -> Double { (seconds * 1e6).rounded() / 1e6 }
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
    var writer = JSONWriter(pretty: pretty, capacity: 1024)
    writer.value(self)
    return String(decoding: writer.bytes, as: UTF8.self)
  }
}
