import CExpat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One parse: an expat parser set up safely, fed chunk by chunk, then turned into a document.
/// The one place expat is used: its callbacks hand `GPXParseState` what `GPXScanner` hands it
/// too (namespaces and local names, attributes and text as byte ranges, the offset of each
/// event), and the state's refusals and text capture are turned into expat calls here.
final class GPXReadSession {
  /// What expat's callbacks reach through their user data: the state, the parser, and the
  /// reusable room for a tag's attributes. Allocated here, so it stays put.
  private struct Context: ~Copyable {
    var state = GPXParseState()
    let parser: XML_Parser
    /// Whether the character-data callback is installed: it is only while a field's text is
    /// captured, so the whitespace between elements costs expat no callback at all.
    var capturing = false
    var attributes = GPXAttributeRoom()

    init() {
      // The separator cannot occur in a namespace name (XML 1.0 has no U+0001), so splitting at
      // it is unambiguous.
      parser = XML_ParserCreateNS(nil, 0x01)
    }

    deinit {
      XML_ParserFree(parser)
      attributes.deallocate()
    }

    /// Tells the state where the event expat is reporting starts.
    @inline(__always) mutating func placeEvent() {
      state.eventOffset = Int(XML_GetCurrentByteIndex(parser))
    }

    /// Installs or removes the character-data callback as the state starts or stops capturing.
    @inline(__always) mutating func followCapture() {
      let wanted = state.capture != .none
      guard wanted != capturing else { return }
      capturing = wanted
      XML_SetCharacterDataHandler(parser, wanted ? GPXReadSession.characterData : nil)
    }
  }

  private let pointer: UnsafeMutablePointer<Context>
  private var fed = 0
  /// Where the run of NUL bytes that ends the input so far begins: a file cut by a crash is
  /// often padded with zeros, and an error inside that run is a tear, not malformed XML.
  private var zeroRunStart = 0
  private var failed = false
  /// Whether anything but whitespace has arrived: an input of only whitespace is empty.
  private var sawContent = false

  /// The salt of expat's hash tables (against collision floods), drawn once per process: expat
  /// otherwise asks getrandom(2) for a fresh one every parse, a system call per route part in a
  /// sweep. Unknown to a file's author either way.
  private static let hashSalt = UInt.random(in: 0...UInt.max)

  /// A session for one document. With `wholeText`, the caller promises to hand that text to
  /// `feed` in one final call and to keep it alive until `finish`: track points are then placed
  /// by counting lines in it rather than by asking expat (see `GPXLineCounter`).
  init(wholeText: UnsafeBufferPointer<UInt8>? = nil) {
    pointer = .allocate(capacity: 1)
    pointer.initialize(to: Context())
    let parser = pointer.pointee.parser
    XML_SetUserData(parser, UnsafeMutableRawPointer(pointer))
    // Without a line counter (a document read in pieces, or not in UTF-8), expat places events.
    pointer.pointee.state.placeEvent = {
      (Int(XML_GetCurrentLineNumber(parser)), Int(XML_GetCurrentColumnNumber(parser)) + 1)
    }
    XML_SetHashSalt(parser, GPXReadSession.hashSalt)
    if let wholeText {
      state.lineCounter = GPXLineCounter(wholeText)
      // The counter reads UTF-8; a document that declares another encoding is placed by expat.
      XML_SetXmlDeclHandler(parser, GPXReadSession.xmlDeclaration)
      // UTF-16 (found from a byte-order mark or a NUL beside the first '<') too.
      if wholeText.count >= 2, wholeText[0] == 0 || wholeText[1] == 0 || wholeText[0] >= 0xFE {
        state.lineCounter = nil
      }
    }
    XML_SetElementHandler(parser, GPXReadSession.startElement, GPXReadSession.endElement)
    XML_SetEntityDeclHandler(parser, GPXReadSession.entityDeclaration)
    // Never read a DTD or parameter entity from anywhere, and no external-entity handler is
    // installed, so an external general entity is skipped rather than fetched.
    XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
    // Entity expansion may grow the input at most 100-fold once past 1 MiB (billion laughs).
    _ = stash_expat_limit_amplification(parser, 100, 1 << 20)
  }

  deinit {
    pointer.deinitialize(count: 1)
    pointer.deallocate()
  }

  private var state: GPXParseState {
    _read { yield pointer.pointee.state }
    _modify { yield &pointer.pointee.state }
  }

  private var parser: XML_Parser { pointer.pointee.parser }

  /// Hands `bytes` to expat; false once parsing has stopped (an error, or the reader's refusal).
  func feed(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) -> Bool {
    if let last = bytes.lastIndex(where: { $0 != 0 }) {
      zeroRunStart = fed + last + 1
    }
    fed += bytes.count
    if !sawContent { sawContent = bytes.contains { !DecimalText.isSpace($0) && $0 != 0 } }
    let status = bytes.withMemoryRebound(to: CChar.self) {
      XML_Parse(parser, $0.baseAddress, Int32(bytes.count), final ? 1 : 0)
    }
    if status == XML_STATUS_ERROR {
      failed = true
      return false
    }
    return true
  }

  /// The document, with a diagnostic for how parsing ended if it ended badly.
  func finish() -> GPXDocument {
    if failed { reportFailure() }
    return state.finishedDocument()
  }

  private func reportFailure() {
    let code = XML_GetErrorCode(parser)
    let (dropped, open) = state.closeOpenParts()
    if code == XML_ERROR_ABORTED, var reason = state.stopReason {
      reason.message += kept(dropped)
      state.log.add(reason.code, reason.severity, reason.message, at: reason.location)
      return
    }
    // expat has no position (-1) when it failed before reading a byte, as on an empty file: the
    // failure is then at the end of what was fed.
    let index = Int(XML_GetCurrentByteIndex(parser))
    let offset = index >= 0 ? index : fed
    let location = SourceLocation(
      line: max(1, Int(XML_GetCurrentLineNumber(parser))),
      column: Int(XML_GetCurrentColumnNumber(parser)) + 1,
      offset: offset)
    let expat = String(cString: XML_ErrorString(code))
    let atEnd: Bool
    switch code {
    case XML_ERROR_NO_ELEMENTS, XML_ERROR_UNCLOSED_TOKEN, XML_ERROR_PARTIAL_CHAR,
      XML_ERROR_UNCLOSED_CDATA_SECTION:
      atEnd = true
    default:
      atEnd = offset >= zeroRunStart && zeroRunStart < fed
    }
    if code == XML_ERROR_AMPLIFICATION_LIMIT_BREACH {
      state.log.add(
        .gpxEntityRefused, .error,
        "entity expansion grows the file more than 100-fold (an entity bomb such as billion laughs): "
          + "reading stopped" + kept(dropped), at: location)
    } else if !state.sawRoot {
      if !sawContent {
        state.log.add(.gpxEmpty, .error, "the file is empty: there is no GPX in it", at: location)
      } else if code == XML_ERROR_NO_ELEMENTS {
        state.log.add(
          .gpxTruncated, .error, "the file ends before its first element: nothing to read", at: location)
      } else {
        state.log.add(.gpxNotXML, .error, "this is not XML (\(expat)), so it cannot be GPX", at: location)
      }
    } else if state.rootClosed {
      state.log.add(
        .gpxTrailingData, .warning,
        "bytes follow the end of </gpx> (\(expat)): ignored; everything before them was read", at: location)
    } else if atEnd {
      let inside =
        open.contains(.trackPoint) ? "a <trkpt>" : open.contains(.segment) ? "a <trkseg>" : "the <gpx>"
      state.log.add(
        .gpxTruncated, .error,
        "the file stops inside \(inside) (\(expat)), as a writer stopped mid-write leaves it" + kept(dropped),
        at: location)
    } else {
      state.log.add(
        .gpxMalformed, .error, "the XML breaks here (\(expat)): reading stopped" + kept(dropped),
        at: location)
    }
  }

  private func kept(_ dropped: Bool) -> String {
    let count = state.pointsKept
    var text = "; kept the \(Text.count(count, "point")) before it"
    if dropped { text += " and dropped the unfinished one" }
    return text
  }

  // expat's callbacks: non-capturing, so they convert to C function pointers; the context comes
  // back through the user-data pointer.
  private static let startElement: XML_StartElementHandler = { userData, name, attributes in
    let context = userData!.assumingMemoryBound(to: Context.self)
    context.pointee.placeEvent()
    let (space, local) = classify(name!)
    context.pointee.attributes.removeAll()
    var i = 0
    while let attributeName = attributes![i], let value = attributes![i + 1] {
      i += 2
      let nameCount = strlen(attributeName)
      // An attribute in a namespace (`uri<U+0001>local`) is not GPX's own.
      if memchr(attributeName, 1, nameCount) != nil { continue }
      context.pointee.attributes.append(
        GPXAttribute(name: bytes(attributeName, nameCount), value: bytes(value)))
    }
    let rootName = context.pointee.state.depth == 0 ? readable(name!) : nil
    context.pointee.state.start(space, local, context.pointee.attributes.attributes, rootName: rootName)
    if context.pointee.state.stopped {
      XML_StopParser(context.pointee.parser, XML_FALSE)
      return
    }
    context.pointee.followCapture()
  }

  private static let endElement: XML_EndElementHandler = { userData, _ in
    let context = userData!.assumingMemoryBound(to: Context.self)
    context.pointee.placeEvent()
    context.pointee.state.end()
    context.pointee.followCapture()
  }

  private static let characterData: XML_CharacterDataHandler = { userData, bytes, count in
    userData!.assumingMemoryBound(to: Context.self).pointee.state.appendText(bytes!, Int(count))
  }

  private static let xmlDeclaration: XML_XmlDeclHandler = { userData, _, encoding, _ in
    guard let encoding else { return }
    let name = String(cString: encoding).uppercased()
    if name != "UTF-8" && name != "US-ASCII" {
      userData!.assumingMemoryBound(to: Context.self).pointee.state.lineCounter = nil
    }
  }

  private static let entityDeclaration: XML_EntityDeclHandler = {
    userData, name, _, _, _, _, systemID, _, _ in
    guard let systemID else { return }
    let context = userData!.assumingMemoryBound(to: Context.self)
    context.pointee.placeEvent()
    context.pointee.state.note(
      .gpxExternalEntity, .warning,
      "the file declares an external entity '\(String(cString: name!))' (\(String(cString: systemID))): "
        + "stash never reads external entities, so references to it are left empty")
  }

  /// The namespace and local name of an expat element name (`namespace<U+0001>local`, or the
  /// bare local name for an element in no namespace).
  @inline(__always) private static func classify(_ name: UnsafePointer<CChar>) -> (
    GPXNamespace.Known, GPXElementNames.Local
  ) {
    let raw = UnsafeRawPointer(name)
    // strlen is vectorised and never reads past the terminator; every index read is below it.
    let length = strlen(name)
    // A namespace name cannot hold U+0001, so the first one ends it.
    guard let separator = memchr(raw, 1, length) else { return (.none, GPXElementNames.local(raw, length)) }
    let uriCount = UnsafeRawPointer(separator) - raw
    let space = GPXElementNames.namespace(raw, uriCount)
    guard space != .other else { return (.other, .other) }
    return (space, GPXElementNames.local(raw + uriCount + 1, length - uriCount - 1))
  }

  @inline(__always) private static func bytes(_ text: UnsafePointer<CChar>, _ count: Int? = nil)
    -> UnsafeBufferPointer<UInt8>
  {
    UnsafeBufferPointer(
      start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: count ?? strlen(text))
  }

  /// An expat element name as `{namespace}local`, for messages.
  private static func readable(_ name: UnsafePointer<CChar>) -> String {
    let text = String(cString: name)
    guard let separator = text.firstIndex(of: "\u{1}") else { return text }
    return "{\(text[..<separator])}\(text[text.index(after: separator)...])"
  }
}
