/// Reads WebVTT by the W3C "WebVTT parser algorithm", step for step, and records what a validator
/// would report as diagnostics with line and column. It never throws and never gives up on a file
/// that has the signature: what the algorithm drops is dropped, and said.
public enum WebVTTParser {
  /// At most this many diagnostics are listed per file; the rest are counted in one more.
  public static let diagnosticLimit = 1000

  /// Parses a whole file.
  public static func parse(_ bytes: [UInt8]) -> WebVTTDocument {
    bytes.withUnsafeBufferPointer { parse($0) }
  }

  /// Parses a whole file from a buffer.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> WebVTTDocument {
    parse(bytes, keepingText: true)
  }

  /// The document `parse` gives, with every problem, but cues that keep only their times,
  /// settings and lines: their identifiers and texts are empty. What a check of the file needs
  /// (lint), without a string made for every cue.
  package static func check(_ bytes: [UInt8]) -> WebVTTDocument {
    bytes.withUnsafeBufferPointer { parse($0, keepingText: false) }
  }

  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, keepingText: Bool) -> WebVTTDocument {
    let input = WebVTTInput(bytes)
    if let rewritten = input.rewritten {
      return rewritten.withUnsafeBufferPointer { buffer in
        var parser = WebVTTFileParser(bytes: buffer, offsetBase: nil, input: input, keepsText: keepingText)
        parser.run()
        return parser.finish()
      }
    }
    let body = UnsafeBufferPointer(rebasing: bytes[input.skipped...])
    var parser = WebVTTFileParser(
      bytes: body, offsetBase: input.skipped, input: input, keepsText: keepingText)
    parser.run()
    return parser.finish()
  }

  /// Parses text already in memory.
  public static func parse(_ text: String) -> WebVTTDocument {
    parse(Array(text.utf8))
  }
}
