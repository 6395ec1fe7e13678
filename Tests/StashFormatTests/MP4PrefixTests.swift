import Foundation
import StashFormat
import StashTestSupport
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
      prepare()
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

    /// Sample ends in file order (they increase in these files), their running durations, and
    /// the end of the moof placing each (finished files: 0, the index is the moov).
    var ends: [Int] = []
    var runningUnits: [Int] = [0]
    var placedBy: [Int] = []
    var topLevelEnds: Set<Int> = []

    mutating func prepare() {
      ends = samples.map { $0.offset + $0.size }
      for sample in samples { runningUnits.append(runningUnits.last! + Int(sample.duration)) }
      let moofEnds = topLevel.filter { $0.type == "moof" }.map(\.end)
      var cursor = 0
      placedBy = samples.map { sample in
        while cursor + 1 < moofEnds.count && moofEnds[cursor + 1] <= sample.offset { cursor += 1 }
        return fragmented ? moofEnds[cursor] : 0
      }
      topLevelEnds = Set(topLevel.map(\.end))
    }

    /// What a reader must find in the first `length` bytes.
    func expected(length: Int) -> (count: Int, units: Int, cutShort: Bool, tail: Int, damaged: Bool) {
      let onBoundary = length == 0 || topLevelEnds.contains(length)
      guard length >= movieEnd else {
        // No index: nothing is usable, so a torn file's every byte is tail.
        return (0, 0, !onBoundary, onBoundary ? 0 : length, true)
      }
      // Whole samples: those whose bytes end by `length` (ends increase, so a binary search).
      var low = 0
      var high = ends.count
      while low < high {
        let mid = (low + high) / 2
        if ends[mid] <= length { low = mid + 1 } else { high = mid }
      }
      let count = low
      // A sample is missing when the index that places it is on disk but its bytes are not.
      let missing = count < samples.count && placedBy[count] <= length
      let cutShort = !onBoundary || missing
      let usableEnd = max(count > 0 ? ends[count - 1] : 0, movieEnd)
      let total = runningUnits[count]
      // The edit list's segment covers what remains after priming and the full file's end trim.
      let shown = runningUnits.last! - priming - endTrim
      let kept = max(0, min(total - priming, shown))
      return (count, kept, cutShort, cutShort ? length - usableEnd : 0, count == 0)
    }
  }

  /// The audio files of SyntheticFixtures/demo and /twins, by path. (crash/ and lint/ hold more
  /// files from the same generator; their MANIFEST values are checked in MP4ManifestTests.)
  static let fixtureAudio: [String] = ["demo", "twins"].flatMap { name -> [String] in
    let folder = Fixtures.folder(name)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix("_audio.m4a") }.sorted().map { folder.appendingPathComponent($0).path }
  }

  /// Without fixtures the test over them would run zero cases and pass: the list must hold them.
  @Test func thereIsFixtureAudio() {
    #expect(Self.fixtureAudio.count >= 10, "\(Self.fixtureAudio.count) fixture audio files")
    #expect(Self.fixtureAudio.contains { $0.contains("/SyntheticFixtures/twins/") })
  }

  @Test(arguments: [
    "fragmented.m4a", "speech-fragmented.m4a", "faststart.m4a", "with-video.mp4", "finished.m4a",
  ])
  func everyPrefixReads(name: String) throws {
    try checkEveryPrefix(of: files.path(name), label: name, fullEvery: 1)
  }

  /// The same for every audio file of SyntheticFixtures/demo (the 20-minute one included) and /twins.
  @Test(arguments: fixtureAudio)
  func everyFixturePrefixReads(path: String) throws {
    // The ffmpeg-made files above run the full reader on every prefix; here the summary reads
    // every prefix and the full reader every 7th (every 97th of a large file) and the last 64.
    try checkEveryPrefix(of: path, label: (path as NSString).lastPathComponent, fullEvery: 7)
  }

  func checkEveryPrefix(of source: String, label name: String, fullEvery small: Int) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
    let complete = try MP4Audio.read(path: source)
    let layout = Layout(bytes: bytes, audio: complete)
    var lengths = Set(max(0, bytes.count - 4096)...bytes.count)
    // Large files: top-level boundaries only (a 20-minute file has thousands of nested ones).
    let boundaries =
      bytes.count > 200_000 ? Set(layout.topLevel.flatMap { [$0.start, $0.end] }) : layout.boundaries
    for boundary in boundaries { lengths.formUnion([boundary - 1, boundary, boundary + 1]) }
    lengths.formUnion(0...40)
    let sorted = lengths.filter { $0 >= 0 && $0 <= bytes.count }.sorted()
    // The full index of a large file is slow to build in a debug build.
    let fullEvery = bytes.count > 200_000 ? 97 : small
    // One scratch copy, cut shorter and shorter: prefixes are read longest first.
    let path = try files.write(bytes, as: "prefix-\(name)")
    var later: Int?
    var failures = 0
    for (index, length) in sorted.enumerated().reversed() {
      guard truncate(path, off_t(length)) == 0 else {
        Issue.record("cannot cut \(path) to \(length)")
        return
      }
      let expected = layout.expected(length: length)
      let summary = AudioSummary.read(path: path)
      let units = summary.durationSeconds.map { Int(($0 * 48000).rounded()) } ?? 0
      // The length-unreadable fixture (timescale 0) has no length at any prefix.
      let unreadable = complete.timescale == 0 && !expected.damaged
      var ok = expected.damaged || units == (unreadable ? 0 : expected.units)
      var full = "not read"
      switch summary.state {
      case .ok: ok = ok && !expected.damaged && !expected.cutShort && !unreadable
      case .cutShort(let tail):
        ok = ok && !expected.damaged && expected.cutShort && tail == expected.tail && !unreadable
      case .damaged: ok = ok && expected.damaged
      case .lengthUnreadable: ok = ok && unreadable
      }
      if index % fullEvery == 0 || index >= sorted.count - 64 {
        let audio = try MP4Audio.read(path: path)
        ok =
          ok && audio.sampleCount == expected.count && (audio.damaged != nil) == expected.damaged
          && audio.cutShort == expected.cutShort && audio.tailBytes == expected.tail
        // The listing's summary says the same thing the full index does.
        ok = ok && summary.durationSeconds == audio.durationSeconds && summary.fragmented == audio.fragmented
        if case .damaged(let reason) = summary.state { ok = ok && audio.damaged == reason }
        full =
          "count \(audio.sampleCount), cutShort \(audio.cutShort), tail \(audio.tailBytes), damaged \(audio.damaged ?? "no")"
      }
      // Longer prefixes never hold less.
      if let later { ok = ok && units <= later }
      later = units
      if !ok {
        failures += 1
        if failures <= 5 {
          Issue.record(
            "\(name) cut to \(length): summary \(summary.state) units \(units); full \(full); want count \(expected.count) units \(expected.units) cutShort \(expected.cutShort) tail \(expected.tail) damaged \(expected.damaged)"
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
    // The finding stands where the file ends and names the box it cut, where that box starts.
    let torn = try #require(audio.diagnostics.first { $0.code == .mp4TornTail })
    #expect(torn.location.offset == cut)
    #expect(
      torn.message.contains(
        "the file ends \(cut - lastMoof.start) bytes into the 'moof' box that starts at byte \(lastMoof.start)"
      ))
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
