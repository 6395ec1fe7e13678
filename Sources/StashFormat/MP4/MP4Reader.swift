/// Reads one audio file, either in full (every sample, for `inspect`, playback and repair) or as a
/// summary for the listing: the same parsing, with as few reads as the layout allows.
struct MP4Reader {
  /// How much of the file to visit. `both` (lint's) reads a file without fragments in full and
  /// one with fragments as a summary, so one reading gives the summary and, where lint wants it,
  /// the full index; it becomes `full` or `summary` once the top-level boxes show which.
  enum Depth { case summary, full, both }

  private(set) var depth: Depth
  /// A `both` reading that went in full: whether the summary would have trusted the sample table
  /// and counted other samples than the full walk did, so a summary must be read on its own.
  private(set) var summaryDiffers = false
  /// Whether the reading was asked for `both`.
  let readsBoth: Bool
  /// Whether whole samples go into `samples` (a full reading that is asked to keep them).
  let keepsSamples: Bool
  var parser: MP4Parser
  var fileSize: Int { parser.window.size }

  var fragmented = false
  var movie: MP4Movie?
  var track: MP4Track?
  var config: AudioSpecificConfig?
  var problem: MP4Problem?
  /// Whole samples in decode order (full depth only).
  var samples: [AudioSample] = []
  /// Whole samples counted (in a summary of a fragmented file, only those of its last fragments).
  var wholeCount = 0
  /// Complete `moof` boxes read (full depth only).
  var fragmentCount = 0
  var wholeDuration: UInt64 = 0
  /// Where the bytes worth keeping end: the last whole sample, or the index when it comes later.
  var usableEnd = 0
  /// The last top-level box runs past the end of the file (or its header is cut off).
  var tornBox = false
  /// The index places sample bytes past the end of the file.
  var missingSamples = false
  /// Samples the index lists, whole or not.
  var listedCount = 0
  /// The file ends inside its `moov`: what is present of it is read, to say what it shows.
  var tornMovie = false
  /// The type of a first box no MP4 file starts with, when the file does not begin as one.
  var notMP4: FourCC?

  /// How much of the first bytes to read at once: `ftyp`, a fragmented file's `moov` and often
  /// the first `moof` fit, so a listing pays one `pread` for them.
  static let headBytes = 4 * 1024
  /// The types an MP4 (or QuickTime) file's first box has: the file type, or a writer's free
  /// space, index, media data, fragment or index of fragments put first.
  static let firstBoxTypes: Set<FourCC> = [
    .ftyp, FourCC("styp"), .moov, .mdat, .moof, FourCC("free"), FourCC("skip"), FourCC("wide"),
    FourCC("pdin"), FourCC("sidx"), FourCC("mfra"), .uuid, .meta, FourCC("prft"), FourCC("emsg"),
  ]
  /// The most top-level boxes read from one file.
  static let topLevelLimit = 1 << 20
  /// How much a summary reads around a header or small table it does not hold yet: enough that
  /// a finished file's `moov` at its end (a few KB for a short memo) comes with its header.
  static let readAhead = 16 * 1024
  /// How much of a `moov` a summary reads at once: the small tables come before the per-sample ones.
  static let movieBytes = 16 * 1024
  /// How much of the end a summary reads at once when it looks for the last fragment: a fragment
  /// of a few seconds (some 20 KB at 32 kb/s) and an `mfra` after it fit in one read.
  static let tailBytes = 32 * 1024
  /// The furthest back from the end a summary looks before walking every fragment instead.
  static let tailLimit = 4 * 1024 * 1024
  /// A `moov` or `moof` larger than this is read in pieces rather than into one buffer.
  static let wholeBoxLimit = 64 * 1024 * 1024

  var diagnostics: [Diagnostic] {
    get { parser.diagnostics }
    set { parser.diagnostics = newValue }
  }

  var cutShort: Bool { tornBox || missingSamples }

  /// Bytes after the usable end when the file was cut short; otherwise 0.
  var tailByteCount: Int { cutShort ? max(0, fileSize - usableEnd) : 0 }

  init(path: String, depth: Depth, listedAsRegularFile: Bool = false) throws(FormatError) {
    try self.init(FileLocation(path: path), depth: depth, listedAsRegularFile: listedAsRegularFile)
  }

  /// With `keepingSamples` false, a full reading visits every sample and checks it but keeps
  /// none in `samples`: what lint needs, without a list of every sample of every file.
  init(
    _ location: FileLocation, depth: Depth, listedAsRegularFile: Bool = false, keepingSamples: Bool = true
  ) throws(FormatError) {
    try self.init(
      ReadOnlyFile(location, listedAsRegularFile: listedAsRegularFile), depth: depth,
      keepingSamples: keepingSamples)
  }

  /// Reads the file already opened as `file`.
  init(_ file: ReadOnlyFile, depth: Depth, keepingSamples: Bool = true) throws(FormatError) {
    self.depth = depth
    readsBoth = depth == .both
    keepsSamples = depth == .full && keepingSamples
    // A summary reads a little around each miss; the full index reads exactly what it parses,
    // so walking a thousand fragments never drags media data in.
    parser = MP4Parser(window: MP4FileWindow(file: file, readAhead: depth != .full ? Self.readAhead : 0))
    try parser.window.prefetch(at: 0, count: Self.headBytes)
    try read()
  }

  private mutating func read() throws(FormatError) {
    // A summary's walk stops at the first moof after the moov; without a moov it walks to the end.
    var boxes = try walk(from: 0, stopAtFirstFragment: depth != .full)
    if depth == .both {
      // With no moof the walk went where the full one goes, and only the table is read differently.
      depth = boxes.contains { $0.type == .moof } ? .summary : .full
    }
    guard let moov = boxes.first(where: { $0.type == .moov }) else {
      problem = notMP4.map(MP4Problem.notMP4) ?? .noMovie
      // Fragments without an index still show the layout the writer used.
      fragmented = boxes.contains { $0.type == .moof }
      return
    }
    try parser.window.prefetch(
      at: moov.offset,
      count: depth == .full ? min(moov.size, Self.wholeBoxLimit) : min(moov.size, Self.headBytes))
    let movie = try parser.parse(moov)
    self.movie = movie
    if tornMovie {
      try readTornMovie(movie)
      // An index cut off has that one finding (mp4-index-cut-off); the torn tail would say the
      // same cut again, placed where the index starts.
      if problem == .indexCutOff { diagnostics.removeAll { $0.code == .mp4TornTail } }
      return
    }
    usableEnd = moov.end
    let firstFragment = boxes.first { $0.type == .moof }
    fragmented = movie.hasMovieExtends || firstFragment != nil
    guard let track = movie.audioTrack else {
      problem = .noAudioTrack
      return
    }
    self.track = track
    switch track.audioSpecificConfig.flatMap(AudioSpecificConfig.parse) {
    case .success(let config): self.config = config
    case .failure(let failure): problem = failure
    }

    // Samples the moov's own table lists (a finished file; empty in a fragmented one).
    let table = track.table
    if !table.isEmpty {
      if depth == .summary, !tornBox, firstFragment == nil, try lastChunkIsInMediaData(table, boxes: boxes) {
        // A complete file whose last chunk lies in a complete mdat is trusted here; `inspect`
        // and lint check every sample.
        wholeCount = table.sampleCount
        wholeDuration = table.duration(ofFirst: table.sampleCount)
      } else {
        // What a summary would have trusted (a `both` reading going in full), to compare.
        var trusted: (count: Int, duration: UInt64)?
        if readsBoth, !tornBox, firstFragment == nil, try lastChunkIsInMediaData(table, boxes: boxes) {
          trusted = (table.sampleCount, table.duration(ofFirst: table.sampleCount))
        }
        defer {
          if let trusted {
            summaryDiffers =
              wholeCount != trusted.count || wholeDuration != trusted.duration || missingSamples
          }
        }
        var window = parser.window
        var diagnostics = parser.diagnostics
        // Out of `parser` while the table is walked, so each sample is kept without a copy of either.
        parser.diagnostics = []
        parser.window = MP4FileWindow(file: window.file)
        defer {
          parser.window = window
          parser.diagnostics = diagnostics
        }
        if keepsSamples {
          try table.forEachSample(window: &window, diagnostics: &diagnostics) { keep($0) }
        } else {
          count(try table.tally(window: &window, diagnostics: &diagnostics, fileSize: fileSize))
        }
      }
    }

    guard let firstFragment else {
      finish()
      return
    }
    let defaults = movie.trackExtends[track.trackID] ?? MP4TrackExtends()
    if depth == .summary, try summarizeFragments(from: firstFragment, track: track, defaults: defaults) {
      finish()
      return
    }
    // Every fragment, in file order; a summary lands here only when the quick way fails.
    if depth == .summary { boxes += try walk(from: firstFragment.end, stopAtFirstFragment: false) }
    // Where the audio so far ends: no sample may decode before it (FORMAT.md §2.2).
    var decodeTime = Int64(clamping: table.duration())
    var movedLater: (first: MP4BoxHeader, count: Int)?
    for moof in boxes where moof.type == .moof {
      try parser.window.prefetch(at: moof.offset, count: min(moof.size, Self.wholeBoxLimit))
      let fragment = try parser.fragment(
        moof, trackID: track.trackID, defaults: defaults, nextDecodeTime: decodeTime)
      fragmentCount += 1
      var moved = false
      for var sample in fragment.samples {
        // A damaged tfdt (or one taken from another clock) would put this sample before the end
        // of the one before it; seeking binary-searches decode times, so they must not go back.
        if sample.decodeTime < decodeTime {
          sample.decodeTime = decodeTime
          moved = true
        }
        keep(sample)
        decodeTime = Self.end(of: sample)
      }
      if moved { movedLater = (movedLater?.first ?? moof, (movedLater?.count ?? 0) + 1) }
    }
    if let (first, count) = movedLater {
      diagnostics.append(
        Diagnostic(
          code: .mp4BadFragment, severity: .warning,
          message:
            "decode times go back in \(Text.count(count, "fragment")) (a damaged tfdt): their samples "
            + "are moved to start where the audio before them ends, so that time only moves forward",
          location: SourceLocation(offset: first.offset)))
    }
    finish()
  }

  /// A `moov` the file ends inside is never played from; it is read to say what it shows: an
  /// index whose samples all lie outside the file, or an index cut off.
  private mutating func readTornMovie(_ movie: MP4Movie) throws(FormatError) {
    problem = .indexCutOff
    // A track returned by the parse is whole, its tables too (children end where the file does).
    guard let track = movie.audioTrack, case .success(let bytes) = track.audioSpecificConfig,
      case .success(let config) = AudioSpecificConfig.parse(bytes), !track.table.isEmpty
    else { return }
    (self.track, self.config) = (track, config)
    var listed = 0
    for sample in try track.table.samples(window: &parser.window, diagnostics: &parser.diagnostics) {
      if isWhole(sample) { return }
      listed += 1
    }
    problem = .samplesOutsideFile(listed: listed)
  }

  /// When `sample` ends, in the media timescale; times past the largest are held there.
  static func end(of sample: AudioSample) -> Int64 {
    let (sum, overflow) = sample.decodeTime.addingReportingOverflow(Int64(sample.duration))
    return overflow ? .max : sum
  }

  /// Whether the table's last chunk starts inside a complete top-level `mdat` of known size (one
  /// small read).
  private mutating func lastChunkIsInMediaData(_ table: MP4SampleTable, boxes: [MP4BoxHeader])
    throws(FormatError)
    -> Bool
  {
    guard table.chunkCount > 0 else { return false }
    let width = table.wideChunkOffsets ? 8 : 4
    var entry = MP4ByteReader(
      try parser.window.bytes(at: table.chunkOffsetsOffset + (table.chunkCount - 1) * width, count: width))
    guard let last = table.wideChunkOffsets ? entry.uint64() : entry.uint32().map(UInt64.init) else {
      return false
    }
    return boxes.contains { box in
      // An mdat of size 0 "runs to the end", so its end says nothing about what was cut off.
      box.type == .mdat && !box.runsToEnd && UInt64(box.payloadOffset) <= last && last < UInt64(box.end)
    }
  }

  /// Whether all of `sample`'s bytes lie in the file: the one test of a whole sample.
  func isWhole(_ sample: AudioSample) -> Bool {
    sample.offset >= 0 && sample.size >= 0 && sample.offset <= fileSize - sample.size
  }

  /// Counts a sample if all its bytes lie in the file.
  mutating func keep(_ sample: AudioSample) {
    listedCount += 1
    guard isWhole(sample) else {
      missingSamples = true
      return
    }
    wholeCount += 1
    wholeDuration &+= UInt64(sample.duration)
    usableEnd = max(usableEnd, sample.offset + sample.size)
    if keepsSamples { samples.append(sample) }
  }

  /// Counts samples a table's tally counted, as `keep` would have counted each.
  private mutating func count(_ tally: MP4SampleTable.Tally) {
    listedCount += tally.listed
    wholeCount += tally.whole
    wholeDuration &+= tally.duration
    if tally.whole > 0 { usableEnd = max(usableEnd, tally.end) }
    missingSamples = missingSamples || tally.missing
  }

  private mutating func finish() {
    if problem == nil && wholeCount == 0 {
      // An index whose every sample lies past the end is not a kill before the first fragment:
      // the bytes show an index and no media data.
      problem =
        missingSamples && !fragmented
        ? .samplesOutsideFile(listed: listedCount) : .noWholeSample(fragmented: fragmented)
    }
    if missingSamples && !tornBox && wholeCount > 0 {
      diagnostics.append(
        Diagnostic(
          code: .mp4MissingSamples, severity: .warning,
          message: "the index places audio past the end of the file; it plays up to its last whole sample",
          location: SourceLocation(offset: fileSize)))
    }
  }

  /// Walks top-level box headers from `start` to the end of the file, recording a torn last box.
  /// A summary stops at the first `moof` after a `moov` and finds the rest from the end.
  mutating func walk(from start: Int, stopAtFirstFragment: Bool) throws(FormatError) -> [MP4BoxHeader] {
    var boxes: [MP4BoxHeader] = []
    boxes.reserveCapacity(8)
    var offset = start
    var sawMovie = false
    // A file whose first box is of no type an MP4 file starts with was never one: its first
    // bytes read as a size say nothing of where it was cut, so no torn tail is reported.
    if start == 0, fileSize >= 8 {
      let type = FourCC(try parser.window.bytes(at: 4, count: 4).reduce(0) { $0 << 8 | UInt32($1) })
      guard Self.firstBoxTypes.contains(type) else {
        notMP4 = type
        return boxes
      }
    }
    while offset < fileSize {
      // Memory stays bounded whatever the file: a 10-hour recording has some 36,000 boxes.
      guard boxes.count < Self.topLevelLimit else {
        torn(
          at: offset,
          "the file holds more than \(Self.topLevelLimit) top-level boxes; the rest, from here, is not read")
        return boxes
      }
      switch try parser.window.header(at: offset, containerEnd: fileSize) {
      case .short:
        torn(
          at: fileSize,
          "the file ends \(fileSize - offset) bytes into the header of a box that starts at byte \(offset): "
            + "the file was cut short")
        return boxes
      case .invalid(let reason):
        torn(at: offset, "\(reason); the \(fileSize - offset) bytes from here on cannot be read")
        return boxes
      case .header(let box):
        if box.end > fileSize {
          torn(
            at: fileSize,
            "the file ends \(fileSize - offset) bytes into the '\(box.type)' box that starts at byte \(offset) "
              + "and should be \(box.size) bytes: the file was cut short")
          // A torn index is still read as far as it goes: its tables may be whole.
          if box.type == .moov && !sawMovie {
            tornMovie = true
            var present = box
            present.size = fileSize - offset
            boxes.append(present)
          }
          return boxes
        }
        boxes.append(box)
        if box.type == .moov { sawMovie = true }
        if stopAtFirstFragment && sawMovie && box.type == .moof { return boxes }
        offset = box.end
      }
    }
    return boxes
  }

  /// Records a torn tail: `message`, placed at byte `offset` (where the file ends, for a cut).
  private mutating func torn(at offset: Int, _ message: String) {
    tornBox = true
    diagnostics.append(
      Diagnostic(
        code: .mp4TornTail, severity: .warning, message: message, location: SourceLocation(offset: offset)))
  }
}
