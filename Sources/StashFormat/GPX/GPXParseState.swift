/// What the reader is building while expat (or `GPXScanner`) walks a file: the element stack, the
/// text of the element being captured, and the document so far. It knows nothing of expat: the
/// reader feeding it (`GPXReadSession` for expat, `GPXScanner`) hands it each element's namespace
/// and local name, its attributes and text as byte ranges, and where in the text each event is,
/// through the methods in `GPXParseState+Elements.swift`. A struct rather than a class: a class's stored
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

  /// Where the event being reported starts in the text (its `<`), set by the reader feeding the
  /// state before each event.
  var eventOffset = 0
  /// The line and column of the event being reported, asked only when no `lineCounter` places it
  /// (expat knows its own lines when it reads a document in pieces).
  var placeEvent: (() -> (line: Int, column: Int))?
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
  /// Why the state refused to read on (nesting too deep, a root that is not GPX); the reader
  /// feeding it stops there and reports it.
  var stopReason: Diagnostic?
  /// Set with `stopReason`; a plain flag so the hot path does not copy a Diagnostic to test it.
  var stopped = false

  var point = GPXPoint(latitude: 0, longitude: 0)
  var pointOpen = false
  var segmentPoints: [GPXPoint] = []
  var track = GPXTrack()
  var route = GPXRoute()
  var pointsKept = 0
  /// Places events when the whole document is in memory; nil when `placeEvent` does.
  var lineCounter: GPXLineCounter?

  /// A state for one document; its feeder sets `lineCounter` or `placeEvent`.
  init() {
    stack = .allocate(capacity: Self.maximumDepth + 1)
  }

  deinit {
    stack.deallocate()
    text.deallocate()
  }

  /// Where the event being reported is.
  var location: SourceLocation {
    // Mutating: the line counter remembers where it last counted to.
    mutating get {
      let (line, column) = place
      return SourceLocation(line: line, column: column, offset: eventOffset)
    }
  }

  /// The line and column of the event being reported.
  var place: (line: Int, column: Int) {
    mutating get { lineCounter?.position(of: eventOffset) ?? placeEvent?() ?? (1, 1) }
  }

  mutating func note(_ code: FormatError.Code, _ severity: Severity, _ message: String) {
    log.add(code, severity, message, at: location)
  }

  /// Refuses to read on: the feeder stops at the event and the reason is reported once it has.
  /// (The scanner gives such a document to expat.)
  mutating func stop(_ code: FormatError.Code, _ message: String) {
    stopReason = Diagnostic(code: code, severity: .error, message: message, location: location)
    stopped = true
  }

  /// Text of the element being captured: `count` bytes at `bytes`.
  @inline(__always) mutating func appendText(_ bytes: UnsafeRawPointer, _ count: Int) {
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
