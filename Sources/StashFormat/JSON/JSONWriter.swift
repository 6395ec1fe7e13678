/// Where a JSON description goes: straight into bytes (`JSONWriter`, the one JSON encoder of our
/// modules) or into a tree (`JSONTree`, for a caller that nests the value in a larger one). A type
/// whose JSON a listing prints for every memo describes it once, generically, to either.
///
/// The calls follow the text: `beginObject`, then `key` and a value for each member, `endObject`;
/// `beginArray`, the values, `endArray`.
package protocol JSONOutput {
  mutating func beginObject()
  mutating func endObject()
  mutating func beginArray()
  mutating func endArray()
  /// The name of the object member whose value comes next.
  mutating func key(_ key: String)
  mutating func string(_ value: String)
  mutating func int(_ value: Int)
  /// A number as `JSONValue.double` prints it (whole numbers without `.0`; NaN and infinity as null).
  mutating func double(_ value: Double)
  mutating func bool(_ value: Bool)
  mutating func null()
  /// A value already built as a tree.
  mutating func value(_ value: JSONValue)
  /// A recording date as `RecordingDate.isoLocal` (`local`) or `RecordingDate.isoUTC` gives it.
  mutating func recordingDate(_ seconds: Double, local: Bool)
}

extension JSONOutput {
  /// A string, or null.
  package mutating func string(_ value: String?) {
    if let value { string(value) } else { null() }
  }
  /// A number, or null.
  package mutating func int(_ value: Int?) {
    if let value { int(value) } else { null() }
  }
  /// A number, or null.
  package mutating func double(_ value: Double?) {
    if let value { double(value) } else { null() }
  }
  /// A truth value, or null.
  package mutating func bool(_ value: Bool?) {
    if let value { bool(value) } else { null() }
  }
  /// Seconds to the microsecond, or null (see `JSONValue.seconds`).
  package mutating func seconds(_ value: Double?) {
    double(value.map(JSONValue.roundedSeconds))
  }
  /// An array of strings.
  package mutating func strings(_ values: some Sequence<String>) {
    beginArray()
    for value in values { string(value) }
    endArray()
  }
}

/// JSON text written straight into a byte buffer, compact or indented by two spaces: no tree and
/// no String per value. `JSONValue.serialized` comes here too, so every JSON our tools print has
/// one encoder.
package struct JSONWriter: JSONOutput {
  /// The text so far.
  package var bytes: [UInt8]
  /// Whether members and elements go on lines of their own, indented by two spaces a level.
  package let pretty: Bool
  /// How many containers are open.
  private var depth = 0
  /// The open container holds a value already: the next one is preceded by a comma.
  private var needsComma = false
  /// A key was just written: the value that follows takes no separator.
  private var afterKey = false

  /// An empty writer; `capacity` bytes are reserved.
  package init(pretty: Bool = false, capacity: Int = 0) {
    self.pretty = pretty
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// Appends text outside any value: what separates the values of a stream (`,\n`).
  package mutating func raw(_ text: StaticString) {
    bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Empties the buffer, keeping its storage: for a writer that prints what it holds and goes on.
  package mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }

  package mutating func beginObject() { open(UInt8(ascii: "{")) }
  package mutating func endObject() { close(UInt8(ascii: "}")) }
  package mutating func beginArray() { open(UInt8(ascii: "[")) }
  package mutating func endArray() { close(UInt8(ascii: "]")) }

  package mutating func key(_ key: String) {
    separate()
    Self.writeString(key, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    if pretty { bytes.append(UInt8(ascii: " ")) }
    afterKey = true
  }

  package mutating func string(_ value: String) {
    startValue()
    Self.writeString(value, to: &bytes)
    needsComma = true
  }

  package mutating func int(_ value: Int) {
    startValue()
    Self.writeInteger(Int64(value), to: &bytes)
    needsComma = true
  }

  package mutating func double(_ value: Double) {
    startValue()
    if !value.isFinite {
      raw("null")
    } else if value == value.rounded(), abs(value) < 1e15 {
      Self.writeInteger(Int64(value), to: &bytes)
    } else {
      // The shortest text that reads back as the same number (Swift's own `description`); a
      // short one lives in the String itself, so nothing is allocated.
      var text = value.description
      text.withUTF8 { bytes.append(contentsOf: $0) }
    }
    needsComma = true
  }

  /// A string whose bytes `body` appends, all of which stand for themselves in JSON (digits and
  /// punctuation): no escape is looked for.
  mutating func unescapedString(_ body: (inout [UInt8]) -> Void) {
    startValue()
    bytes.append(UInt8(ascii: "\""))
    body(&bytes)
    bytes.append(UInt8(ascii: "\""))
    needsComma = true
  }

  package mutating func bool(_ value: Bool) {
    startValue()
    if value { raw("true") } else { raw("false") }
    needsComma = true
  }

  package mutating func null() {
    startValue()
    raw("null")
    needsComma = true
  }

  package mutating func value(_ value: JSONValue) {
    switch value {
    case .null: null()
    case .bool(let b): bool(b)
    case .int(let i): int(i)
    case .double(let d): double(d)
    case .string(let s): string(s)
    case .array(let items):
      beginArray()
      for item in items { self.value(item) }
      endArray()
    case .object(let members):
      beginObject()
      for (key, member) in members {
        self.key(key)
        self.value(member)
      }
      endObject()
    }
  }

  private mutating func open(_ bracket: UInt8) {
    startValue()
    bytes.append(bracket)
    depth += 1
    needsComma = false
  }

  private mutating func close(_ bracket: UInt8) {
    depth -= 1
    // An empty container stays `{}` or `[]` on one line.
    if pretty && needsComma { newline() }
    bytes.append(bracket)
    needsComma = true
  }

  /// What precedes a value: nothing after a key or at the top level, else a separator.
  private mutating func startValue() {
    if afterKey {
      afterKey = false
    } else if depth > 0 {
      separate()
    }
  }

  /// A comma after an earlier value, and in pretty text a line break and the indent.
  private mutating func separate() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
    if pretty { newline() }
  }

  private mutating func newline() {
    bytes.append(UInt8(ascii: "\n"))
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
  }

  /// The decimal digits of `value`, with a minus sign when negative.
  static func writeInteger(_ value: Int64, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    // 20 digits hold any UInt64.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = 20
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
    }
  }

  /// Whether a byte of UTF-8 may need an escape: a control character, `"`, `\\`, DEL, or the lead
  /// byte of U+2028/U+2029 (0xE2, which other characters share; those are checked scalar by scalar).
  private static func mayNeedEscape(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xE2
  }

  /// `s` as a JSON string, quoted and escaped.
  static func writeString(_ s: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    var s = s
    // Most strings need no escape: copying them whole is many times faster than scalar by scalar.
    let escaped = s.withUTF8 { bytes -> Bool in
      guard bytes.contains(where: mayNeedEscape) else {
        out.append(contentsOf: bytes)
        return false
      }
      return true
    }
    if escaped { writeEscaped(s, to: &out) }
    out.append(UInt8(ascii: "\""))
  }

  /// The characters of `s`, escaped where JSON (or a JavaScript reader) needs it: `\"`, `\\`,
  /// the short forms of line feed, return, tab, backspace and form feed, and `\u00XX` for other
  /// controls, DEL, U+2028 and U+2029.
  private static func writeEscaped(_ s: String, to out: inout [UInt8]) {
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += #"\""#.utf8
      case "\\": out += #"\\"#.utf8
      case "\n": out += #"\n"#.utf8
      case "\r": out += #"\r"#.utf8
      case "\t": out += #"\t"#.utf8
      case "\u{08}": out += #"\b"#.utf8
      case "\u{0C}": out += #"\f"#.utf8
      default:
        let value = scalar.value
        if value < 0x20 || value == 0x7F || value == 0x2028 || value == 0x2029 {
          out += #"\u"#.utf8
          for shift in stride(from: 12, through: 0, by: -4) {
            out.append(Self.hexDigits[Int((value >> UInt32(shift)) & 0xF)])
          }
        } else {
          UTF8.encode(scalar) { out.append($0) }
        }
      }
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}

/// A JSON description built into a `JSONValue` tree (see `JSONOutput`).
package struct JSONTree: JSONOutput {
  private enum Container {
    /// An object's members so far, and the key of the value that comes next.
    case object([(String, JSONValue)], key: String?)
    case array([JSONValue])
  }

  private var open: [Container] = []
  /// The value described, once its last container is closed.
  package private(set) var value: JSONValue = .null

  package init() {}

  package mutating func beginObject() { open.append(.object([], key: nil)) }
  package mutating func beginArray() { open.append(.array([])) }

  package mutating func endObject() {
    guard case .object(let members, _)? = open.popLast() else {
      preconditionFailure("endObject without beginObject")
    }
    add(.object(members))
  }

  package mutating func endArray() {
    guard case .array(let items)? = open.popLast() else { preconditionFailure("endArray without beginArray") }
    add(.array(items))
  }

  package mutating func key(_ key: String) {
    guard case .object(let members, _)? = open.popLast() else {
      preconditionFailure("a key outside an object")
    }
    open.append(.object(members, key: key))
  }

  package mutating func string(_ value: String) { add(.string(value)) }
  package mutating func int(_ value: Int) { add(.int(value)) }
  package mutating func double(_ value: Double) { add(.double(value)) }
  package mutating func bool(_ value: Bool) { add(.bool(value)) }
  package mutating func null() { add(.null) }
  package mutating func value(_ value: JSONValue) { add(value) }
  package mutating func recordingDate(_ seconds: Double, local: Bool) {
    add(.string(local ? RecordingDate.isoLocal(seconds) : RecordingDate.isoUTC(seconds)))
  }

  /// Puts `value` in the open container (popped and pushed back, so it is never copied), or
  /// makes it the whole value.
  private mutating func add(_ value: JSONValue) {
    switch open.popLast() {
    case nil:
      self.value = value
    case .object(var members, let key)?:
      members.append((key ?? "", value))
      open.append(.object(members, key: nil))
    case .array(var items)?:
      items.append(value)
      open.append(.array(items))
    }
  }
}
