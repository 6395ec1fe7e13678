/// Reading `moov`: the per-sample tables are only located (see `MP4SampleTable`), never loaded here.
extension MP4Parser {
  /// The largest `mp4a` sample entry kept whole (an entry is some 50 bytes; its `esds` a few more).
  static let sampleEntryLimit = 64 * 1024

  /// Parses the `moov` box `movie`.
  mutating func parse(_ movie: MP4BoxHeader) throws(FormatError) -> MP4Movie {
    var result = MP4Movie()
    for box in try children(of: movie, depth: 1) {
      switch box.type {
      case .mvhd:
        var r = try payload(box)
        guard let (version, _) = r.versionAndFlags() else { continue }
        if version == 1 {
          guard let created = r.uint64(), r.skip(8), let scale = r.uint32() else { continue }
          result.creationTime = created
          result.timescale = scale
          result.duration = r.uint64() ?? 0
        } else {
          guard let created = r.uint32(), r.skip(4), let scale = r.uint32() else { continue }
          result.creationTime = UInt64(created)
          result.timescale = scale
          result.duration = r.uint32().map(UInt64.init) ?? 0
        }
      case .udta:
        result.gapless = try gapless(in: box) ?? result.gapless
      case .trak:
        var track = try track(box)
        track.box = box
        result.tracks.append(track)
      case .mvex:
        result.hasMovieExtends = true
        for child in try children(of: box, depth: 2) where child.type == .trex {
          var r = try payload(child)
          guard r.versionAndFlags() != nil, let id = r.uint32(), let index = r.uint32(),
            let duration = r.uint32(),
            let size = r.uint32(), let flags = r.uint32()
          else { continue }
          result.trackExtends[id] = MP4TrackExtends(
            descriptionIndex: index, duration: duration, size: size, flags: flags)
        }
      default:
        break
      }
    }
    return result
  }

  private mutating func track(_ trak: MP4BoxHeader) throws(FormatError) -> MP4Track {
    var track = MP4Track()
    for box in try children(of: trak, depth: 2) {
      switch box.type {
      case .tkhd:
        var r = try payload(box)
        guard let (version, _) = r.versionAndFlags(), r.skip(version == 1 ? 16 : 8), let id = r.uint32()
        else {
          continue
        }
        track.trackID = id
        if r.skip(4) { track.duration = (version == 1 ? r.uint64() : r.uint32().map(UInt64.init)) ?? 0 }
      case .edts:
        for child in try children(of: box, depth: 3) where child.type == .elst {
          track.edits = try edits(child)
        }
      case .mdia:
        try media(box, into: &track)
      default:
        break
      }
    }
    return track
  }

  private mutating func edits(_ elst: MP4BoxHeader) throws(FormatError) -> [MP4Edit] {
    var r = try payload(elst)
    guard let (version, _) = r.versionAndFlags(), let count = r.uint32() else { return [] }
    let width = version == 1 ? 20 : 12
    var edits: [MP4Edit] = []
    // The count is checked against the bytes present before anything is reserved.
    for _ in 0..<min(Int(count), r.remaining / width) {
      if version == 1 {
        guard let duration = r.uint64(), let time = r.int64(), r.skip(4) else { break }
        edits.append(MP4Edit(segmentDuration: duration, mediaTime: time))
      } else {
        guard let duration = r.uint32(), let time = r.int32(), r.skip(4) else { break }
        edits.append(MP4Edit(segmentDuration: UInt64(duration), mediaTime: Int64(time)))
      }
    }
    return edits
  }

  private mutating func media(_ mdia: MP4BoxHeader, into track: inout MP4Track) throws(FormatError) {
    for box in try children(of: mdia, depth: 3) {
      switch box.type {
      case .mdhd:
        var r = try payload(box)
        guard let (version, _) = r.versionAndFlags(), r.skip(version == 1 ? 16 : 8), let scale = r.uint32()
        else {
          continue
        }
        track.timescale = scale
      case .hdlr:
        var r = try payload(box)
        guard r.versionAndFlags() != nil, r.skip(4), let handler = r.fourCC() else { continue }
        track.handler = handler
      case .minf:
        for child in try children(of: box, depth: 4) where child.type == .stbl {
          try sampleTable(child, into: &track)
        }
      default:
        break
      }
    }
  }

  private mutating func sampleTable(_ stbl: MP4BoxHeader, into track: inout MP4Track) throws(FormatError) {
    var table = MP4SampleTable()
    for box in try children(of: stbl, depth: 5) {
      switch box.type {
      case .stsd:
        try sampleDescription(box, into: &track)
      case .stts:
        var r = try payload(box)
        guard r.versionAndFlags() != nil, let count = r.uint32() else { continue }
        let present = min(Int(count), r.remaining / 8)
        if present < Int(count) { tableShort(box, "stts") }
        table.timeToSample.reserveCapacity(present)
        for _ in 0..<present {
          table.timeToSample.append(MP4SampleTable.Run(count: r.uint32()!, delta: r.uint32()!))
        }
      case .stsc:
        var r = try payload(box)
        guard r.versionAndFlags() != nil, let count = r.uint32() else { continue }
        let present = min(Int(count), r.remaining / 12)
        if present < Int(count) { tableShort(box, "stsc") }
        table.sampleToChunk.reserveCapacity(present)
        for _ in 0..<present {
          let first = r.uint32()!
          let perChunk = r.uint32()!
          _ = r.skip(4)
          table.sampleToChunk.append(MP4SampleTable.ChunkRun(firstChunk: first, samplesPerChunk: perChunk))
        }
      case .stsz:
        var r = try payload(box, limit: 12)
        guard r.versionAndFlags() != nil, let uniform = r.uint32(), let count = r.uint32() else { continue }
        table.uniformSize = uniform
        table.sizeFieldBits = 32
        table.sizesOffset = box.payloadOffset + 12
        // A uniform size has no table to bound the count: the file's size does.
        let room = uniform != 0 ? window.size / Int(uniform) : (box.payloadSize - 12) / 4
        if room < Int(count) { tableShort(box, "stsz") }
        table.sampleCount = min(Int(count), room)
      case .stz2:
        var r = try payload(box, limit: 12)
        guard r.versionAndFlags() != nil, r.skip(3), let bits = r.uint8(), let count = r.uint32() else {
          continue
        }
        guard bits == 4 || bits == 8 || bits == 16 else {
          diagnostics.append(
            Diagnostic(
              code: .mp4BadSampleTable, severity: .warning,
              message: "the stz2 box uses \(bits)-bit sizes; only 4, 8 and 16 exist",
              location: SourceLocation(offset: box.offset)))
          continue
        }
        table.sizeFieldBits = Int(bits)
        table.sizesOffset = box.payloadOffset + 12
        let room = (box.payloadSize - 12) * 8 / Int(bits)
        if room < Int(count) { tableShort(box, "stz2") }
        table.sampleCount = min(Int(count), room)
      case .stco, .co64:
        var r = try payload(box, limit: 8)
        guard r.versionAndFlags() != nil, let count = r.uint32() else { continue }
        let width = box.type == .co64 ? 8 : 4
        table.wideChunkOffsets = box.type == .co64
        table.chunkOffsetsOffset = box.payloadOffset + 8
        let room = (box.payloadSize - 8) / width
        if room < Int(count) { tableShort(box, box.type == .co64 ? "co64" : "stco") }
        table.chunkCount = min(Int(count), room)
      default:
        break
      }
    }
    track.table = table
  }

  private mutating func sampleDescription(_ stsd: MP4BoxHeader, into track: inout MP4Track)
    throws(FormatError)
  {
    var r = try payload(stsd, limit: 8)
    guard r.versionAndFlags() != nil, let count = r.uint32(), count > 0 else {
      track.audioSpecificConfig = .failure(.unreadableConfig("the track's sample description is empty"))
      return
    }
    let entries = try children(of: stsd, skipping: 8, depth: 6)
    guard let entry = entries.first else {
      track.audioSpecificConfig = .failure(.unreadableConfig("the track's sample description is cut off"))
      return
    }
    track.sampleEntryType = entry.type
    if entry.type == .enca {
      track.audioSpecificConfig = .failure(.encrypted(try protectionScheme(entry)))
      return
    }
    guard entry.type == .mp4a else {
      track.audioSpecificConfig = .failure(.notAAC("its sample entry is '\(entry.type)'"))
      return
    }
    if entry.size <= Self.sampleEntryLimit {
      track.sampleEntry = try window.bytes(at: entry.offset, count: entry.size)
    }
    // SampleEntry (8 bytes) and AudioSampleEntry (20); QuickTime sound versions 1 and 2 add more.
    var fields = try payload(entry, limit: 28)
    guard fields.skip(8), let soundVersion = fields.uint16(), fields.skip(6), let channels = fields.uint16()
    else {
      track.audioSpecificConfig = .failure(.unreadableConfig("the mp4a sample entry is cut off"))
      return
    }
    track.entryChannelCount = Int(channels)
    let extra = soundVersion == 1 ? 16 : soundVersion == 2 ? 36 : 0
    var found: [UInt8]?
    var failure: MP4Problem = .unreadableConfig("the mp4a sample entry has no esds box")
    for child in try children(of: entry, skipping: 28 + extra, depth: 7) {
      // QuickTime wraps esds in a 'wave' box.
      let candidates =
        child.type == FourCC("wave") ? try children(of: child, depth: 8).filter { $0.type == .esds } : [child]
      for box in candidates where box.type == .esds {
        switch try elementaryStream(box) {
        case .success(let config): found = config
        case .failure(let problem): failure = problem
        }
      }
      if found != nil { break }
    }
    track.audioSpecificConfig = found.map { .success($0) } ?? .failure(failure)
  }

  /// The AudioSpecificConfig inside an `esds`: ES_Descriptor (3) > DecoderConfigDescriptor (4) >
  /// DecoderSpecificInfo (5).
  private mutating func elementaryStream(_ esds: MP4BoxHeader) throws(FormatError) -> Result<
    [UInt8], MP4Problem
  > {
    var r = try payload(esds)
    guard r.versionAndFlags() != nil, let (tag, length) = Self.descriptor(&r), tag == 3, length >= 3 else {
      return .failure(.unreadableConfig("its esds box holds no stream descriptor"))
    }
    var es = MP4ByteReader(r.bytes, from: r.position, to: min(r.end, r.position + length))
    guard es.skip(2), let flags = es.uint8() else {
      return .failure(.unreadableConfig("its stream descriptor is cut off"))
    }
    if flags & 0x80 != 0 { _ = es.skip(2) }
    if flags & 0x40 != 0, let urlLength = es.uint8() { _ = es.skip(Int(urlLength)) }
    if flags & 0x20 != 0 { _ = es.skip(2) }
    while let (innerTag, innerLength) = Self.descriptor(&es) {
      guard innerTag == 4 else {
        guard es.skip(innerLength) else { break }
        continue
      }
      var config = MP4ByteReader(es.bytes, from: es.position, to: min(es.end, es.position + innerLength))
      guard let objectType = config.uint8(), config.skip(12) else {
        return .failure(.unreadableConfig("its decoder descriptor is cut off"))
      }
      // 0x40 is MPEG-4 audio; 0x66-0x68 are the MPEG-2 AAC profiles, which carry the same config.
      guard objectType == 0x40 || (0x66...0x68).contains(objectType) else {
        let hex = Text.zeroPadded(String(objectType, radix: 16), width: 2)
        return .failure(.notAAC("its stream type is 0x\(hex)"))
      }
      while let (specificTag, specificLength) = Self.descriptor(&config) {
        if specificTag == 5 {
          guard let bytes = config.take(specificLength) else {
            return .failure(.unreadableConfig("its AudioSpecificConfig is cut off"))
          }
          return .success(Array(bytes))
        }
        guard config.skip(specificLength) else { break }
      }
      return .failure(.unreadableConfig("its decoder descriptor holds no AudioSpecificConfig"))
    }
    return .failure(.unreadableConfig("its stream descriptor holds no decoder descriptor"))
  }

  /// A descriptor's tag and length (the length is 1–4 bytes of 7 bits each).
  private static func descriptor(_ r: inout MP4ByteReader) -> (tag: UInt8, length: Int)? {
    var probe = r
    guard let tag = probe.uint8() else { return nil }
    var length = 0
    for _ in 0..<4 {
      guard let byte = probe.uint8() else { return nil }
      length = length << 7 | Int(byte & 0x7F)
      if byte & 0x80 == 0 {
        r = probe
        return (tag, length)
      }
    }
    return nil
  }

}
