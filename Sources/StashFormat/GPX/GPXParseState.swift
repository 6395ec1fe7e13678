import CExpat

/// What the reader is building while expat (or `GPXScanner`) walks a file: the element stack, the
/// text of the element being captured, and the document so far. Expat's callbacks reach it through
/// a pointer `GPXReadSession` allocates and call the methods in `GPXParseState+Elements.swift`; the
/// scanner holds it inline and calls them directly. A struct rather than a class: a class's stored
/// properties are checked for exclusive access at run time on every change, which took about a tenth of
/// the reader's time with the scanner; a struct's are checked when compiling.
struct GPXParseState: ~Copyable {
  /// What an open element is to the reader; kept on a stack so end tags need no name matching.
  enum Kind: UInt8 {
    case ignored, root, metadata, track, segment, trackPoint, route, routePoint, waypoint, field
  }

  /// Which value the captured text becomes when its element closes.
  enum Field: UInt8 {
    case none, metadataName, metadataDescription, metadataTime, trackName, trackDescription
    case trackType, routeName, routeDescription, elevation, time, speed, course, accuracy, hdop
    case pointName, pointDescription
  }

  /// Deeper nesting than this is refused: GPX needs about eight levels.
  static let maximumDepth = 1024
  /// Text longer than this in one element is cut (and said so): no GPX field needs more.
  static let maximumText = 64 * 1024

  /// The expat parser feeding this state; nil when `GPXScanner` does, which sets `scanOffset`.
  let parser: XML_Parser?
  /// Where the event the scanner is reporting starts in the text (its `<`).
  var scanOffset = 0
  var stack: UnsafeMutablePointer<Kind>
  var depth = 0
  var text = GPXByteBuffer(capacity: 256)
  var textCut = false
  var capture = Field.none

  var document = GPXDocument(version: "1.1")
  var log = GPXDiagnosticLog()
  /// The namespace GPX elements are in for this file (set by the root element).
  var gpxNamespace = GPXNamespace.Known.gpx11
  var sawRoot = false
  var rootClosed = false
  /// Why the reader stopped expat, recorded after `XML_Parse` returns.
  var stopReason: Diagnostic?
  /// Set with `stopReason`; a plain flag so the hot path does not copy a Diagnostic to test it.
  var stopped = false

  var point = GPXPoint(latitude: 0, longitude: 0)
  var pointOpen = false
  var segmentPoints: [GPXPoint] = []
  var track = GPXTrack()
  var route = GPXRoute()
  var pointsKept = 0
  let names = GPXElementNames()
  /// Places track points when the whole document is in memory; nil when expat places them.
  var lineCounter: GPXLineCounter?

  /// A state fed by a new expat parser, or with `expat` false by the caller, which must then set
  /// `lineCounter` and `scanOffset`.
  init(expat: Bool = true) {
    // The separator cannot occur in a namespace name (XML 1.0 has no U+0001), so splitting at
    // it is unambiguous.
    parser = expat ? XML_ParserCreateNS(nil, 0x01) : nil
    stack = .allocate(capacity: Self.maximumDepth + 1)
  }

  deinit {
    if let parser { XML_ParserFree(parser) }
    stack.deallocate()
    text.deallocate()
  }

  var location: SourceLocation {
    // Mutating: the line counter remembers where it last counted to.
    mutating get {
      guard let parser else {
        let (line, column) = lineCounter!.position(of: scanOffset)
        return SourceLocation(line: line, column: column, offset: scanOffset)
      }
      return SourceLocation(
        line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)) + 1,
        offset: Int(XML_GetCurrentByteIndex(parser)))
    }
  }

  mutating func note(_ code: FormatError.Code, _ severity: Severity, _ message: String) {
    log.add(code, severity, message, at: location)
  }

  /// Stops expat from inside a callback; the reason is reported once `XML_Parse` returns. (The
  /// scanner gives such a document to expat.)
  mutating func stop(_ code: FormatError.Code, _ message: String) {
    stopReason = Diagnostic(code: code, severity: .error, message: message, location: location)
    stopped = true
    if let parser { XML_StopParser(parser, XML_FALSE) }
  }

  @inline(__always) mutating func appendText(_ bytes: UnsafePointer<CChar>, _ count: Int) {
    var count = count
    if text.count + count > Self.maximumText {
      textCut = true
      count = Self.maximumText - text.count
      if count <= 0 { return }
    }
    text.append(bytes, count)
  }

  /// The document read, with the diagnostics noted on the way.
  func finishedDocument() -> GPXDocument {
    var finished = document
    finished.diagnostics = log.finished()
    return finished
  }

  var capturedText: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: text.base, count: text.count) }
}
