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
  /// building the list: lint checks a finished file's index and keeps none of it.
  func forEachSample(
    window: inout MP4FileWindow, diagnostics: inout [Diagnostic], _ body: (AudioSample) -> Void
  ) throws(FormatError) {
    guard sampleCount > 0 else { return }
    let sizes = try readSizes(window: &window)
    let offsets = try readChunkOffsets(window: &window)
    // Durations come from stts runs; a table shorter than stsz leaves later samples at 0. The
    // loop is written out (no nested function, no bounds checks it does not need): lint walks
    // every sample of every finished file through it.
    let runs = timeToSample
    var runIndex = 0
    var leftInRun = runs.first.map { Int($0.count) } ?? 0
    var decodeTime: Int64 = 0
    var sampleIndex = 0
    var runCursor = 0
    sizes.withUnsafeBufferPointer { sizes in
      for chunk in 0..<offsets.count {
        while runCursor + 1 < sampleToChunk.count && Int(sampleToChunk[runCursor + 1].firstChunk) <= chunk + 1
        {
          runCursor += 1
        }
        let perChunk = sampleToChunk.isEmpty ? 0 : Int(sampleToChunk[runCursor].samplesPerChunk)
        var offset = offsets[chunk]
        let last = min(sizes.count, sampleIndex + perChunk)
        while sampleIndex < last {
          let size = sizes[sampleIndex]
          while runIndex < runs.count && leftInRun == 0 {
            runIndex += 1
            leftInRun = runIndex < runs.count ? Int(runs[runIndex].count) : 0
          }
          var duration: UInt32 = 0
          if runIndex < runs.count {
            leftInRun -= 1
            duration = runs[runIndex].delta
          }
          body(AudioSample(offset: offset, size: size, duration: duration, decodeTime: decodeTime))
          decodeTime = decodeTime &+ Int64(duration)
          offset = offset &+ size
          sampleIndex += 1
        }
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
    let bytes = try window.bytes(at: sizesOffset, count: byteCount)
    let count = min(sampleCount, bytes.count * 8 / sizeFieldBits)
    var sizes = [Int](repeating: 0, count: count)
    switch sizeFieldBits {
    case 32:
      // Big-endian words loaded whole: four indexed loads per entry were most of the cost.
      bytes.withUnsafeBytes { raw in
        sizes.withUnsafeMutableBufferPointer { out in
          for i in 0..<count {
            out[i] = Int(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)))
          }
        }
      }
    case 16:
      for i in 0..<count { sizes[i] = Int(bytes[2 * i]) << 8 | Int(bytes[2 * i + 1]) }
    case 8:
      for i in 0..<count { sizes[i] = Int(bytes[i]) }
    default:
      for i in 0..<count { sizes[i] = Int(i % 2 == 0 ? bytes[i / 2] >> 4 : bytes[i / 2] & 0x0F) }
    }
    return sizes
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
