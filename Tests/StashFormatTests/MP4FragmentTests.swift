import Foundation
import StashFormat
import Testing

/// Hand-built fragments covering what ffmpeg never writes: every trun flag combination, each way a
/// tfhd sets its base offset, defaults from tfhd and trex, tfdt versions, several trafs and truns.
@Suite struct MP4FragmentTests {
  typealias B = MP4BoxBuilder
  let files: MP4TestFiles

  init() throws { files = try MP4TestFiles.shared.get() }

  // trun flags, in the order the spec lists them.
  static let dataOffset: UInt32 = 0x001
  static let firstFlags: UInt32 = 0x004
  static let duration: UInt32 = 0x100
  static let size: UInt32 = 0x200
  static let flags: UInt32 = 0x400
  static let cto: UInt32 = 0x800
  static let trunFlagBits: [UInt32] = [dataOffset, firstFlags, duration, size, flags, cto]

  /// How the audio traf finds its base offset.
  enum BaseMode: CaseIterable { case explicit, moof, previousTraf }

  /// A trun with per-sample fields chosen by `flags`.
  static func trun(flags: UInt32, version: UInt8, dataOffset: Int32, durations: [UInt32], sizes: [UInt32])
    -> [UInt8]
  {
    var payload = B.u32(UInt32(durations.count))
    if flags & Self.dataOffset != 0 { payload += B.i32(dataOffset) }
    if flags & firstFlags != 0 { payload += B.u32(0x0200_0000) }
    for (d, s) in zip(durations, sizes) {
      if flags & duration != 0 { payload += B.u32(d) }
      if flags & size != 0 { payload += B.u32(s) }
      if flags & Self.flags != 0 { payload += B.u32(0x0101_0000) }
      if flags & cto != 0 { payload += B.i32(version == 1 ? -7 : 7) }
    }
    return B.fullBox("trun", version: version, flags: flags, payload)
  }

  /// One file: a moof with a traf for another track (2) placing 10 bytes, then the audio traf (1)
  /// with two truns of three samples; returns the file and the samples a reader must find.
  static func file(trunFlags: UInt32, mode: BaseMode, tfdtVersion: UInt8) -> ([UInt8], [AudioSample]) {
    let head = B.ftyp() + B.fragmentedMoov(trexDuration: 1024, trexSize: 13)
    let perSampleDurations: [[UInt32]] = [[100, 200, 300], [400, 500, 600]]
    let perSampleSizes: [[UInt32]] = [[5, 6, 7], [8, 9, 10]]
    let tfhdDefaults = mode != .previousTraf
    let defaultDuration: UInt32 = tfhdDefaults ? 960 : 1024
    let defaultSize: UInt32 = tfhdDefaults ? 11 : 13
    let tfdtTime: UInt64 = tfdtVersion == 1 ? 5_000_000_000 : 5000
    let secondFlags = trunFlags & ~dataOffset

    // The moof's size does not depend on the offsets written in it: build once to measure.
    func moof(base: UInt64, offsets: (Int32, Int32)) -> [UInt8] {
      let other = B.box(
        "traf",
        B.fullBox("tfhd", flags: 0x02_0000, B.u32(2))
          + trun(flags: dataOffset | size, version: 0, dataOffset: offsets.1, durations: [1], sizes: [10]))
      var tfhdFlags: UInt32 = 0
      var tfhdFields = B.u32(1)
      switch mode {
      case .explicit:
        tfhdFlags = 0x01 | 0x02
        tfhdFields += B.u64(base) + B.u32(1)
      case .moof: tfhdFlags = 0x02_0000
      case .previousTraf: break
      }
      if tfhdDefaults {
        tfhdFlags |= 0x08 | 0x10 | 0x20
        tfhdFields += B.u32(960) + B.u32(11) + B.u32(0x0101_0000)
      }
      let tfdt = B.fullBox(
        "tfdt", version: tfdtVersion, tfdtVersion == 1 ? B.u64(tfdtTime) : B.u32(UInt32(tfdtTime)))
      let audio = B.box(
        "traf",
        B.fullBox("tfhd", flags: tfhdFlags, tfhdFields) + tfdt
          + trun(
            flags: trunFlags, version: UInt8(trunFlags >> 8 & 1), dataOffset: offsets.0,
            durations: perSampleDurations[0], sizes: perSampleSizes[0])
          + trun(
            flags: secondFlags, version: 0, dataOffset: 0, durations: perSampleDurations[1],
            sizes: perSampleSizes[1]))
      return B.box("moof", B.fullBox("mfhd", B.u32(1)) + other + audio)
    }
    let moofStart = head.count
    let moofSize = moof(base: 0, offsets: (0, 0)).count
    let payloadStart = moofStart + moofSize + 8
    let audioStart = payloadStart + 10
    let base: Int
    switch mode {
    case .explicit: base = payloadStart
    case .moof: base = moofStart
    case .previousTraf: base = audioStart  // the other traf's data ends here
    }
    let built = moof(
      base: UInt64(payloadStart), offsets: (Int32(audioStart - base), Int32(payloadStart - moofStart)))
    // Where the audio data really starts: at base + data_offset, or at base without one.
    var offset = trunFlags & dataOffset != 0 ? audioStart : base
    var decodeTime = Int64(tfdtTime)
    var expected: [AudioSample] = []
    for run in 0..<2 {
      let flags = run == 0 ? trunFlags : secondFlags
      for index in 0..<3 {
        let d = flags & duration != 0 ? perSampleDurations[run][index] : defaultDuration
        let s = flags & size != 0 ? Int(perSampleSizes[run][index]) : Int(defaultSize)
        expected.append(AudioSample(offset: offset, size: s, duration: d, decodeTime: decodeTime))
        offset += s
        decodeTime += Int64(d)
      }
    }
    // Enough media data that every sample's bytes are in the file wherever it points.
    let media = B.box("mdat", [UInt8](repeating: 0xA5, count: 10 + 6 * 13))
    return (head + built + media, expected)
  }

  /// All 64 combinations of trun flags, with each way of setting the base offset and both tfdt versions.
  @Test func everyTrunFlagCombination() throws {
    var checked = 0
    for bits in 0..<64 {
      let trunFlags = Self.trunFlagBits.enumerated().reduce(UInt32(0)) {
        bits >> $1.offset & 1 == 1 ? $0 | $1.element : $0
      }
      for mode in BaseMode.allCases {
        let tfdtVersion = UInt8(bits % 2)
        let (bytes, expected) = Self.file(trunFlags: trunFlags, mode: mode, tfdtVersion: tfdtVersion)
        let path = try files.write(bytes, as: "flags-\(bits)-\(mode).m4a")
        let audio = try MP4Audio.read(path: path)
        #expect(audio.samples == expected, "trun flags 0x\(String(trunFlags, radix: 16)), base \(mode)")
        #expect(audio.damaged == nil)
        let units = expected.reduce(0) { $0 + Int($1.duration) } - 1024
        #expect(audio.durationSeconds == Double(max(units, 0)) / 48000)
        #expect(AudioSummary.read(path: path).durationSeconds == audio.durationSeconds)
        checked += 1
      }
    }
    #expect(checked == 192)
  }

  /// A traf marked duration-is-empty contributes no samples; a following fragment still counts.
  @Test func durationIsEmptyAndSeveralFragments() throws {
    let head = B.ftyp() + B.fragmentedMoov(trexDuration: 1024, trexSize: 4)
    func fragment(sequence: UInt32, empty: Bool, time: UInt32) -> [UInt8] {
      let tfhd = B.fullBox("tfhd", flags: 0x02_0000 | (empty ? 0x01_0000 : 0), B.u32(1))
      let body = B.fullBox("tfdt", B.u32(time)) + (empty ? [] : trunWithOffset(count: 3))
      return B.box("moof", B.fullBox("mfhd", B.u32(sequence)) + B.box("traf", tfhd + body))
    }
    // data_offset = moof size + 8 (the mdat header): measured from a first build.
    func trunWithOffset(count: UInt32, offset: Int32 = 0) -> [UInt8] {
      B.fullBox("trun", flags: 0x001, B.u32(count) + B.i32(offset))
    }
    let emptyFragment = fragment(sequence: 1, empty: true, time: 0)
    var second = fragment(sequence: 2, empty: false, time: 0)
    let offset = Int32(second.count + 8)
    second = B.box(
      "moof",
      B.fullBox("mfhd", B.u32(2))
        + B.box(
          "traf",
          B.fullBox("tfhd", flags: 0x02_0000, B.u32(1)) + B.fullBox("tfdt", B.u32(0))
            + trunWithOffset(count: 3, offset: offset)))
    let sidx = B.fullBox("sidx", B.u32(1) + B.u32(48000) + B.u32(0) + B.u32(0) + B.u16(0) + B.u16(0))
    let mfra = B.box("mfra", B.fullBox("mfro", B.u32(16)))
    let bytes = head + sidx + emptyFragment + second + B.box("mdat", [UInt8](repeating: 1, count: 12)) + mfra
    let path = try files.write(bytes, as: "empty-duration.m4a")
    let audio = try MP4Audio.read(path: path)
    let start = head.count + sidx.count + emptyFragment.count + second.count + 8
    #expect(audio.samples.map(\.offset) == [start, start + 4, start + 8])
    #expect(audio.samples.map(\.duration) == [1024, 1024, 1024])
    #expect(audio.durationSeconds == Double(2048) / 48000)
    #expect(!audio.cutShort)
    #expect(
      AudioSummary.read(path: path)
        == AudioSummary(
          state: .ok, durationSeconds: Double(2048) / 48000, creationTime: audio.creationTime,
          fragmented: true))
  }

  /// The listing finds the last fragment from the end, searching back a block at a time: found
  /// wherever it lies before the end (across block boundaries, and past the first 32 KB looked
  /// at). Damage between the first and the last fragment stops a walk from the start, so only the
  /// fragment found from the end gives this length.
  @Test func lastFragmentIsFoundFromTheEndAtAnyDistance() throws {
    let head = B.ftyp() + B.fragmentedMoov(trexDuration: 1024, trexSize: 4)
    func fragment(sequence: UInt32, time: UInt32) -> [UInt8] {
      func build(offset: Int32) -> [UInt8] {
        let tfhd = B.fullBox("tfhd", flags: 0x02_0000, B.u32(1))
        let trun = B.fullBox("trun", flags: 0x001, B.u32(3) + B.i32(offset))
        return B.box(
          "moof",
          B.fullBox("mfhd", B.u32(sequence)) + B.box("traf", tfhd + B.fullBox("tfdt", B.u32(time)) + trun))
      }
      // The samples start just after the mdat's header, which follows the moof.
      return build(offset: Int32(build(offset: 0).count + 8))
    }
    let first = fragment(sequence: 1, time: 0) + B.box("mdat", [UInt8](repeating: 1, count: 12))
    // A box whose size is less than its header: a walk from the start stops here.
    let damage = B.u32(3) + B.fourCC("free") + [UInt8](repeating: 0, count: 40)
    let last = fragment(sequence: 9, time: 10 * 1024)
    var checked = 0
    for after in [0, 1, 500, 1000, 1010, 1023, 1024, 1025, 1100, 2040, 2048, 3000, 33_000, 40_000] {
      let mdat = B.box("mdat", [UInt8](repeating: 1, count: 12) + [UInt8](repeating: 0, count: after))
      let path = try files.write(head + first + damage + last + mdat, as: "last-fragment-\(after).m4a")
      let summary = AudioSummary.read(path: path)
      // From the first fragment's decode time to the last's, its 3 samples, less 1024 of priming.
      #expect(summary.state == .ok, "\(after) bytes after the last fragment")
      #expect(summary.durationSeconds == Double(12 * 1024) / 48000, "\(after) bytes after the last fragment")
      checked += 1
    }
    #expect(checked == 14)
  }
}
