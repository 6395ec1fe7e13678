import Foundation
import StashFormat
import Testing

/// Files with nothing playable, or whose length cannot be read, say why in plain words; the
/// listing's summary gives the same reason.
@Suite struct MP4DamageTests {
  let files: MP4TestFiles

  init() throws { files = try MP4TestFiles.shared.get() }

  /// The damage the full reader reports, checked against the summary's.
  func damage(of path: String) throws -> (reason: String?, code: FormatError.Code?) {
    let audio = try MP4Audio.read(path: path)
    let summary = AudioSummary.read(path: path)
    if let reason = audio.damaged {
      #expect(summary.state == .damaged(reason: reason))
      #expect(audio.durationSeconds == nil && summary.durationSeconds == nil)
      #expect(audio.diagnostics.contains { $0.code == audio.damageCode && $0.severity == .error })
    }
    return (audio.damaged, audio.damageCode)
  }

  /// The top-level boxes of `bytes` as (type, start, end).
  static func topLevel(_ bytes: [UInt8]) -> [(type: String, start: Int, end: Int)] {
    var boxes: [(String, Int, Int)] = []
    var offset = 0
    while offset + 8 <= bytes.count {
      let size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      guard size >= 8 else { break }
      boxes.append((String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self), offset, offset + size))
      offset += size
    }
    return boxes
  }

  /// The index of `pattern` in `bytes`.
  static func find(_ pattern: String, in bytes: [UInt8]) -> Int? { find(Array(pattern.utf8), in: bytes) }

  /// The index of `needle` in `bytes`.
  static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    return (0...(bytes.count - needle.count)).first { Array(bytes[$0..<$0 + needle.count]) == needle }
  }

  @Test func noIndexAtAll() throws {
    let bytes = try files.bytes("fragmented.m4a")
    let moov = try #require(Self.topLevel(bytes).first { $0.type == "moov" })
    let path = try files.write(Array(bytes[..<moov.start] + bytes[moov.end...]), as: "no-moov.m4a")
    let found = try damage(of: path)
    #expect(found.code == .mp4NoIndex)
    #expect(
      found.reason
        == "the file has no index (no moov box), so there is nothing to play; a recording killed before its first flush looks like this"
    )
  }

  @Test func killedBeforeTheFirstFragment() throws {
    let bytes = try files.bytes("fragmented.m4a")
    let moov = try #require(Self.topLevel(bytes).first { $0.type == "moov" })
    let path = try files.write(Array(bytes[..<moov.end]), as: "moov-only.m4a")
    let found = try damage(of: path)
    #expect(found.code == .mp4NoAudio)
    // What the bytes show, not a guess at why: a kill and a copy cut short look the same.
    #expect(found.reason?.contains("the file ends before its first fragment is whole") == true)
    #expect(found.reason?.contains("killed") == false)
  }

  @Test func noAudioTrack() throws {
    let found = try damage(of: files.path("video-only.mp4"))
    #expect(found.code == .mp4NoAudioTrack)
    #expect(found.reason == "the file has no audio track, so there is nothing to play")
  }

  @Test func notAAC() throws {
    let found = try damage(of: files.path("alac.m4a"))
    #expect(found.code == .mp4NotAAC)
    #expect(found.reason == "the audio is not AAC (its sample entry is 'alac'), so it cannot be played")
  }

  /// An AudioSpecificConfig naming a reserved sampling-frequency index cannot be decoded.
  @Test func unreadableAudioSpecificConfig() throws {
    var bytes = try files.bytes("fragmented.m4a")
    // ffmpeg writes the config as 11 88 56 e5 00: object type 2, frequency index 3 (48 kHz).
    let at = try #require(Self.find([0x11, 0x88, 0x56], in: bytes))
    bytes[at] = 0x16  // frequency index 13: reserved
    let path = try files.write(bytes, as: "bad-asc.m4a")
    let found = try damage(of: path)
    #expect(found.code == .mp4BadAudioConfig)
    #expect(found.reason?.contains("sampling frequency is reserved") == true)
  }

  /// The length-unreadable fixture: a fragmented file whose mdhd timescale is 0 still has every
  /// sample indexed (it plays), but no length.
  @Test func timescaleZeroLeavesTheLengthUnreadable() throws {
    var bytes = try files.bytes("fragmented.m4a")
    let mdhd = try #require(Self.find("mdhd", in: bytes))
    // mdhd v0: type, version/flags, creation, modification, then the timescale.
    for i in 0..<4 { bytes[mdhd + 16 + i] = 0 }
    let path = try files.write(bytes, as: "timescale-zero.m4a")
    let audio = try MP4Audio.read(path: path)
    let complete = try MP4Audio.read(path: files.path("fragmented.m4a"))
    #expect(audio.damaged == nil)
    #expect(audio.durationSeconds == nil)
    #expect(audio.timescale == 0)
    #expect(audio.samples == complete.samples)
    // Plain words for the listing; the box is named in the diagnostic inspect and lint print.
    #expect(audio.lengthUnreadableReason?.contains("does not say how fast its clock runs") == true)
    #expect(audio.diagnostics.contains { $0.message.contains("timescale) is 0") })
    let summary = AudioSummary.read(path: path)
    #expect(summary.state == .lengthUnreadable(reason: try #require(audio.lengthUnreadableReason)))
    #expect(summary.durationSeconds == nil)
  }

  /// Every sample duration zero (trex and trun give none) also leaves the length unreadable.
  @Test func zeroDurationsLeaveTheLengthUnreadable() throws {
    typealias B = MP4BoxBuilder
    let head = B.ftyp() + B.fragmentedMoov(trexDuration: 0, trexSize: 4)
    var moof = B.box(
      "moof",
      B.fullBox("mfhd", B.u32(1))
        + B.box(
          "traf",
          B.fullBox("tfhd", flags: 0x02_0000, B.u32(1)) + B.fullBox("tfdt", B.u32(0))
            + B.fullBox("trun", flags: 1, B.u32(2) + B.i32(0))))
    let offset = moof.count + 8
    moof.replaceSubrange(moof.count - 4..<moof.count, with: B.i32(Int32(offset)))
    let path = try files.write(
      head + moof + B.box("mdat", [1, 2, 3, 4, 5, 6, 7, 8]), as: "zero-durations.m4a")
    let audio = try MP4Audio.read(path: path)
    #expect(audio.sampleCount == 2)
    #expect(audio.damaged == nil)
    #expect(audio.lengthUnreadableReason?.contains("gives its audio no duration") == true)
    #expect(audio.diagnostics.contains { $0.message.contains("duration of zero") })
    if case .lengthUnreadable = AudioSummary.read(path: path).state {
    } else {
      Issue.record("the summary must say the length is unreadable")
    }
  }

  /// Junk that is not MP4 at all is damaged, never a crash.
  @Test func notMP4() throws {
    let path = try files.write(Array("this is not an mp4 file, just words\n".utf8), as: "junk.m4a")
    let found = try damage(of: path)
    #expect(found.code == .mp4NoIndex)
    #expect(
      found.reason
        == "the file does not begin as an MP4 file does (its first box would be ' is ', a type no MP4 file starts with), so it has no index and nothing to play"
    )
    // Bytes whose first eight read as a huge box were never an MP4, so they were not cut short:
    // no torn tail (it once said the file "should be 3981906295 bytes").
    var random = SystemRandomNumberGenerator()
    var junk = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
    junk.replaceSubrange(0..<8, with: [0xED, 0x56, 0x3A, 0x77, 0xE0, 0xB6, 0x66, 0xDE])
    let noise = try files.write(junk, as: "noise.m4a")
    #expect(try damage(of: noise).code == .mp4NoIndex)
    let lint = MP4Audio.lintReading(
      FileLocation(path: noise), listedAsRegularFile: true, fullIndex: { _ in true })
    let codes = try #require(lint.diagnostics).get().map(\.code)
    #expect(codes == [.mp4NoIndex], "\(codes)")
    // A file that begins as an MP4 does and is cut short keeps its torn tail.
    let whole = try files.bytes("fragmented.m4a")
    let cut = try files.write(Array(whole[..<(whole.count - 100)]), as: "cut.m4a")
    let cutLint = MP4Audio.lintReading(
      FileLocation(path: cut), listedAsRegularFile: true, fullIndex: { _ in true })
    #expect(try #require(cutLint.diagnostics).get().contains { $0.code == .mp4TornTail })
    let empty = try files.write([], as: "empty.m4a")
    #expect(try damage(of: empty).code == .mp4NoIndex)
  }
}
