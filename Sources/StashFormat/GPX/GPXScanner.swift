#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reads the XML that GPX writers produce, in Swift, over a document held whole in memory, and
/// hands `GPXParseState` what `GPXReadSession` hands it from expat: each element's namespace and
/// local name, its attributes in no namespace, the same text, at the same offsets. It reads the bench's route set in a half to
/// a third of the CPU time expat takes inside the same reader: expat's general machinery (a tokenizer
/// per encoding, a callback per event through C, names built for every element) was most of the
/// time of reading a route, and lint reads every route in a folder.
///
/// It takes only a strict subset of XML 1.0 with namespaces, and checks that subset fully: UTF-8
/// (well formed, no code point XML forbids), names in ASCII, the five predefined entities and
/// character references, comments, an XML declaration naming version 1.0 and UTF-8, whitespace
/// around the root. Anything else, whether an error or only something it does not take (a DOCTYPE,
/// CDATA, a processing instruction, a name outside ASCII, a reserved prefix), and anything the
/// reader stops at (a root that is not `<gpx>`, nesting too deep), makes it give up: `read`
/// returns nil and the caller reads the document with expat from the start. So every document it
/// reads is one expat reads the same way, and every message about damaged XML is expat's.
struct GPXScanner: ~Copyable {
  /// Why the scanner gives a document to expat; it carries nothing, since expat says what is wrong.
  struct GiveUp: Error {}

  /// A namespace prefix in scope: declared by an open element, for it and what it holds.
  private struct Binding {
    /// The prefix's bytes in the text (empty for the default namespace).
    var prefix: Range<Int>
    /// The namespace as the reader knows it (none for an undeclared default).
    var known: GPXNamespace.Known
  }

  /// One `name="value"` of the start tag being read; `value` is decoded, in `buffer`.
  private struct Attribute {
    var name: Range<Int>
    /// Where the prefix's colon is in the name, or nil without a prefix.
    var colon: Int?
    var value: Range<Int>
    /// Whether it is `xmlns` or `xmlns:p`, a namespace declaration rather than an attribute.
    var declares: Bool
  }

  private static let xmlNamespace = Array("http://www.w3.org/XML/1998/namespace".utf8)
  private static let xmlnsNamespace = Array("http://www.w3.org/2000/xmlns/".utf8)

  private let text: UnsafePointer<UInt8>
  private let classes = GPXScanner.classes
  private let end: Int
  private var i = 0
  var state = GPXParseState()
  /// Each open element's qualified name in the text and how many bindings were in scope before it:
  /// `openCount` of them. A plain allocation, not an Array: a tag pushes or pops one with no
  /// uniqueness check. The state stops deeper nesting than its limit, so that many is room enough.
  private let open: UnsafeMutablePointer<(name: Range<Int>, bindings: Int)>
  private var openCount = 0
  private var bindings: [Binding] = []
  /// Each binding's namespace URI, apart so that `Binding` holds no reference.
  private var uris: [[UInt8]] = []
  private var attributes: [Attribute] = []
  /// The decoded values of the tag's attributes, in one buffer.
  private var buffer = GPXByteBuffer(capacity: 1024)
  /// The attributes handed to the state.
  private var handed = GPXAttributeRoom()

  /// The document in `text`, or nil when expat must read it.
  static func read(_ text: UnsafeBufferPointer<UInt8>) -> GPXDocument? {
    guard let base = text.baseAddress, !text.isEmpty else { return nil }
    var scanner = GPXScanner(base, text)
    do throws(GiveUp) {
      try scanner.document()
    } catch {
      return nil
    }
    return scanner.state.finishedDocument()
  }

  private init(_ base: UnsafePointer<UInt8>, _ text: UnsafeBufferPointer<UInt8>) {
    self.text = base
    end = text.count
    state.lineCounter = GPXLineCounter(text)
    open = .allocate(capacity: GPXParseState.maximumDepth + 1)
  }

  deinit {
    buffer.deallocate()
    handed.deallocate()
    open.deallocate()
  }

  // MARK: The document

  private mutating func document() throws(GiveUp) {
    // A UTF-8 byte-order mark, then an XML declaration only at the very start.
    if end >= 3, text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF { i = 3 }
    if matches("<?xml"), i + 5 < end, isSpace(text[i + 5]) { try declaration() }
    try misc()
    guard i < end, text[i] == UInt8(ascii: "<") else { throw GiveUp() }
    try startTag()
    while openCount > 0 {
      try characters()
      // At a '<' (`characters` gives up at the end of the text).
      guard i + 1 < end else { throw GiveUp() }
      switch text[i + 1] {
      case UInt8(ascii: "/"): try endTag()
      case UInt8(ascii: "!"): try comment()
      case UInt8(ascii: "?"): throw GiveUp()
      default: try startTag()
      }
    }
    try misc()
    guard i == end else { throw GiveUp() }
  }

  /// Whitespace and comments, before and after the root.
  private mutating func misc() throws(GiveUp) {
    while true {
      _ = skipSpace()
      guard i < end, matches("<!--") else { return }
      try comment()
    }
  }

  /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`, encoding and standalone optional.
  private mutating func declaration() throws(GiveUp) {
    i += 5
    _ = skipSpace()
    guard equal(try pseudoAttribute("version"), "1.0") else { throw GiveUp() }
    var spaced = skipSpace()
    if spaced, matches("encoding") {
      let encoding = try pseudoAttribute("encoding")
      // Letters in either case.
      let name = encoding.map { text[$0] | (text[$0] >= 0x41 && text[$0] <= 0x5A ? 0x20 : 0) }
      guard name == Array("utf-8".utf8) else { throw GiveUp() }
      spaced = skipSpace()
    }
    if spaced, matches("standalone") {
      let standalone = try pseudoAttribute("standalone")
      guard equal(standalone, "yes") || equal(standalone, "no") else { throw GiveUp() }
      _ = skipSpace()
    }
    guard matches("?>") else { throw GiveUp() }
    i += 2
  }

  /// `name = "value"` inside the XML declaration: the value's range.
  private mutating func pseudoAttribute(_ name: StaticString) throws(GiveUp) -> Range<Int> {
    guard matches(name) else { throw GiveUp() }
    i += name.utf8CodeUnitCount
    _ = skipSpace()
    guard i < end, text[i] == UInt8(ascii: "=") else { throw GiveUp() }
    i += 1
    _ = skipSpace()
    guard i < end, text[i] == UInt8(ascii: "\"") || text[i] == UInt8(ascii: "'") else { throw GiveUp() }
    let quote = text[i]
    i += 1
    let start = i
    while i < end, text[i] != quote {
      guard text[i] >= 0x20, text[i] < 0x80 else { throw GiveUp() }
      i += 1
    }
    guard i < end else { throw GiveUp() }
    i += 1
    return start..<i - 1
  }

  /// `<!-- ... -->`, with no `--` inside.
  private mutating func comment() throws(GiveUp) {
    guard matches("<!--") else { throw GiveUp() }
    i += 4
    while i < end {
      let byte = text[i]
      if byte == UInt8(ascii: "-"), i + 1 < end, text[i + 1] == UInt8(ascii: "-") {
        guard i + 2 < end, text[i + 2] == UInt8(ascii: ">") else { throw GiveUp() }
        i += 3
        return
      }
      i += try character(at: i)
    }
    throw GiveUp()
  }

  // MARK: Elements

  private mutating func startTag() throws(GiveUp) {
    let tagStart = i
    i += 1
    let (name, colon) = try qualifiedName()
    if !attributes.isEmpty { attributes.removeAll(keepingCapacity: true) }
    buffer.count = 0
    var selfClosing = false
    while true {
      let spaced = skipSpace()
      guard i < end else { throw GiveUp() }
      if text[i] == UInt8(ascii: ">") {
        i += 1
        break
      }
      if text[i] == UInt8(ascii: "/") {
        guard i + 1 < end, text[i + 1] == UInt8(ascii: ">") else { throw GiveUp() }
        i += 2
        selfClosing = true
        break
      }
      guard spaced else { throw GiveUp() }
      let (attributeName, attributeColon) = try qualifiedName()
      _ = skipSpace()
      guard i < end, text[i] == UInt8(ascii: "=") else { throw GiveUp() }
      i += 1
      _ = skipSpace()
      let value = try attributeValue()
      let declares =
        text[attributeName.lowerBound] == UInt8(ascii: "x")
        && equal(attributeName.lowerBound..<(attributeColon ?? attributeName.upperBound), "xmlns")
      attributes.append(
        Attribute(name: attributeName, colon: attributeColon, value: value, declares: declares))
    }
    let bindingsBefore = bindings.count
    // Most tags have no attributes (`<ele>`, `<time>`): nothing to declare or list for those.
    if !attributes.isEmpty { try declareNamespaces() }
    let prefix = colon.map { name.lowerBound..<$0 } ?? name.lowerBound..<name.lowerBound
    let space = try binding(of: prefix).map { bindings[$0].known } ?? .none
    let local = colon.map { $0 + 1..<name.upperBound } ?? name
    let list = attributes.isEmpty ? GPXAttributes.none : try attributeList()
    open[openCount] = (name, bindingsBefore)
    openCount += 1
    state.eventOffset = tagStart
    state.start(space, GPXElementNames.local(text + local.lowerBound, local.count), list)
    if state.stopped { throw GiveUp() }
    // expat places the end of an empty element just after its tag.
    if selfClosing { closeElement(at: i) }
  }

  private mutating func endTag() throws(GiveUp) {
    let tagStart = i
    // The name must be the open element's, then nothing but space before `>`.
    guard openCount > 0, case let name = open[openCount - 1].name, i + 2 + name.count <= end,
      memcmp(text + i + 2, text + name.lowerBound, name.count) == 0
    else { throw GiveUp() }
    i += 2 + name.count
    _ = skipSpace()
    guard i < end, text[i] == UInt8(ascii: ">") else { throw GiveUp() }
    i += 1
    closeElement(at: tagStart)
  }

  private mutating func closeElement(at tagStart: Int) {
    openCount -= 1
    let closed = open[openCount]
    if bindings.count > closed.bindings {
      bindings.removeSubrange(closed.bindings...)
      uris.removeSubrange(closed.bindings...)
    }
    state.eventOffset = tagStart
    state.end()
  }

  /// The `xmlns` and `xmlns:p` attributes of the tag just read, as bindings for the element.
  private mutating func declareNamespaces() throws(GiveUp) {
    for attribute in attributes where attribute.declares {
      let prefix: Range<Int>
      if let colon = attribute.colon {
        prefix = colon + 1..<attribute.name.upperBound
        // xml and xmlns are reserved, and a prefix cannot be undeclared in XML 1.0.
        guard !equal(prefix, "xml"), !equal(prefix, "xmlns"), !attribute.value.isEmpty else { throw GiveUp() }
      } else {
        prefix = attribute.name.lowerBound..<attribute.name.lowerBound
      }
      let uri = Array(
        UnsafeBufferPointer(start: buffer.base + attribute.value.lowerBound, count: attribute.value.count))
      guard uri != Self.xmlNamespace, uri != Self.xmlnsNamespace else { throw GiveUp() }
      let known =
        uri.isEmpty ? .none : uri.withUnsafeBytes { GPXElementNames.namespace($0.baseAddress!, $0.count) }
      bindings.append(Binding(prefix: prefix, known: known))
      uris.append(uri)
    }
  }

  /// Where in `bindings` the binding of a prefix in scope is (an empty prefix: the default
  /// namespace, nil when there is none). Mutating though it changes nothing: a call from a
  /// mutating method to a non-mutating one that is not inlined copies the whole scanner (712
  /// bytes, its parse state inline) to lend it, once per tag.
  private mutating func binding(of prefix: Range<Int>) throws(GiveUp) -> Int? {
    guard !equal(prefix, "xml"), !equal(prefix, "xmlns") else { throw GiveUp() }
    var k = bindings.count - 1
    while k >= 0 {
      if equalText(bindings[k].prefix, prefix) { return k }
      k -= 1
    }
    // An unbound prefix is an error.
    guard prefix.isEmpty else { throw GiveUp() }
    return nil
  }

  /// The attributes other than namespace declarations and those in a namespace, as the state
  /// takes them. Gives up on a repeated attribute, by name or by namespace and local name, and on
  /// a prefix that is not bound.
  private mutating func attributeList() throws(GiveUp) -> GPXAttributes {
    handed.removeAll()
    // Each prefixed attribute's binding and local name, to find two prefixes bound to one
    // namespace that make one name of two.
    var prefixed: [(binding: Int, local: Range<Int>)] = []
    for k in attributes.indices {
      let attribute = attributes[k]
      var j = 0
      while j < k {
        if equalText(attributes[j].name, attribute.name) { throw GiveUp() }
        j += 1
      }
      if attribute.declares { continue }
      if let colon = attribute.colon {
        guard let binding = try binding(of: attribute.name.lowerBound..<colon) else { throw GiveUp() }
        let local = colon + 1..<attribute.name.upperBound
        for other in prefixed where uris[other.binding] == uris[binding] && equalText(other.local, local) {
          throw GiveUp()
        }
        prefixed.append((binding, local))
        continue
      }
      handed.append(
        GPXAttribute(
          name: UnsafeBufferPointer(start: text + attribute.name.lowerBound, count: attribute.name.count),
          value: UnsafeBufferPointer(
            start: buffer.base + attribute.value.lowerBound, count: attribute.value.count)))
    }
    return handed.attributes
  }

  // MARK: Names, values and text

  /// A name of ASCII letters, digits and `._-`, with at most one colon between two such parts.
  private mutating func qualifiedName() throws(GiveUp) -> (Range<Int>, colon: Int?) {
    // The loops keep their place in a local, which stays in a register.
    let start = i
    var j = i
    var colon: Int?
    guard j < end, isNameStart(text[j]) else { throw GiveUp() }
    j += 1
    while j < end {
      let byte = text[j]
      if isNameByte(byte) {
        j += 1
      } else if byte == UInt8(ascii: ":"), colon == nil, j + 1 < end, isNameStart(text[j + 1]) {
        colon = j
        j += 2
      } else {
        break
      }
    }
    i = j
    return (start..<j, colon)
  }

  /// A quoted attribute value, normalised as XML says (each whitespace character a space,
  /// references replaced), appended to `buffer`; its range there.
  private mutating func attributeValue() throws(GiveUp) -> Range<Int> {
    guard i < end, text[i] == UInt8(ascii: "\"") || text[i] == UInt8(ascii: "'") else { throw GiveUp() }
    let quote = text[i]
    i += 1
    let start = buffer.count
    while true {
      let run = i
      var j = i
      while j < end, isPlainValue(text[j]) { j += 1 }
      i = j
      if i > run { buffer.append(text + run, i - run) }
      guard i < end else { throw GiveUp() }
      let byte = text[i]
      if byte == quote { break }
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        buffer.append(byte: byte)
        i += 1
      case UInt8(ascii: "<"): throw GiveUp()
      case UInt8(ascii: "&"):
        let scalar = try reference()
        buffer.reserve(4)
        buffer.count += Self.encode(scalar, into: buffer.base + buffer.count)
      case 0x0D:
        // CR LF and a lone CR are one line end, and a line end is a space.
        i += i + 1 < end && text[i + 1] == 0x0A ? 2 : 1
        buffer.append(byte: 0x20)
      case 0x09, 0x0A:
        i += 1
        buffer.append(byte: 0x20)
      default:
        let length = try character(at: i)
        buffer.append(text + i, length)
        i += length
      }
    }
    i += 1
    return start..<buffer.count
  }

  /// The text up to the next `<`, handed to the state while it captures a field.
  private mutating func characters() throws(GiveUp) {
    let capturing = state.capture != .none
    var run = i
    while i < end {
      var j = i
      while j < end, isPlainText(text[j]) { j += 1 }
      i = j
      guard i < end else { break }
      let byte = text[i]
      switch byte {
      case UInt8(ascii: "<"):
        if capturing, i > run { state.appendText(text + run, i - run) }
        return
      case UInt8(ascii: "&"):
        if capturing, i > run { state.appendText(text + run, i - run) }
        let scalar = try reference()
        if capturing {
          var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
          withUnsafeMutableBytes(of: &bytes) { raw in
            let out = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let count = Self.encode(scalar, into: out)
            state.appendText(out, count)
          }
        }
        run = i
      case UInt8(ascii: "]"):
        if i + 2 < end, text[i + 1] == UInt8(ascii: "]"), text[i + 2] == UInt8(ascii: ">") { throw GiveUp() }
        i += 1
      case 0x0D:
        // Text hands on a line end as LF, whether it was CR LF or a lone CR.
        if capturing {
          if i > run { state.appendText(text + run, i - run) }
          var lineFeed: UInt8 = 0x0A
          state.appendText(&lineFeed, 1)
        }
        i += i + 1 < end && text[i + 1] == 0x0A ? 2 : 1
        run = i
      default:
        i += try character(at: i)
      }
    }
    throw GiveUp()
  }

  /// `&amp;` and its four siblings, `&#NN;` and `&#xHH;`: the character it stands for.
  private mutating func reference() throws(GiveUp) -> UInt32 {
    i += 1
    var scalar: UInt32 = 0
    if i < end, text[i] == UInt8(ascii: "#") {
      i += 1
      let hex = i < end && text[i] == UInt8(ascii: "x")
      if hex { i += 1 }
      let digits = i
      while i < end, text[i] != UInt8(ascii: ";") {
        guard let digit = Self.digit(text[i], hex: hex), scalar <= 0x10FFFF else { throw GiveUp() }
        scalar = scalar * (hex ? 16 : 10) + digit
        i += 1
      }
      guard i < end, i > digits, Self.isXMLCharacter(scalar) else { throw GiveUp() }
    } else {
      let name = i
      while i < end, text[i] != UInt8(ascii: ";"), i - name < 5 { i += 1 }
      guard i < end, text[i] == UInt8(ascii: ";") else { throw GiveUp() }
      let entity = name..<i
      if equal(entity, "amp") {
        scalar = 0x26
      } else if equal(entity, "lt") {
        scalar = 0x3C
      } else if equal(entity, "gt") {
        scalar = 0x3E
      } else if equal(entity, "quot") {
        scalar = 0x22
      } else if equal(entity, "apos") {
        scalar = 0x27
      } else {
        throw GiveUp()
      }
    }
    i += 1
    return scalar
  }

  /// Writes the UTF-8 of `scalar` (a valid code point) at `out`; how many bytes it took.
  private static func encode(_ scalar: UInt32, into out: UnsafeMutablePointer<UInt8>) -> Int {
    var count = 0
    for unit in Unicode.UTF8.encode(Unicode.Scalar(scalar)!)! {
      out[count] = unit
      count += 1
    }
    return count
  }

  /// The length of the character at `offset` (not `<` or `&`, which callers handle): 1 for
  /// allowed ASCII, 2 to 4 for well-formed UTF-8 of a code point XML allows; gives up otherwise.
  @inline(__always) private mutating func character(at offset: Int) throws(GiveUp) -> Int {
    let lead = text[offset]
    if lead < 0x80 {
      guard lead >= 0x20 || lead == 0x09 || lead == 0x0A || lead == 0x0D else { throw GiveUp() }
      return 1
    }
    let length: Int
    var scalar: UInt32
    switch lead {
    case 0xC2...0xDF: (length, scalar) = (2, UInt32(lead & 0x1F))
    case 0xE0...0xEF: (length, scalar) = (3, UInt32(lead & 0x0F))
    case 0xF0...0xF4: (length, scalar) = (4, UInt32(lead & 0x07))
    default: throw GiveUp()
    }
    guard offset + length <= end else { throw GiveUp() }
    for k in 1..<length {
      let byte = text[offset + k]
      guard byte & 0xC0 == 0x80 else { throw GiveUp() }
      scalar = scalar << 6 | UInt32(byte & 0x3F)
    }
    // Overlong forms are not UTF-8; surrogates, U+FFFE and U+FFFF are not XML.
    let shortest: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
    guard scalar >= shortest, Self.isXMLCharacter(scalar) else { throw GiveUp() }
    return length
  }

  // MARK: Bytes

  @discardableResult private mutating func skipSpace() -> Bool {
    let start = i
    var j = i
    while j < end, isSpace(text[j]) { j += 1 }
    i = j
    return j > start
  }

  private func matches(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    return i + count <= end && memcmp(text + i, literal.utf8Start, count) == 0
  }

  private func equal(_ range: Range<Int>, _ literal: StaticString) -> Bool {
    range.count == literal.utf8CodeUnitCount
      && memcmp(text + range.lowerBound, literal.utf8Start, range.count) == 0
  }

  private func equalText(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
    // Most are empty (the default namespace's prefix): no call for those.
    a.count == b.count && (a.isEmpty || memcmp(text + a.lowerBound, text + b.lowerBound, a.count) == 0)
  }

  /// What each byte can be, as bits: a table lookup per byte in the loops.
  // Written once, before any read of it, and never again.
  nonisolated(unsafe) private static let classes: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for byte in 0..<256 {
      let letter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
      let digitOrMark = (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x2E
      let ascii = (0x20..<0x80).contains(byte)
      var bits: UInt8 = 0
      if letter { bits |= nameStart }
      if letter || digitOrMark { bits |= nameByte }
      if ascii && ![0x26, 0x3C, 0x5D].contains(byte) || byte == 0x09 || byte == 0x0A { bits |= plainText }
      if ascii && ![0x26, 0x3C, 0x22, 0x27].contains(byte) { bits |= plainValue }
      if [0x20, 0x09, 0x0A, 0x0D].contains(byte) { bits |= space }
      table[byte] = bits
    }
    return UnsafePointer(table)
  }()
  /// A letter or `_`.
  private static let nameStart: UInt8 = 1
  /// A letter, a digit, or one of `_-.`.
  private static let nameByte: UInt8 = 2
  /// Text that needs no second look: ASCII but controls (tab and LF are fine), `&`, `<`, `]`.
  private static let plainText: UInt8 = 4
  /// An attribute value's byte that is itself: ASCII but controls, `&`, `<` and quotes.
  private static let plainValue: UInt8 = 8
  /// XML's whitespace: space, tab, LF, CR.
  private static let space: UInt8 = 16

  @inline(__always) private func isSpace(_ byte: UInt8) -> Bool { classes[Int(byte)] & Self.space != 0 }
  @inline(__always) private func isPlainText(_ byte: UInt8) -> Bool {
    classes[Int(byte)] & Self.plainText != 0
  }
  @inline(__always) private func isPlainValue(_ byte: UInt8) -> Bool {
    classes[Int(byte)] & Self.plainValue != 0
  }
  @inline(__always) private func isNameStart(_ byte: UInt8) -> Bool {
    classes[Int(byte)] & Self.nameStart != 0
  }
  @inline(__always) private func isNameByte(_ byte: UInt8) -> Bool { classes[Int(byte)] & Self.nameByte != 0 }

  private static func digit(_ byte: UInt8, hex: Bool) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// XML 1.0's Char: tab, LF, CR, and U+0020 up, without surrogates, U+FFFE and U+FFFF.
  private static func isXMLCharacter(_ scalar: UInt32) -> Bool {
    switch scalar {
    case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
    default: false
    }
  }
}
