/// Reads boxes through a file window: containers are walked header by header and small leaves
/// are read whole; media data is never read. `+Movie` reads `moov`, `+Fragment` reads `moof`.
struct MP4Parser {
  var window: MP4FileWindow
  var diagnostics: [Diagnostic] = []

  /// Containers deeper than this are not entered: no real file nests boxes so far. (The parser
  /// only descends along the fixed paths to the boxes it reads, at most 9 deep.)
  static let depthLimit = 12
  /// The most children read from one container: real ones hold a handful (a traf, a few hundred
  /// truns at most), and the cap bounds memory against a container of millions of empty boxes.
  static let childLimit = 1 << 16
  /// The smallest bytes an AAC frame takes, used to bound counts that have no table behind them.
  static let smallestFrame = 4

  init(window: MP4FileWindow) { self.window = window }

  mutating func tableShort(_ box: MP4BoxHeader, _ name: String) {
    diagnostics.append(
      Diagnostic(
        code: .mp4BadSampleTable, severity: .warning,
        message: "the \(name) box counts more entries than it holds; only those present are used",
        location: SourceLocation(offset: box.offset)))
  }

  /// A reader over a leaf box's payload (at most `limit` bytes of it).
  mutating func payload(_ box: MP4BoxHeader, limit: Int = Int.max) throws(FormatError) -> MP4ByteReader {
    try window.reader(at: box.payloadOffset, count: min(box.payloadSize, limit))
  }

  /// The boxes inside `container`, whose payload starts after `skipping` bytes of fields. A child
  /// that claims more room than its container has ends the walk with a diagnostic.
  mutating func children(of container: MP4BoxHeader, skipping: Int = 0, depth: Int) throws(FormatError)
    -> [MP4BoxHeader]
  {
    guard depth <= Self.depthLimit else {
      diagnostics.append(
        Diagnostic(
          code: .mp4TooDeep, severity: .warning,
          message: "boxes nest more than \(Self.depthLimit) deep here; the inner ones are not read",
          location: SourceLocation(offset: container.offset)))
      return []
    }
    var boxes: [MP4BoxHeader] = []
    // Room for the few children a real container holds, so the array is allocated once rather
    // than grown two or three times: the listing walks some twenty containers per file.
    boxes.reserveCapacity(8)
    var offset = container.payloadOffset + skipping
    let end = container.end
    while offset + 8 <= end {
      guard boxes.count < Self.childLimit else {
        diagnostics.append(
          Diagnostic(
            code: .mp4BadBoxSize, severity: .warning,
            message:
              "the '\(container.type)' box holds more than \(Self.childLimit) boxes; the rest are not read",
            location: SourceLocation(offset: offset)))
        return boxes
      }
      switch try window.header(at: offset, containerEnd: end) {
      case .header(let box):
        guard box.end <= end else {
          // A container cut off by the end of the file (a torn moov) was reported as torn already.
          if end < window.size {
            diagnostics.append(
              Diagnostic(
                code: .mp4BadBoxSize, severity: .warning,
                message:
                  "the '\(box.type)' box runs past the end of the '\(container.type)' box that holds it",
                location: SourceLocation(offset: box.offset)))
          }
          return boxes
        }
        boxes.append(box)
        offset = box.end
      case .short:
        return boxes
      case .invalid(let reason):
        diagnostics.append(
          Diagnostic(
            code: .mp4BadBoxSize, severity: .warning, message: reason,
            location: SourceLocation(offset: offset)))
        return boxes
      }
    }
    return boxes
  }
}
