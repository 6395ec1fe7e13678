/// What a listing learns of a memo's transcript and route from a few bytes, so that `ls` and the
/// browser mark a memo whose transcript is not WebVTT, or whose route is empty or cut off, with
/// `!` without parsing either file. `show`, the detail pane and lint read the whole file and say
/// more; the codes are the readers' own, so one problem has one code everywhere.
public enum MemoFileSniff {
  /// Every code a sniff gives: lint finds them again from the whole file.
  public static let codes: Set<FormatError.Code> = [
    .vttNoSignature, .gpxEmpty, .gpxTruncated, .lintFileUnreadable,
  ]

  /// How many bytes of a route's end are read: the closing tag and the white space after it.
  static let routeTail = 256

  /// The problem of the transcript at `location`, if its first bytes show one.
  static func transcript(at location: FileLocation, listedAsRegularFile: Bool = false) -> Diagnostic? {
    let head: [UInt8]
    do {
      head = try ReadOnlyFile.start(location, count: 16, listedAsRegularFile: listedAsRegularFile)
    } catch {
      return Diagnostic(code: .lintFileUnreadable, severity: .error, message: error.message)
    }
    var bytes = head[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    let signature = Array("WEBVTT".utf8)
    if bytes.starts(with: signature) {
      let after = bytes.dropFirst(signature.count).first
      if after == nil || after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D { return nil }
    }
    return Diagnostic(
      code: .vttNoSignature, severity: .error,
      message:
        head.isEmpty
        ? "the transcript is empty: it holds no cue"
        : "the transcript is not WebVTT (it does not start with the line WEBVTT): no cue in it is read")
  }

  /// The problem of the route at `location`, if its size or its last bytes show one.
  static func route(at location: FileLocation, listedAsRegularFile: Bool = false) -> Diagnostic? {
    let tail: [UInt8]
    do {
      let file = try ReadOnlyFile(location, listedAsRegularFile: listedAsRegularFile)
      tail = try file.read(at: max(0, file.size - routeTail), count: min(file.size, routeTail))
    } catch {
      return Diagnostic(code: .lintFileUnreadable, severity: .error, message: error.message)
    }
    guard !tail.isEmpty else {
      return Diagnostic(code: .gpxEmpty, severity: .error, message: "the route is empty: it holds no point")
    }
    var end = tail.count
    while end > 0, [0x20, 0x09, 0x0A, 0x0D].contains(tail[end - 1]) { end -= 1 }
    // `</gpx>`, or with a namespace prefix (`</g:gpx>`).
    let closing = Array("gpx>".utf8)
    if end >= closing.count, Array(tail[(end - closing.count)..<end]) == closing { return nil }
    return Diagnostic(
      code: .gpxTruncated, severity: .error,
      message:
        "the route does not end with its closing </gpx> tag: it was cut short, and only the points before the cut are read"
    )
  }
}
