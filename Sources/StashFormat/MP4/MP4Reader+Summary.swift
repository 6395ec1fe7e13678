#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The listing's quick way through a fragmented file: rather than visit every `moof` (a
/// 40-minute recording has over a thousand), find the last complete one from the end of the file
/// and take the length from its decode time (tfdt) plus its whole samples.
extension MP4Reader {
  /// Reads the end of the file for the last fragment with a whole sample of `track`. Returns false
  /// when that cannot be done reliably (no tfdt, or none found near the end), and the caller
  /// walks every fragment instead; both ways give the same answer for a well-formed file.
  mutating func summarizeFragments(
    from firstFragment: MP4BoxHeader, track: MP4Track, defaults: MP4TrackExtends
  ) throws(FormatError) -> Bool {
    // Decode times are counted from the first fragment's, so a file whose first fragment does
    // not start at 0 measures what it holds, as the full walk does. The quick way stands in for
    // the walk only when the first fragment, which the walk from the start reached, holds a whole
    // sample: then both ways agree that the file plays, even when damage between the first and
    // the last fragment stops the walk (the fragment found from the end lies beyond the damage).
    let savedDiagnostics = parser.diagnostics
    try parser.window.prefetch(at: firstFragment.offset, count: min(firstFragment.size, Self.wholeBoxLimit))
    let first = try parser.fragment(
      firstFragment, trackID: track.trackID, defaults: defaults, nextDecodeTime: 0)
    parser.diagnostics = savedDiagnostics
    guard let firstTime = first.baseDecodeTime, first.samples.contains(where: isWhole) else { return false }
    var span = Self.tailBytes
    var scannedFrom = fileSize
    while true {
      let start = max(firstFragment.offset, fileSize - span)
      try parser.window.prefetch(at: start, count: fileSize - start)
      // A finished fragmented file may end in an mfra index (its mfro says how long); the last
      // moof lies before it, so when the index fills more than half the first look, that look is
      // widened to reach past it.
      if scannedFrom == fileSize, let index = Self.fragmentIndexSize(parser.window.cache),
        index > span / 2, index < Self.tailLimit
      {
        span = index + Self.tailBytes
        continue
      }
      // The moofs that seem to start before `scannedFrom` are judged from the last back, and the
      // first verdict ends the search. The last moof is nearly always a few hundred bytes from
      // the end, so the bytes are searched a block at a time from the end, not all at once.
      let (cache, cacheOffset) = (parser.window.cache, parser.window.cacheOffset)
      var end = scannedFrom - cacheOffset
      scannedFrom = start
      while end > 0 {
        let from = max(0, end - Self.signatureBlock)
        for found in Self.fragmentSignatures(in: cache, starting: from..<end).reversed() {
          switch try candidate(
            at: cacheOffset + found, track: track, defaults: defaults, firstTime: firstTime)
          {
          case .accepted: return true
          case .unusable: return false
          case .tryEarlier: continue
          }
        }
        end = from
      }
      if start == firstFragment.offset || span >= Self.tailLimit { return false }
      span *= 4
    }
  }

  private enum Verdict { case accepted, tryEarlier, unusable }

  /// How many bytes the search for the last moof looks through at a time, from the end back.
  static let signatureBlock = 1024

  /// Judges the `moof` that seems to start at `offset`.
  private mutating func candidate(
    at offset: Int, track: MP4Track, defaults: MP4TrackExtends, firstTime: Int64
  ) throws(FormatError) -> Verdict {
    guard case .header(let moof) = try parser.window.header(at: offset, containerEnd: fileSize),
      moof.type == .moof
    else { return .tryEarlier }
    // A moof cut short by the end of the file holds nothing usable: look before it.
    guard moof.end <= fileSize else { return .tryEarlier }
    let savedDiagnostics = parser.diagnostics
    let fragment = try parser.fragment(moof, trackID: track.trackID, defaults: defaults, nextDecodeTime: 0)
    guard let decodeTime = fragment.baseDecodeTime, decodeTime >= firstTime else {
      parser.diagnostics = savedDiagnostics
      return .unusable
    }
    guard fragment.samples.contains(where: isWhole) else {
      parser.diagnostics = savedDiagnostics
      return .tryEarlier
    }
    // The boxes from here to the end must read as boxes (a torn last one is fine); otherwise the
    // bytes that looked like a moof were media data, and every fragment is walked instead.
    let savedTorn = tornBox
    let rest = try walk(from: moof.offset, stopAtFirstFragment: false)
    if !tornBox && rest.last.map({ $0.end }) != fileSize {
      parser.diagnostics = savedDiagnostics
      tornBox = savedTorn
      return .unusable
    }
    // The moov's own table (already counted), then every fragment before this one by its tfdt.
    wholeDuration &+= UInt64(decodeTime - firstTime)
    for box in rest where box.type == .moof {
      let later =
        box.offset == moof.offset
        ? fragment : try parser.fragment(box, trackID: track.trackID, defaults: defaults, nextDecodeTime: 0)
      for sample in later.samples { keep(sample) }
    }
    return .accepted
  }

  /// The size of the `mfra` box a trailing 16-byte `mfro` announces, or nil.
  static func fragmentIndexSize(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 16 else { return nil }
    var r = MP4ByteReader(bytes, from: bytes.count - 16)
    guard r.uint32() == 16, r.fourCC() == FourCC("mfro"), r.versionAndFlags() != nil, let size = r.uint32()
    else {
      return nil
    }
    return Int(size)
  }

  /// The indexes, ascending, of every `size moof size mfhd` pattern (a moof whose first child is
  /// its 16-byte mfhd) starting in `range` of `bytes`. `memchr` finds each candidate 'm' at
  /// vector speed; only those few are compared in full.
  static func fragmentSignatures(in bytes: [UInt8], starting range: Range<Int>) -> [Int] {
    let upper = min(range.upperBound, bytes.count - 15)
    guard range.lowerBound < upper else { return [] }
    return bytes.withUnsafeBytes { raw -> [Int] in
      guard let base = raw.baseAddress else { return [] }
      let moof = UInt32(0x6D6F_6F66).bigEndian
      let mfhd = UInt32(0x6D66_6864).bigEndian
      let mfhdSize = UInt32(16).bigEndian
      var found: [Int] = []
      // The 'm' starting "moof" sits 4 bytes into the box.
      var from = range.lowerBound + 4
      while from < upper + 4, let hit = memchr(base + from, 0x6D, upper + 4 - from) {
        let index = base.distance(to: UnsafeRawPointer(hit)) - 4
        if raw.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self) == moof
          && raw.loadUnaligned(fromByteOffset: index + 12, as: UInt32.self) == mfhd
          && raw.loadUnaligned(fromByteOffset: index + 8, as: UInt32.self) == mfhdSize
        {
          found.append(index)
        }
        from = index + 5
      }
      return found
    }
  }
}
