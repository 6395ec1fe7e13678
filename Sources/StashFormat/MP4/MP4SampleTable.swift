/// A non-fragmented track's sample table (`stbl`). The small tables are held; the two that grow
/// with every sample (sizes and chunk offsets) are located in the file and read only when the
/// full index is built, so a listing never reads them.
struct MP4SampleTable: Sendable {
  /// stts runs: `count` samples of `delta` each.
  var timeToSample: [Run] = []
  /// stsc runs, in file order.
  var sampleToChunk: [ChunkRun] = []
  /// stsz sample_size: when non-zero every sample has this size and no table follows.
  var uniformSize: UInt32 = 0
  /// stsz/stz2 sample_count.
  var sampleCount = 0
  /// Bits per size entry: 32 for stsz, 4, 8 or 16 for stz2.
  var sizeFieldBits = 32
  /// File offset of the first size entry.
  var sizesOffset = 0
  /// co64 (8-byte entries) rather than stco.
  var wideChunkOffsets = false
  /// File offset of the first chunk offset, and how many there are.
  var chunkOffsetsOffset = 0
  var chunkCount = 0

  /// A run of samples sharing one duration.
  struct Run: Sendable, Equatable {
    var count: UInt32
    var delta: UInt32
  }

  /// From chunk `firstChunk` (counting from 1) on, each chunk holds `samplesPerChunk` samples.
  struct ChunkRun: Sendable, Equatable {
    var firstChunk: UInt32
    var samplesPerChunk: UInt32
  }

  /// Whether the table lists any sample at all (ffmpeg's fragmented `moov` holds empty tables).
  var isEmpty: Bool { sampleCount == 0 }

  /// The summed durations of the first `count` samples (all when nil), by the stts runs.
  func duration(ofFirst count: Int? = nil) -> UInt64 {
    var left = UInt64(count ?? Int.max)
    var total: UInt64 = 0
    for run in timeToSample where left > 0 {
      let taken = min(left, UInt64(run.count))
      total &+= taken &* UInt64(run.delta)
      left -= taken
    }
    return total
  }

  /// Builds every sample of the table: sizes and chunk offsets are read from the file here.
  func samples(window: inout MP4FileWindow, diagnostics: inout [Diagnostic]) throws(FormatError)
    -> [AudioSample]
  {
    var samples: [AudioSample] = []
    try forEachSample(window: &window, diagnostics: &diagnostics) { samples.append($0) }
    return samples
  }

  /// Calls `body` with every sample of the table in order, as `samples` lists them, without
  /// building the list.
  func forEachSample(
    window: inout MP4FileWindow, diagnostics: inout [Diagnostic], _ body: (AudioSample) -> Void
  ) throws(FormatError) {
    var decodeTime: Int64 = 0
    try forEachChunk(window: &window, diagnostics: &diagnostics) { offset, sizes, durations in
      var offset = offset
      for size in sizes {
        let duration = durations.next()
        body(AudioSample(offset: offset, size: size, duration: duration, decodeTime: decodeTime))
        decodeTime = decodeTime &+ Int64(duration)
        offset = offset &+ size
      }
    }
  }

  /// What a walk that keeps no sample learns from them (lint's check of a finished file).
  struct Tally: Equatable {
    /// Samples listed, whole or not.
    var listed = 0
    /// Samples whose bytes all lie in the file, their summed durations, and where the last ends.
    var whole = 0
    var duration: UInt64 = 0
    var end = 0
    /// Whether any sample lies (in part) past the end of a file of `fileSize` bytes.
    var missing = false

    /// Counts one sample, as `MP4Reader.keep` does.
    @inline(__always)
    mutating func add(offset: Int, size: Int, duration: UInt32, fileSize: Int) {
      listed += 1
      guard offset >= 0 && size >= 0 && offset <= fileSize - size else {
        missing = true
        return
      }
      whole += 1
      self.duration &+= UInt64(duration)
      end = max(end, offset + size)
    }
  }

  /// The samples counted as `forEachSample` then `MP4Reader.keep` count them, a chunk at a time:
  /// a chunk that lies in the file holds only whole samples, so its sizes are summed and its
  /// durations taken by the run, with no sample made. Lint walks every finished file's index.
  func tally(window: inout MP4FileWindow, diagnostics: inout [Diagnostic], fileSize: Int) throws(FormatError)
    -> Tally
  {
    var tally = Tally()
    try forEachChunk(window: &window, diagnostics: &diagnostics) { offset, sizes, durations in
      guard !sizes.isEmpty else { return }
      var bytes = 0
      for size in sizes { bytes &+= size }
      if offset >= 0 && bytes >= 0 && offset <= fileSize - bytes {
        tally.listed += sizes.count
        tally.whole += sizes.count
        tally.duration &+= durations.take(sizes.count)
        tally.end = max(tally.end, offset + bytes)
        return
      }
      var offset = offset
      for size in sizes {
        tally.add(offset: offset, size: size, duration: durations.next(), fileSize: fileSize)
        offset = offset &+ size
      }
    }
    return tally
  }

  /// Durations handed out sample by sample from the stts runs; past the runs, 0.
  struct Durations {
    let runs: [Run]
    var index = 0
    var left: Int

    init(_ runs: [Run]) {
      self.runs = runs
      left = runs.first.map { Int($0.count) } ?? 0
    }

    /// The next sample's duration.
    @inline(__always)
    mutating func next() -> UInt32 {
      while index < runs.count && left == 0 {
        index += 1
        left = index < runs.count ? Int(runs[index].count) : 0
      }
      guard index < runs.count else { return 0 }
      left -= 1
      return runs[index].delta
    }

    /// The summed durations of the next `count` samples.
    mutating func take(_ count: Int) -> UInt64 {
      var count = count
      var total: UInt64 = 0
      while count > 0 {
        while index < runs.count && left == 0 {
          index += 1
          left = index < runs.count ? Int(runs[index].count) : 0
        }
        guard index < runs.count else { return total }
        let taken = min(count, left)
        total &+= UInt64(taken) &* UInt64(runs[index].delta)
        left -= taken
        count -= taken
      }
      return total
    }
  }

  /// Calls `body` with every chunk in order: its file offset, the sizes of its samples, and the
  /// durations, from which it takes one per sample. The loop is written out (no bounds checks it
  /// does not need): lint walks every sample of every finished file through it.
  private func forEachChunk(
    window: inout MP4FileWindow, diagnostics: inout [Diagnostic],
    _ body: (Int, UnsafeBufferPointer<Int>, inout Durations) -> Void
  ) throws(FormatError) {
    guard sampleCount > 0 else { return }
    let sizes = try readSizes(window: &window)
    let offsets = try readChunkOffsets(window: &window)
    // Durations come from stts runs; a table shorter than stsz leaves later samples at 0.
    var durations = Durations(timeToSample)
    var sampleIndex = 0
    var runCursor = 0
    sizes.withUnsafeBufferPointer { sizes in
      for chunk in 0..<offsets.count {
        while runCursor + 1 < sampleToChunk.count && Int(sampleToChunk[runCursor + 1].firstChunk) <= chunk + 1
        {
          runCursor += 1
        }
        let perChunk = sampleToChunk.isEmpty ? 0 : Int(sampleToChunk[runCursor].samplesPerChunk)
        let last = min(sizes.count, sampleIndex + perChunk)
        body(offsets[chunk], UnsafeBufferPointer(rebasing: sizes[sampleIndex..<last]), &durations)
        sampleIndex = last
        if sampleIndex >= sizes.count { break }
      }
    }
    if sampleIndex < sizes.count {
      diagnostics.append(
        Diagnostic(
          code: .mp4BadSampleTable, severity: .warning,
          message:
            "the sample table places only \(sampleIndex) of its \(sizes.count) samples in chunks; the rest cannot be found"
        ))
    }
    let timed = timeToSample.reduce(0) { $0 + Int($1.count) }
    if timed != sizes.count {
      diagnostics.append(
        Diagnostic(
          code: .mp4BadSampleTable, severity: .warning,
          message: "the sample table gives durations for \(timed) samples but sizes for \(sizes.count)"))
    }
  }

  private func readSizes(window: inout MP4FileWindow) throws(FormatError) -> [Int] {
    if uniformSize != 0 { return [Int](repeating: Int(uniformSize), count: sampleCount) }
    let byteCount = (sampleCount * sizeFieldBits + 7) / 8
    let bits = sizeFieldBits
    return try window.withBytes(at: sizesOffset, count: byteCount) { raw in
      let count = min(sampleCount, raw.count * 8 / bits)
      // Every entry is written below, so the array is not first filled with zeros.
      return [Int](unsafeUninitializedCapacity: count) { out, initialized in
        switch bits {
        case 32:
          // Big-endian words loaded whole: four indexed loads per entry were most of the cost.
          for i in 0..<count {
            out[i] = Int(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
          }
        case 16:
          for i in 0..<count {
            out[i] = Int(UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))
          }
        case 8:
          for i in 0..<count { out[i] = Int(raw[i]) }
        default:
          for i in 0..<count { out[i] = Int(i % 2 == 0 ? raw[i / 2] >> 4 : raw[i / 2] & 0x0F) }
        }
        initialized = count
      }
    }
  }

  private func readChunkOffsets(window: inout MP4FileWindow) throws(FormatError) -> [Int] {
    let width = wideChunkOffsets ? 8 : 4
    let bytes = try window.bytes(at: chunkOffsetsOffset, count: chunkCount * width)
    var reader = MP4ByteReader(bytes)
    var offsets: [Int] = []
    offsets.reserveCapacity(bytes.count / width)
    while reader.remaining >= width {
      let value = wideChunkOffsets ? reader.uint64()! : UInt64(reader.uint32()!)
      // An offset no file can reach is kept out of Int arithmetic; its samples are never whole.
      offsets.append(value > UInt64(Int.max / 4) ? Int.max / 4 : Int(value))
    }
    return offsets
  }
}
