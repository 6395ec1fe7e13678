import Foundation
import StashFormat
import Testing

/// Box-level cases built byte by byte: header forms (64-bit sizes, size 0, uuid), table variants
/// (co64, stz2, edit list versions), AudioSpecificConfig escapes, and hostile sizes and counts.
@Suite struct MP4BoxTests {
  typealias B = MP4BoxBuilder
  let files: MP4TestFiles

  init() throws { files = try MP4TestFiles.shared.get() }

  /// The choices a hand-built finished file is made with.
  struct Layout {
    var config: [UInt8] = B.lcConfig
    var durations: [UInt32] = [1024, 1024, 1024, 1024, 500]
    var sizes: [UInt32] = [9, 8, 7, 6, 5]
    var edits: [(UInt64, Int64)]? = nil
    var editVersion: UInt8 = 0
    var wideOffsets = false
    var compactSizes = false
    var largeBoxes = false
    var mdatRunsToEnd = false
    var uuidBoxes = false
  }

  /// A finished (non-fragmented) file and the samples a reader must find in it.
  static func finishedFile(_ layout: Layout) -> ([UInt8], [AudioSample]) {
    let uuid = layout.uuidBoxes ? B.box("uuid", [UInt8](repeating: 0x42, count: 16) + [1, 2, 3]) : []
    func moov(chunkOffset: UInt64) -> [UInt8] {
      let entry = B.mp4a(children: B.esds(config: layout.config))
      let stbl = B.stbl(
        entry: entry, durations: layout.durations, sizes: layout.sizes, chunkOffset: chunkOffset,
        wide: layout.wideOffsets, compactSizes: layout.compactSizes)
      let trak = B.trak(id: 1, edits: layout.edits, editVersion: layout.editVersion, stbl: stbl + uuid)
      let tracks = [trak]
      let body = B.moov(tracks: tracks)
      return layout.largeBoxes ? B.largeBox("moov", Array(body.dropFirst(8))) : body
    }
    let head = B.ftyp() + uuid
    let mdatHeader = layout.largeBoxes ? 16 : 8
    let start = head.count + moov(chunkOffset: 0).count + mdatHeader
    let media = layout.sizes.enumerated().flatMap {
      [UInt8](repeating: UInt8($0.offset), count: Int($0.element))
    }
    var mdat = layout.largeBoxes ? B.largeBox("mdat", media) : B.box("mdat", media)
    if layout.mdatRunsToEnd { mdat.replaceSubrange(0..<4, with: B.u32(0)) }
    var expected: [AudioSample] = []
    var offset = start
    var time: Int64 = 0
    for (d, s) in zip(layout.durations, layout.sizes) {
      expected.append(AudioSample(offset: offset, size: Int(s), duration: d, decodeTime: time))
      offset += Int(s)
      time += Int64(d)
    }
    return (head + moov(chunkOffset: UInt64(start)) + mdat, expected)
  }

  func read(_ layout: Layout, _ name: String) throws -> (MP4Audio, [AudioSample], String) {
    let (bytes, expected) = Self.finishedFile(layout)
    let path = try files.write(bytes, as: name)
    return (try MP4Audio.read(path: path), expected, path)
  }

  @Test func plainFinishedFile() throws {
    let (audio, expected, path) = try read(Layout(), "plain.m4a")
    #expect(audio.samples == expected)
    #expect(!audio.fragmented)
    #expect(audio.codec == "mp4a.40.2" && audio.sampleRate == 48000 && audio.channels == 1)
    // No edit list: 1024 samples of priming are assumed, no end trim.
    #expect(audio.primingSamples == 1024 && audio.endTrimSamples == 0)
    #expect(audio.durationSeconds == Double(4 * 1024 + 500 - 1024) / 48000)
    #expect(audio.creationTime == Double(3_786_825_600 - 2_082_844_800))
    #expect(AudioSummary.read(path: path).durationSeconds == audio.durationSeconds)
  }

  /// 64-bit sizes, uuid boxes at the top level and inside the track, co64 offsets, 16-bit stz2
  /// sizes, and a last mdat whose size is 0 (to the end of the file) read like the plain file.
  @Test func headerAndTableVariants() throws {
    var layout = Layout()
    layout.largeBoxes = true
    layout.uuidBoxes = true
    layout.wideOffsets = true
    layout.compactSizes = true
    let (audio, expected, path) = try read(layout, "variants.m4a")
    #expect(audio.samples == expected)
    #expect(audio.damaged == nil && !audio.cutShort)
    #expect(AudioSummary.read(path: path).state == .ok)
    var runsToEnd = Layout()
    runsToEnd.mdatRunsToEnd = true
    let (open, openExpected, openPath) = try read(runsToEnd, "size-zero.m4a")
    #expect(open.samples == openExpected && !open.cutShort)
    #expect(AudioSummary.read(path: openPath).durationSeconds == open.durationSeconds)
    // Cut inside the size-0 mdat: the index places the last samples past the end.
    let bytes = try files.bytes("size-zero.m4a")
    let cutPath = try files.write(Array(bytes.dropLast(7)), as: "size-zero-cut.m4a")
    let cut = try MP4Audio.read(path: cutPath)
    #expect(cut.samples == Array(openExpected.prefix(3)))
    // Samples of 6 and 5 bytes end the file; 7 bytes are gone, so 4 of the 6 remain as tail.
    #expect(cut.cutShort && cut.tailBytes == 6 + 5 - 7)
    #expect(cut.diagnostics.contains { $0.code == .mp4MissingSamples })
    #expect(AudioSummary.read(path: cutPath).state == .cutShort(tailBytes: cut.tailBytes))
  }

  /// The edit list wins: media_time is the priming, the segment duration gives the end trim (v0 and v1).
  @Test(arguments: [UInt8(0), 1]) func editList(version: UInt8) throws {
    var layout = Layout()
    // mvhd timescale 1000: 80 ms = 3840 samples shown after 300 samples of priming.
    layout.edits = [(80, 300)]
    layout.editVersion = version
    let (audio, _, path) = try read(layout, "edit-v\(version).m4a")
    #expect(audio.primingSamples == 300)
    #expect(audio.endTrimSamples == 4 * 1024 + 500 - 300 - 3840)
    #expect(audio.durationSeconds == 0.08)
    #expect(AudioSummary.read(path: path).durationSeconds == 0.08)
    // An empty edit first (a pause) is skipped; the media edit still gives the priming.
    layout.edits = [(10, -1), (80, 300)]
    let (paused, _, _) = try read(layout, "edit-empty-v\(version).m4a")
    #expect(paused.primingSamples == 300)
    #expect(paused.diagnostics.contains { $0.code == .mp4ComplexEditList })
  }

  /// Writes AudioSpecificConfig bits.
  struct Bits {
    var bytes: [UInt8] = []
    var count = 0
    mutating func put(_ value: Int, _ width: Int) {
      for shift in stride(from: width - 1, through: 0, by: -1) {
        if count % 8 == 0 { bytes.append(0) }
        bytes[bytes.count - 1] |= UInt8((value >> shift) & 1) << UInt8(7 - count % 8)
        count += 1
      }
    }
  }

  /// Object type escape (31), the explicit-frequency escape (15) and HE-AAC's explicit SBR signalling.
  @Test func audioSpecificConfigEscapes() throws {
    var escaped = Bits()
    escaped.put(31, 5)
    escaped.put(39 - 32, 6)  // ER AAC ELD, through the escape
    escaped.put(15, 4)
    escaped.put(44_056, 24)  // an explicit frequency
    escaped.put(2, 4)
    var layout = Layout()
    layout.config = escaped.bytes
    let (eld, _, _) = try read(layout, "asc-escape.m4a")
    #expect(eld.damaged == nil)
    #expect(eld.audioObjectType == 39 && eld.codec == "mp4a.40.39")
    #expect(eld.sampleRate == 44_056 && eld.channels == 2)
    #expect(eld.primingSamples == Int((1024.0 * 48000 / 44_056).rounded()))

    var sbr = Bits()
    sbr.put(5, 5)
    sbr.put(6, 4)  // core 24 kHz
    sbr.put(1, 4)
    sbr.put(3, 4)  // output 48 kHz
    sbr.put(2, 5)  // core AAC-LC
    layout.config = sbr.bytes
    let (he, _, _) = try read(layout, "asc-sbr.m4a")
    #expect(he.audioObjectType == 5 && he.codec == "mp4a.40.5")
    #expect(he.sampleRate == 48000 && he.channels == 1)
    // HE-AAC's delay: 2048 samples at the output rate.
    #expect(he.primingSamples == 2048)

    var mp3 = Bits()
    mp3.put(31, 5)
    mp3.put(34 - 32, 6)  // MPEG-1 Layer 3 is object type 34
    mp3.put(3, 4)
    mp3.put(1, 4)
    layout.config = mp3.bytes
    let (layer3, _, _) = try read(layout, "asc-mp3.m4a")
    #expect(layer3.damaged?.contains("object type 34, which is not AAC") == true)
    layout.config = [0x11]
    let (short, _, _) = try read(layout, "asc-short.m4a")
    #expect(short.damaged?.contains("cannot be read") == true)
  }

  /// Counts far beyond what a box holds are cut to what is present before anything is reserved.
  @Test func hostileCounts() throws {
    var (bytes, expected) = Self.finishedFile(Layout())
    // stsz: version/flags, sample_size 0, then sample_count: claim four billion.
    let stsz = try #require(MP4DamageTests.find("stsz", in: bytes))
    bytes.replaceSubrange(stsz + 12..<stsz + 16, with: B.u32(0xFFFF_FFFF))
    let path = try files.write(bytes, as: "huge-count.m4a")
    let audio = try MP4Audio.read(path: path)
    #expect(audio.samples == expected)
    #expect(audio.diagnostics.contains { $0.code == .mp4BadSampleTable })

    let head = B.ftyp() + B.fragmentedMoov(trexDuration: 1024, trexSize: 0)
    let trun = B.fullBox("trun", flags: 0x201, B.u32(0xFFFF_FFFF) + B.i32(0) + B.u32(3) + B.u32(3))
    let moof = B.box(
      "moof",
      B.fullBox("mfhd", B.u32(1)) + B.box("traf", B.fullBox("tfhd", flags: 0x02_0000, B.u32(1)) + trun))
    let runPath = try files.write(head + moof + B.box("mdat", [1, 2, 3, 4, 5, 6]), as: "huge-trun.m4a")
    let run = try MP4Audio.read(path: runPath)
    #expect(run.sampleCount == 2)
    #expect(run.diagnostics.contains { $0.code == .mp4BadFragment })

    // Counts with no table behind them (a uniform stsz size, a trun of defaults) are bounded by
    // the file's size, not believed: nothing near four billion samples is ever allocated.
    var uniform = Self.finishedFile(Layout()).0
    let sizes = try #require(MP4DamageTests.find("stsz", in: uniform))
    uniform.replaceSubrange(sizes + 8..<sizes + 16, with: B.u32(3) + B.u32(0xFFFF_FFFF))
    let uniformPath = try files.write(uniform, as: "huge-uniform.m4a")
    let bounded = try MP4Audio.read(path: uniformPath)
    #expect(bounded.sampleCount <= uniform.count / 3)
    let defaults = B.fullBox("trun", flags: 0x001, B.u32(0xFFFF_FFFF) + B.i32(0))
    let defaultsMoof = B.box(
      "moof",
      B.fullBox("mfhd", B.u32(1)) + B.box("traf", B.fullBox("tfhd", flags: 0x02_0000, B.u32(1)) + defaults))
    let defaultsBytes =
      B.ftyp() + B.fragmentedMoov(trexDuration: 1024, trexSize: 0) + defaultsMoof + B.box("mdat", [1])
    let defaultsPath = try files.write(defaultsBytes, as: "huge-defaults.m4a")
    let defaultsAudio = try MP4Audio.read(path: defaultsPath)
    #expect(defaultsAudio.sampleCount <= defaultsBytes.count / 4)
    #expect(defaultsAudio.diagnostics.contains { $0.code == .mp4BadFragment })
    _ = AudioSummary.read(path: defaultsPath)

    // A container of 70,000 empty boxes is read up to a cap, with a diagnostic.
    let crowded =
      B.ftyp()
      + B.box("moov", [UInt8](repeating: 0, count: 0) + (0..<70_000).flatMap { _ in B.box("free", []) })
    let crowdedPath = try files.write(crowded, as: "crowded.m4a")
    let crowd = try MP4Audio.read(path: crowdedPath)
    #expect(crowd.diagnostics.contains { $0.message.contains("more than 65536 boxes") })
    #expect(crowd.damageCode == .mp4NoAudioTrack)
  }

  /// A child that runs past its parent, a box shorter than its header, and deep nesting: each is
  /// recorded and the rest still reads.
  @Test func badSizesAndNesting() throws {
    var (bytes, expected) = Self.finishedFile(Layout())
    // Make the udta-free smhd claim more than minf holds.
    let smhd = try #require(MP4DamageTests.find("smhd", in: bytes))
    bytes.replaceSubrange(smhd - 4..<smhd, with: B.u32(0x7FFF_0000))
    let path = try files.write(bytes, as: "overrun.m4a")
    let audio = try MP4Audio.read(path: path)
    #expect(audio.diagnostics.contains { $0.code == .mp4BadBoxSize })
    #expect(audio.samples.isEmpty || audio.samples == expected)

    let (good, goodExpected) = Self.finishedFile(Layout())
    let tiny = try files.write(good + B.u32(4) + B.fourCC("free"), as: "tiny-box.m4a")
    let torn = try MP4Audio.read(path: tiny)
    #expect(torn.samples == goodExpected)
    #expect(torn.cutShort && torn.tailBytes == 8)
    #expect(
      torn.diagnostics.contains {
        $0.code == .mp4TornTail && $0.message.contains("less than its own 8-byte header")
      })

    var nested = B.box("free", [])
    for _ in 0..<5000 { nested = B.box("trak", nested) }
    let deep = try files.write(B.ftyp() + B.box("moov", nested), as: "deep.m4a")
    #expect(try MP4Audio.read(path: deep).damageCode == .mp4NoAudioTrack)
  }
}
