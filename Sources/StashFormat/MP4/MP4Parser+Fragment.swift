/// Reading `moof`: track fragment headers, decode times and sample runs with every flag.
extension MP4Parser {
  // tfhd flags.
  static let baseDataOffsetPresent: UInt32 = 0x00_0001
  static let sampleDescriptionIndexPresent: UInt32 = 0x00_0002
  static let defaultDurationPresent: UInt32 = 0x00_0008
  static let defaultSizePresent: UInt32 = 0x00_0010
  static let defaultFlagsPresent: UInt32 = 0x00_0020
  static let durationIsEmpty: UInt32 = 0x01_0000
  static let defaultBaseIsMoof: UInt32 = 0x02_0000
  // trun flags.
  static let dataOffsetPresent: UInt32 = 0x000_001
  static let firstSampleFlagsPresent: UInt32 = 0x000_004
  static let sampleDurationPresent: UInt32 = 0x000_100
  static let sampleSizePresent: UInt32 = 0x000_200
  static let sampleFlagsPresent: UInt32 = 0x000_400
  static let sampleCompositionOffsetPresent: UInt32 = 0x000_800

  /// The samples `moof` gives track `trackID`. `nextDecodeTime` is where the previous fragment
  /// ended, used when a `traf` has no `tfdt`.
  mutating func fragment(
    _ moof: MP4BoxHeader, trackID: UInt32, defaults: MP4TrackExtends, nextDecodeTime: Int64
  ) throws(FormatError) -> MP4Fragment {
    var fragment = MP4Fragment()
    var decodeTime = nextDecodeTime
    // Without a base offset or default-base-is-moof, a traf's data follows the previous traf's.
    var previousTrafDataEnd = moof.offset
    for box in try children(of: moof, depth: 1) {
      if box.type == .mfhd {
        var r = try payload(box)
        if r.versionAndFlags() != nil { fragment.sequenceNumber = r.uint32() }
        continue
      }
      guard box.type == .traf else { continue }
      let trafBoxes = try children(of: box, depth: 2)
      guard let tfhd = trafBoxes.first(where: { $0.type == .tfhd }) else {
        diagnostics.append(
          Diagnostic(
            code: .mp4BadFragment, severity: .warning,
            message: "a track fragment has no tfhd box; it is skipped",
            location: SourceLocation(offset: box.offset)))
        continue
      }
      var header = try payload(tfhd)
      guard let (_, flags) = header.versionAndFlags(), let id = header.uint32() else { continue }
      var base = flags & Self.defaultBaseIsMoof != 0 ? moof.offset : previousTrafDataEnd
      var duration = defaults.duration
      var size = defaults.size
      if flags & Self.baseDataOffsetPresent != 0 {
        guard let value = header.uint64() else { continue }
        base = value > UInt64(Int.max / 4) ? Int.max / 4 : Int(value)
      }
      if flags & Self.sampleDescriptionIndexPresent != 0 { guard header.skip(4) else { continue } }
      if flags & Self.defaultDurationPresent != 0 {
        guard let value = header.uint32() else { continue }
        duration = value
      }
      if flags & Self.defaultSizePresent != 0 {
        guard let value = header.uint32() else { continue }
        size = value
      }
      var dataEnd = base
      var trafSamples: [AudioSample] = []
      if let tfdt = trafBoxes.first(where: { $0.type == .tfdt }) {
        var r = try payload(tfdt)
        if let (version, _) = r.versionAndFlags(),
          let time = version == 1 ? r.uint64() : r.uint32().map(UInt64.init)
        {
          let clamped = Int64(clamping: time)
          if id == trackID {
            decodeTime = clamped
            if fragment.baseDecodeTime == nil { fragment.baseDecodeTime = clamped }
          }
        }
      }
      if flags & Self.durationIsEmpty == 0 {
        var first = true
        for run in trafBoxes where run.type == .trun {
          try samples(
            of: run, base: base, first: first, defaultDuration: duration, defaultSize: size,
            dataEnd: &dataEnd,
            decodeTime: &decodeTime, into: &trafSamples)
          first = false
        }
      }
      previousTrafDataEnd = dataEnd
      // A moof nearly always holds one traf: its samples are taken as they are, not copied.
      if id == trackID {
        if fragment.samples.isEmpty {
          fragment.samples = trafSamples
        } else {
          fragment.samples += trafSamples
        }
      }
    }
    return fragment
  }

  /// Appends one `trun`'s samples. Its data starts at `base` + data_offset, or where the previous
  /// run's data ended (`dataEnd`), or at `base` for a traf's first run.
  private mutating func samples(
    of run: MP4BoxHeader, base: Int, first: Bool, defaultDuration: UInt32, defaultSize: UInt32,
    dataEnd: inout Int, decodeTime: inout Int64, into samples: inout [AudioSample]
  ) throws(FormatError) {
    var r = try payload(run)
    guard let (version, flags) = r.versionAndFlags(), let count = r.uint32() else { return }
    var offset = first ? base : dataEnd
    if flags & Self.dataOffsetPresent != 0 {
      guard let delta = r.int32() else { return }
      offset = base + Int(delta)
    }
    if flags & Self.firstSampleFlagsPresent != 0 { guard r.skip(4) else { return } }
    _ = version  // a version-1 trun only signs its composition offsets, which length never uses
    let perSample =
      [
        Self.sampleDurationPresent, Self.sampleSizePresent, Self.sampleFlagsPresent,
        Self.sampleCompositionOffsetPresent,
      ]
      .filter { flags & $0 != 0 }.count * 4
    // Check the count against what is present before reserving anything: per-sample fields must
    // fit the box, and samples that share defaults can be no more than an AAC frame's smallest
    // size (4 bytes) goes into the file.
    let room = perSample > 0 ? r.remaining / perSample : window.size / MP4Parser.smallestFrame
    let present = min(Int(count), room)
    if present < Int(count) {
      diagnostics.append(
        Diagnostic(
          code: .mp4BadFragment, severity: .warning,
          message: "a sample run counts \(count) samples but holds \(present); only those are used",
          location: SourceLocation(offset: run.offset)))
    }
    samples.reserveCapacity(samples.count + present)
    for _ in 0..<present {
      let duration = flags & Self.sampleDurationPresent != 0 ? r.uint32()! : defaultDuration
      let size = flags & Self.sampleSizePresent != 0 ? r.uint32()! : defaultSize
      if flags & Self.sampleFlagsPresent != 0 { _ = r.skip(4) }
      if flags & Self.sampleCompositionOffsetPresent != 0 { _ = r.skip(4) }
      samples.append(AudioSample(offset: offset, size: Int(size), duration: duration, decodeTime: decodeTime))
      // Wrapping arithmetic: hostile values make an offset no file reaches, never a trap.
      offset = offset &+ Int(size)
      decodeTime = decodeTime &+ Int64(duration)
    }
    dataEnd = offset
  }
}
