import Foundation
import StashFormat
import Testing

/// What the fuzzer found in the MP4 reader, rebuilt by hand in its smallest form (the inputs it
/// found are replayed by HostileRegressionTests).
@Suite struct MP4FuzzFindingTests {
  typealias B = MP4BoxBuilder
  let files: MP4TestFiles

  init() throws { files = try MP4TestFiles.shared.get() }

  /// A moof (sequence `sequence`) for track 1 whose samples follow it in an 8-byte-header mdat:
  /// `sizes` bytes each, 1024 units long (trex), from `tfdt`.
  static func moof(sequence: UInt32, tfdt: UInt32, sizes: [UInt32]) -> [UInt8] {
    func build(dataOffset: Int32) -> [UInt8] {
      // trun flags: data-offset, per-sample size; tfhd: default-base-is-moof.
      let trun = B.fullBox(
        "trun", flags: 0x201, B.u32(UInt32(sizes.count)) + B.i32(dataOffset) + sizes.flatMap(B.u32))
      return B.box(
        "moof",
        B.fullBox("mfhd", B.u32(sequence))
          + B.box(
            "traf", B.fullBox("tfhd", flags: 0x02_0000, B.u32(1)) + B.fullBox("tfdt", B.u32(tfdt)) + trun))
    }
    return build(dataOffset: Int32(build(dataOffset: 0).count + 8))
  }

  /// Media data of `count` bytes.
  static func mdat(_ count: Int) -> [UInt8] { B.box("mdat", [UInt8](repeating: 0x21, count: count)) }

  static let head = B.ftyp() + B.fragmentedMoov(trexDuration: 1024, trexSize: 4)

  /// An mdat that claims 4 KB more than the file has, holding a whole later fragment.
  static func overlongBoxHoldingAFragment() -> [UInt8] {
    let inside = moof(sequence: 2, tfdt: 2048, sizes: [4, 4]) + mdat(8)
    return B.u32(UInt32(8 + inside.count + 4096)) + B.fourCC("mdat") + inside
  }

  /// The listing and the full index once disagreed: a first fragment with no whole sample, then a
  /// box whose size runs past the end of the file, inside which lie a whole fragment. The walk
  /// from the start stops at that box, so nothing plays; the listing found the later fragment
  /// from the end and called the file playable.
  @Test func theListingAndTheFullIndexAgreeOnWhatPlays() throws {
    let first = Self.moof(sequence: 1, tfdt: 0, sizes: [0x7FFF_FFF0, 4])
    let damaged = Self.overlongBoxHoldingAFragment()
    let path = try files.write(Self.head + first + Self.mdat(8) + damaged, as: "summary-agrees.m4a")
    let audio = try MP4Audio.read(path: path)
    #expect(audio.samples.isEmpty)
    #expect(audio.damageCode == .mp4NoAudio)
    let summary = AudioSummary.read(path: path)
    guard case .damaged(let reason) = summary.state else {
      Issue.record("the listing says \(summary.state) of a file that plays nothing")
      return
    }
    #expect(reason == audio.damaged)
  }

  /// When the first fragment plays, the listing's quick way still holds: damage further on leaves
  /// the file playable in both readers.
  @Test func aPlayableFirstFragmentKeepsTheQuickWay() throws {
    let first = Self.moof(sequence: 1, tfdt: 0, sizes: [4, 4])
    let damaged = Self.overlongBoxHoldingAFragment()
    let path = try files.write(Self.head + first + Self.mdat(8) + damaged, as: "summary-quick.m4a")
    let audio = try MP4Audio.read(path: path)
    #expect(audio.damaged == nil && audio.samples.count == 2)
    let summary = AudioSummary.read(path: path)
    if case .damaged = summary.state { Issue.record("the listing calls a playable file damaged") }
  }

  /// A fragment whose tfdt goes back is moved to where the audio before it ends: decode times only
  /// move forward (seeking binary-searches them), and the reader says so at that fragment.
  @Test func decodeTimesNeverGoBack() throws {
    let first = Self.moof(sequence: 1, tfdt: 10_000, sizes: [4, 4, 4])
    let back = Self.moof(sequence: 2, tfdt: 500, sizes: [4, 4])
    let forward = Self.moof(sequence: 3, tfdt: 20_000, sizes: [4])
    let backOffset = Self.head.count + first.count + 20
    let bytes = Self.head + first + Self.mdat(12) + back + Self.mdat(8) + forward + Self.mdat(4)
    let audio = try MP4Audio.read(path: try files.write(bytes, as: "decode-time-back.m4a"))
    #expect(audio.damaged == nil)
    // A gap forward (a tfdt later than the end) is kept as the file says.
    #expect(audio.samples.map(\.decodeTime) == [10_000, 11_024, 12_048, 13_072, 14_096, 20_000])
    let moved = audio.diagnostics.filter { $0.message.contains("decode times go back") }
    #expect(moved.count == 1)
    #expect(moved.first?.code == .mp4BadFragment)
    #expect(moved.first?.location.offset == backOffset)
    // Every whole sample still counts toward the length.
    #expect(audio.sampleCount == 6)
  }

  /// A tfdt near the largest time cannot wrap decode times around to negative ones.
  @Test func decodeTimesDoNotWrap() throws {
    let huge = B.box(
      "moof",
      B.fullBox("mfhd", B.u32(1))
        + B.box(
          "traf",
          B.fullBox("tfhd", flags: 0x02_0000, B.u32(1))
            + B.fullBox("tfdt", version: 1, B.u64(UInt64(Int64.max) - 1000))
            + B.fullBox("trun", flags: 0x201, B.u32(3) + B.i32(0) + B.u32(0) + B.u32(0) + B.u32(0))))
    let next = Self.moof(sequence: 2, tfdt: 0, sizes: [0])
    let audio = try MP4Audio.read(
      path: try files.write(Self.head + huge + next + Self.mdat(0), as: "decode-time-wrap.m4a"))
    let times = audio.samples.map(\.decodeTime)
    #expect(times.count == 4)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
    #expect(times.last == .max)
  }
}
