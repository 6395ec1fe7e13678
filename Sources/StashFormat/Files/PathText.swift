/// Turns file names, which may hold any bytes but `/` and NUL, into text safe to print.
package enum PathText {
  /// `folder/name`, without a second slash when `folder` ends in one: every path our modules make
  /// from a folder and a name in it.
  package static func join(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// The name with control characters and invalid UTF-8 escaped (`\n`, `\x1b`, `\xff`), so that a
  /// hostile name can neither break a line of output nor drive the terminal; and with the
  /// bidirectional embeddings, overrides and isolates escaped (`\u{202E}`), which would turn the
  /// rest of a line around on a terminal that orders text (the marks U+200E and U+200F stay).
  package static func escaped(_ path: String) -> String { escaped(path, keepingBackslashes: false) }

  /// The folder `path` names a file in: what is before its last `/` (`/` for a file at the root,
  /// `.` for a bare name).
  package static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  /// `escaped`, but with `keepingBackslashes` a backslash stays as it is: for a message, whose
  /// names are escaped already (a second escape printed `nl\\nx` for a name `nl\nx`).
  package static func escaped(_ path: String, keepingBackslashes: Bool) -> String {
    // Most names hold nothing to escape: hand those back as they are. A byte below 0x20, DEL, a
    // backslash, 0xC2 (the lead byte of U+0080–U+00BF, which holds the C1 controls) or 0xE2 (that
    // of U+2000–U+2FFF, which holds the bidirectional controls) takes the scalar-by-scalar way.
    if !path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x5C || $0 == 0xC2 || $0 == 0xE2 }) {
      return path
    }
    var out = ""
    for scalar in path.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\\": out += keepingBackslashes ? "\\" : "\\\\"
      default:
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
          out += "\\x" + Text.zeroPadded(String(scalar.value, radix: 16), width: 2)
        } else if (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value) {
          out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// Decodes raw file-name bytes; each byte that is not valid UTF-8 becomes `\xNN`.
  package static func decode(_ bytes: some Collection<UInt8>) -> String {
    if let s = String(validating: bytes, as: UTF8.self) { return s }
    let buffer = Array(bytes)
    var out = ""
    var index = 0
    while index < buffer.count {
      let lead = buffer[index]
      let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
      if index + length <= buffer.count,
        let s = String(validating: buffer[index..<index + length], as: UTF8.self)
      {
        out += s
        index += length
      } else {
        out += "\\x" + Text.zeroPadded(String(buffer[index], radix: 16), width: 2)
        index += 1
      }
    }
    return out
  }
}
