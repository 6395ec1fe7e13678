import StashFormat

/// The clip as a plain (non-fragmented) MP4 audio file: `ftyp`, `moov` (one track whose edit list
/// presents exactly the span, the source's `mp4a` sample entry, one chunk of every frame, and the
/// title and date in `udta/meta/ilst`), then `mdat` with the frames byte for byte.
extension AudioClip {
  /// The file's bytes. `frameBytes` is the source's frames in order, `frames`' sizes summed;
  /// `sampleEntry` the source's `mp4a` box; `createdAt` seconds since 1970 UTC.
  public func movie(sampleEntry: [UInt8], frameBytes: [UInt8], title: String, createdAt: Double) -> [UInt8] {
    let boxes = MP4BoxWriter()
    let ftyp = boxes.box("ftyp", Array("M4A ".utf8) + be32(0x200) + Array("M4A mp42isom".utf8))
    let created = UInt64(max(0, createdAt.rounded(.down))) + 2_082_844_800
    let mediaLength = UInt64(frames.reduce(0) { $0 + Int64($1.duration) })
    let shown = UInt64(mediaDuration)
    func moov(chunkOffset: UInt32) -> [UInt8] {
      let mvhd = boxes.fullBox(
        "mvhd", version: 1, flags: 0,
        be64(created) + be64(created) + be32(timescale) + be64(shown) + be32(0x0001_0000) + be16(0x0100)
          + zeros(10) + Self.matrix + zeros(24) + be32(2))
      let tkhd = boxes.fullBox(
        "tkhd", version: 1, flags: 3,
        be64(created) + be64(created) + be32(1) + zeros(4) + be64(shown) + zeros(8) + be16(0) + be16(0)
          + be16(0x0100) + zeros(2) + Self.matrix + be32(0) + be32(0))
      let elst = boxes.fullBox(
        "elst", version: 1, flags: 0, be32(1) + be64(shown) + be64(UInt64(mediaStart)) + be16(1) + be16(0))
      let mdhd = boxes.fullBox(
        "mdhd", version: 1, flags: 0,
        be64(created) + be64(created) + be32(timescale) + be64(mediaLength) + be16(0x55C4) + be16(0))
      let hdlr = boxes.fullBox(
        "hdlr", version: 0, flags: 0,
        zeros(4) + Array("soun".utf8) + zeros(12) + Array("SoundHandler".utf8) + [0])
      let smhd = boxes.fullBox("smhd", version: 0, flags: 0, zeros(4))
      let dref = boxes.fullBox(
        "dref", version: 0, flags: 0, be32(1) + boxes.fullBox("url ", version: 0, flags: 1, []))
      let stbl = boxes.box(
        "stbl",
        boxes.fullBox("stsd", version: 0, flags: 0, be32(1) + sampleEntry)
          + boxes.fullBox("stts", version: 0, flags: 0, timeToSample())
          + boxes.fullBox(
            "stsc", version: 0, flags: 0, be32(1) + be32(1) + be32(UInt32(frames.count)) + be32(1))
          + boxes.fullBox(
            "stsz", version: 0, flags: 0,
            be32(0) + be32(UInt32(frames.count)) + frames.flatMap { be32(UInt32($0.size)) })
          + boxes.fullBox("stco", version: 0, flags: 0, be32(1) + be32(chunkOffset)))
      let minf = boxes.box("minf", smhd + boxes.box("dinf", dref) + stbl)
      let trak = boxes.box(
        "trak", tkhd + boxes.box("edts", elst) + boxes.box("mdia", mdhd + hdlr + minf))
      return boxes.box("moov", mvhd + trak + udta(title: title, created: createdAt))
    }
    // The chunk offset is a fixed-width field: the moov's size does not depend on its value.
    let size = moov(chunkOffset: 0).count
    let mdatHeader = be32(UInt32(8 + frameBytes.count)) + Array("mdat".utf8)
    return ftyp + moov(chunkOffset: UInt32(ftyp.count + size + mdatHeader.count)) + mdatHeader + frameBytes
  }

  /// The title (`©nam`) and date (`©day`) as iTunes-style metadata.
  private func udta(title: String, created: Double) -> [UInt8] {
    let boxes = MP4BoxWriter()
    func item(_ name: String, _ text: String) -> [UInt8] {
      boxes.box(
        [0xA9] + Array(name.utf8), boxes.box("data", be32(1) + be32(0) + Array(text.utf8)))
    }
    let hdlr = boxes.fullBox(
      "hdlr", version: 0, flags: 0, zeros(4) + Array("mdirappl".utf8) + zeros(8) + [0])
    let ilst = boxes.box("ilst", item("nam", title) + item("day", RecordingDate.isoUTC(created)))
    return boxes.box("udta", boxes.fullBox("meta", version: 0, flags: 0, hdlr + ilst))
  }

  /// `stts`: runs of frames that last alike.
  private func timeToSample() -> [UInt8] {
    var runs: [(count: UInt32, delta: UInt32)] = []
    for frame in frames {
      if let lastRun = runs.last, lastRun.delta == frame.duration {
        runs[runs.count - 1].count += 1
      } else {
        runs.append((1, frame.duration))
      }
    }
    return be32(UInt32(runs.count)) + runs.flatMap { be32($0.count) + be32($0.delta) }
  }

  /// The unity matrix of `mvhd` and `tkhd`.
  static let matrix: [UInt8] =
    be32(0x0001_0000) + be32(0) + be32(0) + be32(0) + be32(0x0001_0000) + be32(0) + be32(0) + be32(0)
    + be32(0x4000_0000)
}

/// Writes MP4 boxes: a size, a four-character type, and the payload.
struct MP4BoxWriter {
  func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { box(Array(type.utf8), payload) }

  func box(_ type: [UInt8], _ payload: [UInt8]) -> [UInt8] {
    be32(UInt32(8 + payload.count)) + type + payload
  }

  /// A box with a version and 24 bits of flags before its payload.
  func fullBox(_ type: String, version: UInt8, flags: UInt32, _ payload: [UInt8]) -> [UInt8] {
    box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + payload)
  }
}

fileprivate func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
fileprivate func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xFF) } }
fileprivate func be64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(value >> (56 - 8 * $0) & 0xFF) } }
fileprivate func zeros(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }
