/// What a recording made by Apple's Voice Memos app says about itself: its title (`©nam`), the
/// app that wrote it (`©too`), its UUID (the `----` item com.apple.iTunes/voice-memo-uuid), the
/// MP4 creation time, and where its transcript (`tsrp`) lies. Reading it never reads media data.
public struct VoiceMemoItems: Sendable, Equatable {
  /// Where the transcript's JSON lies in the file.
  public struct TranscriptPlace: Sendable, Equatable {
    /// The box path, such as `moov/trak/udta/tsrp`.
    public var path: String
    /// The file offset of the box that holds it (`tsrp`, or the keyed item's `data`).
    public var boxOffset: Int
    /// The file offset of the JSON's first byte.
    public var offset: Int
    /// The JSON's length in bytes.
    public var size: Int
  }

  /// `©nam`: the title Voice Memos shows (its default is the place or "New Recording").
  public var title: String?
  /// `©too`: the writer, such as `com.apple.VoiceMemos (iPhone 16.2)`.
  public var tool: String?
  /// The recording's UUID, from the `voice-memo-uuid` item.
  public var uuid: String?
  /// The movie header's creation time, seconds since 1970 UTC, or nil when unset.
  public var creationTime: Double?
  /// Where the first audio track keeps its transcript, or nil when it has none.
  public var transcript: TranscriptPlace?
  /// What the MP4 reader noticed on the way (box sizes that overrun, and the like).
  public var diagnostics: [Diagnostic] = []

  /// The `©too` prefix of Apple's app.
  public static let toolPrefix = "com.apple.VoiceMemos"
  /// The most transcript bytes read: a two-hour recording's takes some 1.5 MB.
  public static let transcriptLimit = 64 * 1024 * 1024

  /// Whether the items say the file was written by Voice Memos (`©too`, or the UUID item).
  public var writtenByVoiceMemos: Bool { tool?.hasPrefix(Self.toolPrefix) == true || uuid != nil }

  /// Reads the items of the MP4 file `file`. Throws `mp4-no-index` or `mp4-index-cut-off` when
  /// there is no whole `moov` to read them from, and `io` when the file cannot be read.
  public static func read(_ file: ReadOnlyFile) throws(FormatError) -> VoiceMemoItems {
    var parser = MP4Parser(window: MP4FileWindow(file: file, readAhead: MP4Reader.readAhead))
    // The whole file as a container, so the top level is walked as every container is.
    let whole = MP4BoxHeader(
      type: FourCC(0), offset: 0, headerSize: 0, size: file.size, runsToEnd: false, userType: nil)
    let top = try parser.children(of: whole, depth: 0)
    guard let moov = top.first(where: { $0.type == .moov }) else {
      let end = top.last?.end ?? 0
      if case .header(let box) = try parser.window.header(at: end, containerEnd: file.size), box.type == .moov
      {
        throw FormatError(
          code: .mp4IndexCutOff,
          message:
            "the file ends \(file.size - end) bytes into its 'moov' box, which should be \(box.size) bytes: "
            + "the file was cut short, and its title and transcript are lost with the index",
          path: file.path, location: SourceLocation(offset: file.size))
      }
      throw FormatError(
        code: .mp4NoIndex,
        message: "the file has no 'moov' box: there is no index, title or transcript to read",
        path: file.path, location: SourceLocation(offset: end))
    }
    var items = VoiceMemoItems()
    let movie = try parser.parse(moov)
    items.creationTime = MP4Length.unixTime(movie.creationTime)
    for udta in try parser.children(of: moov, depth: 1) where udta.type == .udta {
      try parser.voiceMemoItems(in: udta, into: &items)
    }
    if let trak = movie.tracks.first(where: { $0.handler == .soun })?.box {
      items.transcript = try parser.transcriptPlace(in: trak)
    }
    items.diagnostics = parser.diagnostics
    return items
  }

  /// Reads the items of the file at `path`.
  public static func read(path: String) throws(FormatError) -> VoiceMemoItems {
    try read(ReadOnlyFile(path: path))
  }

  /// The transcript's JSON bytes from `file`, or nil when the track carries none. Throws
  /// `mp4-bad-transcript` for one larger than `transcriptLimit`.
  public func transcriptBytes(in file: ReadOnlyFile) throws(FormatError) -> [UInt8]? {
    guard let place = transcript else { return nil }
    guard place.size <= Self.transcriptLimit else {
      throw FormatError(
        code: .mp4BadTranscript,
        message:
          "the transcript in \(place.path) is \(place.size) bytes, more than the \(Self.transcriptLimit) "
          + "a transcript is read up to",
        path: file.path, location: SourceLocation(offset: place.boxOffset))
    }
    return try file.read(at: place.offset, count: place.size)
  }

  /// The transcript of the recording in `file`, parsed, or nil when it carries none.
  public func readTranscript(in file: ReadOnlyFile) throws(FormatError) -> VoiceMemoTranscript? {
    guard let place = transcript, let bytes = try transcriptBytes(in: file) else { return nil }
    return try VoiceMemoTranscript.parse(bytes, path: file.path, offset: place.offset)
  }
}
