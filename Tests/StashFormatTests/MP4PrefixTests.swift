import Foundation
import StashFormat
import Testing

/// Every prefix of real files, as a kill at any byte would leave them: the last 4 KB byte by
/// byte and every box boundary. Nothing crashes or hangs, the length never shrinks as the prefix
/// grows, the listing's summary agrees with the full index, and sample counts and torn-tail byte
/// counts are exactly what the complete file's own index predicts.
@Suite struct MP4PrefixTests {
  let files: MP4TestFiles

  init() throws { files = try MP4TestFiles.shared.get() }

  /// What the complete file says about its boxes and samples, to predict each prefix.
  struct Layout {
    var size: Int
    /// Offsets where some box (at any depth) starts or ends.
    var boundaries: Set<Int> = []
    /// Top-level boxes: type, start, end.
    var topLevel: [(type: String, start: Int, end: Int)] = []
    var samples: [AudioSample]
    var priming: Int
    var endTrim: Int
    var fragmented: Bool

    var movieEnd: Int { topLevel.first { $0.type == "moov" }?.end ?? Int.max }

    init(bytes: [UInt8], audio: MP4Audio) {
      size = bytes.count
      samples = audio.samples
      priming = audio.primingSamples
      endTrim = audio.endTrimSamples
      fragmented = audio.fragmented
      walk(bytes, from: 0, to: bytes.count, topLevel: true)
    }

    private mutating func walk(_ bytes: [UInt8], from start: Int, to end: Int, topLevel isTop: Bool) {
      let containers: Set<String> = [
        "moov", "trak", "mdia", "minf", "stbl", "mvex", "moof", "traf", "edts", "dinf",
      ]
      var offset = start
      while offset + 8 <= end {
        var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
        if size == 1 { size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
        if size == 0 { size = end - offset }
        guard size >= 8, offset + size <= end else { return }
        boundaries.insert(offset)
        boundaries.insert(offset + size)
        if isTop { topLevel.append((type, offset, offset + size)) }
        if containers.contains(type) { walk(bytes, from: offset + 8, to: offset + size, topLevel: false) }
        offset += size
      }
    }

    /// The moof that places `sample` (the last one before its bytes), or nil in a finished file.
    func fragmentEnd(of sample: AudioSample) -> Int? {
      topLevel.last { $0.type == "moof" && $0.end <= sample.offset }?.end
    }

    /// What a reader must find in the first `length` bytes.
    func expected(length: Int) -> (count: Int, units: Int, cutShort: Bool, tail: Int, damaged: Bool) {
      let onBoundary = length == size || length == 0 || topLevel.contains { $0.end == length }
      guard length >= movieEnd else {
        // No index: nothing is usable, so a torn file's every byte is tail.
        return (0, 0, !onBoundary, onBoundary ? 0 : length, true)
      }
      let whole = samples.filter { $0.offset + $0.size <= length }
      // A sample is missing when the index that places it is on disk but its bytes are not.
      let missing = samples.contains { sample in
        sample.offset + sample.size > length
          && (fragmented ? (fragmentEnd(of: sample) ?? Int.max) <= length : true)
      }
      let cutShort = !onBoundary || missing
      let usableEnd = max(whole.map { $0.offset + $0.size }.max() ?? 0, movieEnd)
      let total = whole.reduce(0) { $0 + Int($1.duration) }
      // The edit list's segment covers what remains after priming and the full file's end trim.
      let shown = samples.reduce(0) { $0 + Int($1.duration) } - priming - endTrim
      let kept = max(0, min(total - priming, shown))
      return (whole.count, kept, cutShort, cutShort ? length - usableEnd : 0, whole.isEmpty)
    }
  }

  @Test(arguments: [
    "fragmented.m4a", "speech-fragmented.m4a", "faststart.m4a", "with-video.mp4", "finished.m4a",
  ])
  func everyPrefixReads(name: String) throws {
    let bytes = try files.bytes(name)
    let complete = try MP4Audio.read(path: files.path(name))
    let layout = Layout(bytes: bytes, audio: complete)
    var lengths = Set(max(0, bytes.count - 4096)...bytes.count)
    for boundary in layout.boundaries { lengths.formUnion([boundary - 1, boundary, boundary + 1]) }
    lengths.formUnion(0...40)
    let sorted = lengths.filter { $0 >= 0 && $0 <= bytes.count }.sorted()
    // One scratch copy, cut shorter and shorter: prefixes are read longest first.
    let path = try files.write(bytes, as: "prefix-\(name)")
    var later: (length: Int, units: Int, count: Int)?
    var failures = 0
    for length in sorted.reversed() {
      guard truncate(path, off_t(length)) == 0 else {
        Issue.record("cannot cut \(path) to \(length)")
        return
      }
      let audio = try MP4Audio.read(path: path)
      let summary = AudioSummary.read(path: path)
      let expected = layout.expected(length: length)
      let units = audio.durationSeconds.map { Int(($0 * 48000).rounded()) } ?? 0
      var ok =
        audio.sampleCount == expected.count && (audio.damaged != nil) == expected.damaged
        && audio.cutShort == expected.cutShort && audio.tailBytes == expected.tail
      if !expected.damaged { ok = ok && units == expected.units }
      // The listing's summary says the same thing the full index does.
      ok = ok && summary.durationSeconds == audio.durationSeconds && summary.fragmented == audio.fragmented
      switch summary.state {
      case .ok: ok = ok && audio.damaged == nil && !audio.cutShort
      case .cutShort(let tail): ok = ok && audio.damaged == nil && audio.cutShort && tail == audio.tailBytes
      case .damaged(let reason): ok = ok && audio.damaged == reason
      case .lengthUnreadable: ok = false
      }
      // Longer prefixes never hold less.
      if let later { ok = ok && units <= later.units && audio.sampleCount <= later.count }
      later = (length, units, audio.sampleCount)
      if !ok {
        failures += 1
        if failures <= 5 {
          Issue.record(
            "\(name) cut to \(length): count \(audio.sampleCount) (want \(expected.count)), units \(units) (want \(expected.units)), cutShort \(audio.cutShort) tail \(audio.tailBytes) (want \(expected.cutShort) \(expected.tail)), damaged \(audio.damaged ?? "no"), summary \(summary.state) \(summary.durationSeconds ?? -1)"
          )
        }
      }
    }
    #expect(failures == 0)
    #expect(sorted.count > 4096)
  }

  /// A recording killed inside its last moof: ffprobe cannot open it; we keep every earlier fragment.
  @Test func cutInsideTheLastMoof() throws {
    let bytes = try files.bytes("fragmented.m4a")
    let complete = try MP4Audio.read(path: files.path("fragmented.m4a"))
    let layout = Layout(bytes: bytes, audio: complete)
    let lastMoof = try #require(layout.topLevel.last { $0.type == "moof" })
    let cut = lastMoof.start + (lastMoof.end - lastMoof.start) / 2
    let path = try files.write(Array(bytes[..<cut]), as: "cut-in-moof.m4a")
    let audio = try MP4Audio.read(path: path)
    let before = complete.samples.filter { $0.offset < lastMoof.start }
    #expect(audio.samples == before)
    #expect(audio.cutShort)
    #expect(audio.tailBytes == cut - lastMoof.start)
    #expect(audio.damaged == nil)
    #expect(audio.diagnostics.contains { $0.code == "mp4-torn-tail" && $0.location.offset == lastMoof.start })
    let units = before.reduce(0) { $0 + Int($1.duration) } - 1024
    #expect(audio.durationSeconds == Double(units) / 48000)
    #expect(AudioSummary.read(path: path).state == .cutShort(tailBytes: cut - lastMoof.start))
    // ffmpeg gives up on such a file (no packets, or an error); we must not.
    let probe = try FFprobeAudio.read(path)
    #expect((probe?.packets.count ?? 0) < before.count)
  }

  /// A recording killed inside an mdat keeps every whole sample before the cut.
  @Test func cutInsideAnMdat() throws {
    let bytes = try files.bytes("fragmented.m4a")
    let complete = try MP4Audio.read(path: files.path("fragmented.m4a"))
    let middle = complete.samples[complete.samples.count / 2]
    let cut = middle.offset + middle.size / 2
    let path = try files.write(Array(bytes[..<cut]), as: "cut-in-mdat.m4a")
    let audio = try MP4Audio.read(path: path)
    let whole = complete.samples.filter { $0.offset + $0.size <= cut }
    #expect(audio.samples == whole)
    #expect(whole.last?.offset == complete.samples[complete.samples.count / 2 - 1].offset)
    #expect(audio.tailBytes == cut - middle.offset)
    #expect(AudioSummary.read(path: path).state == .cutShort(tailBytes: cut - middle.offset))
    #expect(AudioSummary.read(path: path).durationSeconds == audio.durationSeconds)
  }
}
