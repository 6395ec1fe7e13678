import CDBus
import StashBrowser

/// Appends D-Bus values to a message being built (a property's reply), through sd-bus's basic
/// appends and containers: its variadic `sd_bus_message_append` is not callable from Swift.
struct BusValue {
  let message: OpaquePointer?

  init(_ message: OpaquePointer?) { self.message = message }

  private static func type(_ c: Character) -> CChar { CChar(c.asciiValue!) }

  func bool(_ value: Bool) -> Int32 {
    var v: Int32 = value ? 1 : 0
    return sd_bus_message_append_basic(message, Self.type("b"), &v)
  }

  func double(_ value: Double) -> Int32 {
    var v = value
    return sd_bus_message_append_basic(message, Self.type("d"), &v)
  }

  func int64(_ value: Int64) -> Int32 {
    var v = value
    return sd_bus_message_append_basic(message, Self.type("x"), &v)
  }

  /// A string, or an object path with `type` "o".
  func string(_ value: String, type: Character = "s") -> Int32 {
    value.withCString { sd_bus_message_append_basic(message, Self.type(type), $0) }
  }

  func strings(_ values: [String]) -> Int32 {
    var r = sd_bus_message_open_container(message, Self.type("a"), "s")
    for value in values where r >= 0 { r = string(value) }
    return r < 0 ? r : sd_bus_message_close_container(message)
  }

  /// One `{sv}` entry of a dictionary, its value of the D-Bus type `signature`.
  private func entry(_ key: String, _ signature: String, _ append: () -> Int32) -> Int32 {
    var r = sd_bus_message_open_container(message, Self.type("e"), "sv")
    if r >= 0 { r = string(key) }
    if r >= 0 { r = sd_bus_message_open_container(message, Self.type("v"), signature) }
    if r >= 0 { r = append() }
    if r >= 0 { r = sd_bus_message_close_container(message) }
    return r < 0 ? r : sd_bus_message_close_container(message)
  }

  /// MPRIS metadata (`a{sv}`): empty with no track, as the specification asks.
  func metadata(_ track: RemoteStatus.Track?, url: String?) -> Int32 {
    var r = sd_bus_message_open_container(message, Self.type("a"), "{sv}")
    if let track, r >= 0 {
      r = entry("mpris:trackid", "o") { string(track.id, type: "o") }
      if r >= 0, let length = track.length {
        r = entry("mpris:length", "x") { int64(MPRISServer.microseconds(length)) }
      }
      if r >= 0 { r = entry("xesam:title", "s") { string(track.title) } }
      if r >= 0, let url { r = entry("xesam:url", "s") { string(url) } }
    }
    return r < 0 ? r : sd_bus_message_close_container(message)
  }
}

/// `file://` URIs: a path percent-encoded (RFC 3986: unreserved characters and `/` kept), and back.
enum FileURI {
  static func url(_ path: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = Array("file://".utf8)
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.append(byte)
      default:
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The path of a `file://` URI on this machine (empty or `localhost` host); nil for any other.
  static func path(_ uri: String) -> String? {
    guard uri.hasPrefix("file://") else { return nil }
    var rest = Substring(uri.dropFirst("file://".count))
    if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
    guard rest.hasPrefix("/") else { return nil }
    var bytes: [UInt8] = []
    var utf8 = Array(rest.utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "%"), utf8.count >= 2,
        let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    guard !bytes.contains(0) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }
}
