#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The W3C "WebVTT cue text parsing rules": tokens into a tree of `WebVTTNode`s. The same pass,
/// with `build` off, only checks a cue for the linter and allocates nothing for plain text.
struct WebVTTCueTextParser {
  /// Deeper tags than this are still matched with their end tags but make no node of their own,
  /// so a hostile cue cannot build a tree deep enough to exhaust the stack of whoever walks it.
  static let maximumDepth = 64

  private struct Open {
    var span: WebVTTNode.Span
    var tagOffset: Int
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var range: Range<Int>
  private let build: Bool
  private var root: [WebVTTNode] = []
  private var open: [Open] = []
  /// Tags past `maximumDepth`: only their kinds, so end tags still close the right thing.
  private var phantoms: [WebVTTNode.Kind] = []
  private var languages: [String] = []
  /// Problems found, when checking.
  private(set) var issues: [WebVTTIssue] = []
  /// Problems found past the file's limit, counted only.
  private(set) var droppedIssues = 0
  /// Whether a `<v>` opened as the cue's first component (the only case its end tag may be left out).
  private var voiceFirst = false
  private var sawComponent = false

  private init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, build: Bool) {
    self.bytes = bytes
    self.range = range
    self.build = build
  }

  /// The node tree of raw cue text.
  static func nodes(of text: String) -> [WebVTTNode] {
    var text = text
    return text.withUTF8 { buffer in
      var parser = WebVTTCueTextParser(bytes: buffer, range: 0..<buffer.count, build: true)
      parser.run(cueStart: nil, cueEnd: nil)
      return parser.root
    }
  }

  /// A checker for the cues of one file, reused from cue to cue so its buffers are allocated once.
  static func checker(for bytes: UnsafeBufferPointer<UInt8>) -> WebVTTCueTextParser {
    WebVTTCueTextParser(bytes: bytes, range: 0..<0, build: false)
  }

  /// Checks the cue text at `range`, for a cue from `cueStart` to `cueEnd`; the problems are left
  /// in `issues` until the next call.
  mutating func check(_ range: Range<Int>, cueStart: Double, cueEnd: Double) {
    self.range = range
    open.removeAll(keepingCapacity: true)
    phantoms.removeAll(keepingCapacity: true)
    languages.removeAll(keepingCapacity: true)
    issues.removeAll(keepingCapacity: true)
    droppedIssues = 0
    voiceFirst = false
    sawComponent = false
    run(cueStart: cueStart, cueEnd: cueEnd)
  }

  private var checking: Bool { !build }

  private var currentKind: WebVTTNode.Kind? { phantoms.last ?? open.last?.span.kind }

  private mutating func run(cueStart: Double?, cueEnd: Double?) {
    var tokenizer = WebVTTCueTextTokenizer(bytes: bytes, range: range)
    var lastTimestamp = cueStart ?? -.infinity
    while let token = tokenizer.next() {
      switch token {
      case .text(let raw):
        if build {
          append(.text(WebVTTCharacterReference.decode(bytes, raw)))
        } else {
          checkReferences(raw, additionalAllowed: nil)
        }
        sawComponent = true
      case .startTag(let nameRange, let classes, let annotation, let start):
        startTag(nameRange, classes: classes, annotation: annotation, at: start)
      case .endTag(let nameRange, let start):
        endTag(nameRange, at: start)
      case .timestamp(let value, let start):
        var position = value.lowerBound
        var shortHours = false
        let result = WebVTTTimestamp.collect(bytes, &position, end: value.upperBound, shortHours: &shortHours)
        sawComponent = true
        guard case .success(let time) = result, position == value.upperBound else {
          if checking {
            let why: String
            if case .failure(let failure) = result {
              why = failure.message
            } else {
              why = "text follows the time"
            }
            report(
              .vttBadInlineTimestamp, at: start, "<\(text(value))> is not a timestamp (\(why)); it is ignored"
            )
          }
          continue
        }
        if build {
          append(.timestamp(time))
        } else if let cueStart, let cueEnd {
          if time <= cueStart || time >= cueEnd {
            report(
              .vttTimestampOutsideCue, at: start,
              "inline timestamp \(text(value)) is not inside its cue (\(WebVTTTimestamp.formatShort(cueStart)) to \(WebVTTTimestamp.formatShort(cueEnd)))"
            )
          } else if time <= lastTimestamp {
            report(
              .vttTimestampNotIncreasing, at: start,
              "inline timestamp \(text(value)) is not after the one before it")
          }
          lastTimestamp = max(lastTimestamp, time)
        }
      }
    }
    finish()
  }

  private mutating func startTag(
    _ nameRange: Range<Int>, classes: Range<Int>?, annotation: Range<Int>?, at start: Int
  ) {
    let kind = Self.kind(bytes, nameRange)
    guard let kind else {
      if checking {
        let name = text(nameRange)
        report(
          .vttUnknownTag, at: start,
          name.isEmpty
            ? "a tag with no name is ignored"
            : "<\(name)> is not a WebVTT tag; it is ignored (escape a literal < as &lt;)")
      }
      return
    }
    if kind == .rubyText && currentKind != .ruby {
      if checking { report(.vttRtOutsideRuby, at: start, "<rt> outside <ruby> is ignored") }
      return
    }
    var annotationText: String? = nil
    if let annotation {
      if build || kind == .voice || kind == .language {
        annotationText = Self.collapse(
          WebVTTCharacterReference.decode(bytes, annotation, additionalAllowed: UInt8(ascii: ">")))
      }
      if checking { checkReferences(annotation, additionalAllowed: UInt8(ascii: ">")) }
    }
    if checking {
      let named = !(annotationText ?? "").isEmpty || (annotation.map { !isBlank($0) } ?? false)
      if (kind == .voice || kind == .language) && !named {
        report(
          .vttBadAnnotation, at: start,
          "<\(kind.rawValue)> needs a \(kind == .voice ? "voice name" : "language tag"), as in <\(kind == .voice ? "v Ana" : "lang en")>"
        )
      } else if kind != .voice && kind != .language && named {
        report(
          .vttBadAnnotation, at: start,
          "<\(kind.rawValue)> takes no annotation; the text after its name is ignored")
      }
      if kind == .voice && open.isEmpty && phantoms.isEmpty && !sawComponent { voiceFirst = true }
    }
    sawComponent = true
    if kind == .language { languages.append(annotationText ?? "") }
    if open.count >= Self.maximumDepth || !phantoms.isEmpty {
      if checking && phantoms.isEmpty {
        report(
          .vttNestingTooDeep, at: start,
          "tags nest more than \(Self.maximumDepth) deep; deeper ones are kept as text only")
      }
      phantoms.append(kind)
      return
    }
    var span = WebVTTNode.Span(kind: kind)
    if build {
      if let classes {
        span.classes = text(classes).split(separator: ".", omittingEmptySubsequences: true).map(String.init)
      }
      if kind == .voice || kind == .language { span.annotation = annotationText ?? "" }
      span.language = languages.last
    }
    open.append(Open(span: span, tagOffset: start))
  }

  private mutating func endTag(_ nameRange: Range<Int>, at start: Int) {
    let kind = Self.kind(bytes, nameRange)
    guard let current = currentKind, let kind else {
      if checking { strayEndTag(nameRange, at: start) }
      return
    }
    if kind == current {
      if kind == .language { languages.removeLast() }
      close()
    } else if kind == .ruby && current == .rubyText {
      close()
      close()
    } else if checking {
      strayEndTag(nameRange, at: start)
    }
  }

  private mutating func strayEndTag(_ nameRange: Range<Int>, at start: Int) {
    let name = text(nameRange)
    if let current = currentKind {
      report(
        .vttMisnestedTag, at: start,
        "</\(name)> does not close the innermost open tag <\(current.rawValue)>; it is ignored")
    } else {
      report(.vttStrayEndTag, at: start, "</\(name)> closes nothing; it is ignored")
    }
  }

  /// Pops the current node into its parent.
  private mutating func close() {
    if !phantoms.isEmpty {
      phantoms.removeLast()
      return
    }
    guard let done = open.popLast() else { return }
    if build { append(.span(done.span)) }
  }

  private mutating func append(_ node: WebVTTNode) {
    if open.isEmpty {
      root.append(node)
    } else {
      open[open.count - 1].span.children.append(node)
    }
  }

  private mutating func finish() {
    if checking {
      for (index, item) in open.enumerated() {
        if index == 0 && item.span.kind == .voice && voiceFirst { continue }
        report(
          .vttUnclosedTag, at: item.tagOffset,
          "<\(item.span.kind.rawValue)> is not closed before the end of the cue")
      }
      if let first = phantoms.first {
        report(
          .vttUnclosedTag, at: range.upperBound,
          "\(phantoms.count) tags (the first <\(first.rawValue)>) are not closed before the end of the cue")
      }
    }
    phantoms.removeAll()
    while !open.isEmpty { close() }
  }

  private mutating func checkReferences(_ raw: Range<Int>, additionalAllowed: UInt8?) {
    // Most text has no `&` at all.
    guard !raw.isEmpty, memchr(bytes.baseAddress! + raw.lowerBound, 0x26, raw.count) != nil else { return }
    var i = raw.lowerBound
    while i < raw.upperBound {
      if bytes[i] == UInt8(ascii: "&") {
        if let match = WebVTTCharacterReference.consume(
          bytes, at: i + 1, end: raw.upperBound, additionalAllowed: additionalAllowed)
        {
          if !match.wellFormed {
            report(
              .vttBadCharacterReference, at: i,
              "character reference \(text(i..<match.next)) is malformed (missing ';' or a number no character has)"
            )
          }
          i = match.next
          continue
        }
        report(.vttBadCharacterReference, at: i, "a bare '&' must be written &amp;")
      }
      i += 1
    }
  }

  private mutating func report(_ code: FormatError.Code, at offset: Int, _ message: String) {
    // A hostile cue can hold millions of problems; the file lists only so many anyway.
    guard issues.count <= WebVTTParser.diagnosticLimit else {
      droppedIssues += 1
      return
    }
    issues.append(WebVTTIssue(code: code, offset: offset, message: message))
  }

  private func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  private func isBlank(_ range: Range<Int>) -> Bool {
    for i in range where !Self.isWhitespace(bytes[i]) { return false }
    return true
  }

  static func isWhitespace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D
  }

  /// Trims ASCII whitespace and turns each run of it into one space, as the annotation state does.
  static func collapse(_ text: String) -> String {
    var out = ""
    var pendingSpace = false
    for scalar in text.unicodeScalars {
      if scalar.isASCII && isWhitespace(UInt8(scalar.value)) {
        pendingSpace = !out.isEmpty
      } else {
        if pendingSpace { out += " " }
        pendingSpace = false
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// The node kind a tag name stands for, compared byte for byte (names are case-sensitive).
  static func kind(_ bytes: UnsafeBufferPointer<UInt8>, _ name: Range<Int>) -> WebVTTNode.Kind? {
    switch name.count {
    case 1:
      switch bytes[name.lowerBound] {
      case UInt8(ascii: "c"): return .class
      case UInt8(ascii: "i"): return .italic
      case UInt8(ascii: "b"): return .bold
      case UInt8(ascii: "u"): return .underline
      case UInt8(ascii: "v"): return .voice
      default: return nil
      }
    case 2:
      return bytes[name.lowerBound] == UInt8(ascii: "r") && bytes[name.lowerBound + 1] == UInt8(ascii: "t")
        ? .rubyText : nil
    case 4:
      let word = (
        bytes[name.lowerBound], bytes[name.lowerBound + 1], bytes[name.lowerBound + 2],
        bytes[name.lowerBound + 3]
      )
      if word == (0x72, 0x75, 0x62, 0x79) { return .ruby }  // "ruby"
      if word == (0x6C, 0x61, 0x6E, 0x67) { return .language }  // "lang"
      return nil
    default:
      return nil
    }
  }
}
