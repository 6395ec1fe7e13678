/// Writing nodes back as cue text.
extension WebVTTNode {
  /// Cue text for `nodes`: text escaped (`&`, `<`, `>`), spans as tags with their classes and
  /// annotation, timestamps as `<hh:mm:ss.ttt>`.
  public static func cueText(of nodes: [WebVTTNode]) -> String {
    var out = ""
    for node in nodes { node.write(to: &out) }
    return out
  }

  private func write(to out: inout String) {
    switch self {
    case .text(let text):
      Self.escape(text, into: &out)
    case .timestamp(let time):
      out += "<" + WebVTTTimestamp.format(time) + ">"
    case .span(let span):
      out += "<" + span.kind.rawValue
      for name in span.classes {
        // A class name ends at whitespace, `.` or `>`; those characters cannot be written.
        let clean = name.unicodeScalars.filter {
          !($0 == "." || $0 == ">" || ($0.isASCII && WebVTTCueTextParser.isWhitespace(UInt8($0.value))))
        }
        if !clean.isEmpty { out += "." + String(String.UnicodeScalarView(clean)) }
      }
      if span.kind == .voice || span.kind == .language, let annotation = span.annotation, !annotation.isEmpty
      {
        out += " "
        for scalar in WebVTTCueTextParser.collapse(annotation).unicodeScalars {
          switch scalar {
          case "&": out += "&amp;"
          case ">": out += "&gt;"
          default: out.unicodeScalars.append(scalar)
          }
        }
      }
      out += ">"
      for child in span.children { child.write(to: &out) }
      out += "</" + span.kind.rawValue + ">"
    }
  }

  /// Escapes `&`, `<` and `>` so text reads back as itself.
  static func escape(_ text: String, into out: inout String) {
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      default: out.unicodeScalars.append(scalar)
      }
    }
  }
}
